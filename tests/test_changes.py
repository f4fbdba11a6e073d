"""The reviewer's view (coursekit.manifest, coursekit.changes, scripts/changes.py): which numbers,
listings and pages a change changes."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from coursekit import changes, engine, manifest, numbers, pages
from coursekit.harness import copy_repo, mkdocs_build
from tests.conftest import edit


def live_numbers(repo) -> dict:
    """(page, line, expression, which value) -> live value, read by the guard itself, page by page."""
    build = engine.Build(repo)
    try:
        out = {}
        for path in pages.site_pages(repo):
            rel = path.relative_to(repo).as_posix()
            _, bound, _ = pages.check(build, repo, path)
            out.update({(rel, b.line, b.expr, b.at): numbers.show(b.live) for b in bound})
        return out
    finally:
        build.close()


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    repo = copy_repo(tmp_path_factory.mktemp("changes") / "repo", with_cache=True)
    site = repo.parent / "base-site"
    assert mkdocs_build(repo, site).returncode == 0
    return repo, site


def test_the_manifest_is_deterministic_and_small(base, tmp_path):
    repo, site = base
    assert mkdocs_build(repo, tmp_path / "again").returncode == 0
    first = (site / manifest.NAME).read_bytes()
    assert first == (tmp_path / "again" / manifest.NAME).read_bytes()
    data = json.loads(first)
    lesson_pages = [p.relative_to(repo).as_posix() for p in pages.lesson_pages(repo)]
    assert all(data["pages"][p]["numbers"] for p in lesson_pages) and set(data["lessons"]) >= {"l" + p.split("/")[-1][:2] for p in lesson_pages}


def test_a_tinylm_change_reports_exactly_the_numbers_it_changes_with_lines_and_values(base, tmp_path):
    repo, site = base
    before = live_numbers(repo)
    edit(repo, "tinylm/embedding.py", "/ d_model**0.5)", "/ d_model**0.5 * 0.9)")
    try:
        after_site = tmp_path / "head"
        mkdocs_build(repo, after_site)  # it fails: the prose still shows the old numbers
        after = live_numbers(repo)
        found = changes.compare(manifest.load(site), manifest.load(after_site))
    finally:
        edit(repo, "tinylm/embedding.py", "/ d_model**0.5 * 0.9)", "/ d_model**0.5)")
    expected = {(k[0], k[1], before[k], after[k], k[2]) for k in before if k in after and before[k] != after[k]}
    reported = {(c.page, new["line"], old["live"], new["live"], new["expr"]) for c in found.pages for old, new in c.numbers}
    assert expected and reported == expected
    assert all(not c.edited for c in found.pages if c.numbers)  # tinylm changed, no page did
    report = changes.markdown(found, "https://preview.example/pr-7/")
    assert "（这次没有改动这一页）" in report and "重新运行的讲" in report


def test_a_prose_only_change_reports_no_number(base, tmp_path):
    repo, site = base
    page = pages.lesson_pages(repo)[0].relative_to(repo).as_posix()
    text = (repo / page).read_text(encoding="utf-8")
    sentence = next(line for line in text.split("\n") if line.startswith("位置 0") or "。" in line and "{" not in line and line[:1] not in "#`!-|<>")
    edit(repo, page, sentence, sentence + "这是补上的一句。")
    try:
        assert mkdocs_build(repo, tmp_path / "prose").returncode == 0
    finally:
        edit(repo, page, sentence + "这是补上的一句。", sentence)
    found = changes.compare(manifest.load(site), manifest.load(tmp_path / "prose"))
    assert [c.page for c in found.pages] == [page] and found.pages[0].edited and not found.pages[0].numbers
    assert "数变了：0 个" in changes.markdown(found)


def test_hostile_manifest_text_stays_inline_code_and_unlinked():
    evil = {"line": 1, "written": "`x` | <script>alert(1)</script>", "live": "1", "expr": "a](javascript:alert(1))", "at": 0}
    base = {"format": 1, "pages": {"p.md": {"source": "a", "url": "p/", "numbers": [{**evil, "live": "0"}], "shown": []}},
            "lessons": {}}
    head = {"format": 1, "pages": {"p.md": {"source": "a", "url": "javascript:alert(1)", "numbers": [evil], "shown": []},
                                    "../x](javascript:1)": {"url": "x"}}, "lessons": {}}
    report = changes.markdown(changes.compare(base, head), "https://preview.example/pr-7/")
    outside_code = re.sub(r"`` .*? ``", "", report)
    assert "javascript" not in outside_code and "<script>" not in outside_code and "](" not in outside_code
    assert "`` ˋxˋ ¦ <script>alert(1)</script> ``" in report  # shown, as code, its backticks and bars defused


def test_the_script_compares_two_sites_and_refuses_what_is_no_manifest(base, tmp_path):
    repo, site = base
    same = subprocess.run([sys.executable, "scripts/changes.py", str(site), str(site / manifest.NAME)],
                          cwd=repo, capture_output=True, text=True, timeout=120)
    assert same.returncode == 0 and "没有：每一页的数" in same.stdout
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    bad = subprocess.run([sys.executable, "scripts/changes.py", str(site), str(tmp_path / "bad.json")],
                         cwd=repo, capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "bad.json: 不是这一版构建写出的清单" in bad.stderr
