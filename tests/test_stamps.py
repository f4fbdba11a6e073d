"""When a file is read again (coursekit.core.stamps): an edit that a stat alone would miss is noticed."""

from __future__ import annotations

import os
import time

from coursekit.core import digests, engine, stamps


def test_an_edit_of_the_same_size_with_its_old_mtime_put_back_is_noticed(tmp_path):
    path = tmp_path / "lessons/l1/a.py"
    path.parent.mkdir(parents=True)
    path.write_text("x = 1\n", encoding="utf-8")
    old = time.time_ns() - 10 * stamps.RACY
    os.utime(path, ns=(old, old))
    lesson = engine.Lesson("lessons.l1", "1", "测试", [("a", "a")])
    before = digests.file_hash(tmp_path, "lessons/l1/a.py", lesson)
    path.write_text("x = 2\n", encoding="utf-8")  # the same size
    os.utime(path, ns=(old, old))  # as tools that keep mtimes leave it
    assert digests.file_hash(tmp_path, "lessons/l1/a.py", lesson) != before


def test_a_file_written_within_the_timestamp_granularity_of_its_read_is_read_again(tmp_path, monkeypatch):
    """On a coarse file system two writes can leave identical times: such a stamp is not trusted
    until its times are older than the read by more than the granularity."""
    path = tmp_path / "f.txt"
    path.write_text("a", encoding="utf-8")
    now = time.time_ns()
    frozen = (now, now, 1, 1)
    monkeypatch.setattr(stamps, "stamp", lambda p: frozen)
    seen = stamps.Remembered()
    assert seen.get(path, lambda p: p.read_text()) == "a"
    path.write_text("b", encoding="utf-8")  # same stamp, as a coarse clock would give
    assert seen.get(path, lambda p: p.read_text()) == "b"
    frozen = (now - 10 * stamps.RACY, now - 10 * stamps.RACY, 1, 1)
    monkeypatch.setattr(stamps, "stamp", lambda p: frozen)
    assert seen.get(path, lambda p: p.read_text()) == "b"
    reads = []
    assert seen.get(path, lambda p: reads.append(p) or "c") == "b" and reads == []  # old enough: trusted


def test_a_missing_file_is_looked_for_again(tmp_path):
    seen, path = stamps.Remembered(), tmp_path / "gone.txt"
    assert seen.get(path, lambda p: p.exists()) is False
    path.write_text("here", encoding="utf-8")
    assert seen.get(path, lambda p: p.exists()) is True
