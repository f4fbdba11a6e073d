"""The lessons, built for real: a drifted number in a lesson's prose fails `mkdocs build --strict`
and `zensical build`, each naming the lesson's page and the line (one copy drifting every lesson)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import copy_repo, lesson_params, mkdocs_build

pytestmark = pytest.mark.build  # reads the built site or builds a copy


def _first_bound_decimal(text: str) -> tuple[str, str]:
    """(the written decimal, the same with its last digit changed) of the first decimal bound in prose."""
    m = re.search(r"(?<![\d.])(\d+\.\d+)\{=", text)
    assert m, "no bound decimal on the page"
    written = m.group(1)
    return written, written[:-1] + str((int(written[-1]) + 5) % 10)


def test_one_build_names_every_page_with_a_problem(tmp_path):
    """A drifted number in each lesson's prose fails both builders at its page and line, and both
    check every page before they fail: the author sees all drifted pages at once (one copy, one
    build a builder, whatever the number of lessons)."""
    from tests.conftest import LESSONS

    repo = copy_repo(tmp_path / "repo", with_cache=True)
    expected = []
    for lesson in LESSONS:
        page = repo / lesson.page
        text = page.read_text(encoding="utf-8")
        written, drifted = _first_bound_decimal(text)
        at = text.index(written + "{=")
        page.write_text(text[:at] + drifted + text[at + len(written):], encoding="utf-8")
        expected.append(f"{lesson.page}:{text[:at].count(chr(10)) + 1}: 数字漂移：正文写 {drifted}，代码现算")
    built = mkdocs_build(repo, tmp_path / "site")
    said = built.stdout + built.stderr
    assert built.returncode != 0 and all(e in said for e in expected), said
    [last] = [line for line in said.splitlines() if "构建失败，问题见上" in line]
    assert all(f"{lesson.page}（1 处）" in last for lesson in LESSONS), last
    zensical = _zensical(repo)
    assert zensical.returncode != 0 and all(e in zensical.stdout + zensical.stderr for e in expected)


def test_pages_saved_with_a_bom_and_crlf_are_checked_and_a_page_that_is_not_utf8_fails_at_its_path(tmp_path):
    """Every lesson page and 如何写一讲 saved as a Windows editor saves them (a BOM, CRLF) with a drifted
    number: one build names each drift at its line, and no lesson loses its title; then a page holding
    bytes that are not UTF-8 fails the build naming that page and line."""
    from tests.conftest import LESSONS

    repo = copy_repo(tmp_path / "repo", with_cache=True)
    expected = []
    for lesson in LESSONS:
        text = (repo / lesson.page).read_text(encoding="utf-8")
        written, drifted = _first_bound_decimal(text)
        at = text.index(written + "{=")
        text = text[:at] + drifted + text[at + len(written):]
        (repo / lesson.page).write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
        expected.append(f"{lesson.page}:{text[:at].count(chr(10)) + 1}: 数字漂移：正文写 {drifted}，代码现算")
    authoring = repo / "docs/authoring.md"
    text = authoring.read_text(encoding="utf-8")
    limit = re.search(r"(?<!\d)(\d+) 秒\{=TIME_LIMIT\}", text)
    drifted = str(int(limit.group(1)) + 30)
    authoring.write_bytes(b"\xef\xbb\xbf" + (text[:limit.start(1)] + drifted + text[limit.end(1):]).encode())
    expected.append(f"docs/authoring.md:{text[:limit.start()].count(chr(10)) + 1}: 数字漂移：正文写 {drifted}，代码现算")
    built = mkdocs_build(repo, tmp_path / "site")
    said = built.stdout + built.stderr
    assert built.returncode != 0 and all(e in said for e in expected), said
    assert "没有标题" not in said, said
    setup = repo / "docs/setup.md"
    lines = setup.read_bytes().count(b"\n")
    setup.write_bytes(setup.read_bytes() + "这一行存成了 GBK\n".encode("gbk"))
    built = mkdocs_build(repo, tmp_path / "site")
    said = built.stdout + built.stderr
    assert built.returncode != 0 and f"docs/setup.md:{lines + 1}: 这个文件不是 UTF-8 编码" in said, said
    assert "Traceback" not in said, said  # the author's message, not MkDocs' UnicodeDecodeError


def _zensical(repo):
    env = {**os.environ, "PYTHONPATH": str(repo)}
    return subprocess.run([sys.executable, "-m", "zensical", "build", "--clean"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


def test_a_tinylm_change_that_breaks_several_pages_fails_one_build_naming_them_all(tmp_path):
    """A tinylm edit that breaks attention breaks every lesson that uses tinylm and every page bound
    to a lesson (source pages name theirs in front matter): one build names them all, each at a line."""
    from tests.conftest import LESSONS

    repo = copy_repo(tmp_path / "repo", with_cache=True)
    source = repo / "tinylm/attention.py"
    text = source.read_text(encoding="utf-8")
    anchor = "    check_shapes(q, k, v)\n"
    assert anchor in text
    source.write_text(text.replace(anchor, anchor + '    raise RuntimeError("attention 坏了")\n', 1), encoding="utf-8")
    def uses_tinylm(lesson) -> bool:  # directly, or through an earlier lesson's experiments
        code = "".join(p.read_text(encoding="utf-8") for p in (lesson.root / f"lessons/l{lesson.number}").glob("*.py"))
        return "tinylm" in code or re.search(r"from lessons\.l\d+", code) is not None

    pages = [lesson.page for lesson in LESSONS if uses_tinylm(lesson)]
    pages += sorted(p.relative_to(repo).as_posix() for p in (repo / "docs").rglob("*.md")
                    if p.relative_to(repo).as_posix() not in pages and re.search(r"^session:", p.read_text(encoding="utf-8"), re.M))
    assert len(pages) >= 3
    built = mkdocs_build(repo, tmp_path / "site")
    said = built.stdout + built.stderr
    assert built.returncode != 0, said
    [last] = [line for line in said.splitlines() if "构建失败，问题见上" in line]
    for page in pages:
        assert f"{page}（" in last, (page, last)
        assert re.search(rf"{re.escape(page)}:\d+: .*attention 坏了", said), page
    for lesson in LESSONS:  # each failing lesson's notebook is made too, written as its page came, its error first
        if lesson.page in pages:
            notebook = (tmp_path / "site" / lesson.notebook_url / "index.html").read_text(encoding="utf-8")
            assert "attention 坏了" in notebook, lesson.id


def _unimported_experiment(lesson, lessons) -> str | None:
    """An experiment file of the lesson that no experiment of any lesson imports (so that making it
    raise fails this lesson's run and no other), or None."""
    code = "".join(p.read_text(encoding="utf-8") for other in lessons
                   for p in (other.root / f"lessons/l{other.number}").glob("*.py"))
    for name, _ in reversed(lesson.experiments):
        if not re.search(rf"\blessons\.l{lesson.number}\.{name}\b|from lessons\.l{lesson.number} import [^\n]*\b{name}\b", code):
            return f"{lesson.folder}/{name}.py"
    return None


def test_an_experiment_that_raises_fails_one_build_naming_each_page_file_and_line(tmp_path):
    """In one copy an experiment of each lesson raises (one no other experiment imports): one build
    names every lesson's page with the file and line of its raise and the error's own words."""
    from tests.conftest import LESSONS

    repo = copy_repo(tmp_path / "repo", with_cache=True)
    raising = {lesson: _unimported_experiment(lesson, LESSONS) for lesson in LESSONS}
    assert all(raising.values()), f"every experiment of {[le.id for le, f in raising.items() if not f]} is imported"
    where = {}
    for lesson, rel in raising.items():
        text = (repo / rel).read_text(encoding="utf-8").rstrip("\n") + "\n"
        (repo / rel).write_text(text + f'raise RuntimeError("故意抛出的错误 {lesson.id}")\n', encoding="utf-8")
        where[lesson] = f"{rel}:{text.count(chr(10)) + 1}"
    built = mkdocs_build(repo, tmp_path / "site")
    said = built.stdout + built.stderr
    assert built.returncode != 0, said
    for lesson, at in where.items():
        assert [row for row in said.splitlines() if lesson.page in row and at in row], (lesson.id, at, said)
        assert f"RuntimeError: 故意抛出的错误 {lesson.id}" in said, lesson.id


def _bound_comment(lesson) -> tuple[str, int, str] | None:
    """(file, offset, number) of the first number in digits that the lesson's data file binds in a
    comment or docstring of an experiment file (the number its binding's words end with)."""
    from coursekit.core import comments

    files = [f"{lesson.folder}/{name}.py" for name, _ in lesson.experiments]
    for b in comments.load_bindings(lesson.root, lesson.folder, files)[0]:
        m = re.search(r"(?<![\d.])(\d+)$", b.words)
        text = (lesson.root / b.file).read_text(encoding="utf-8")
        if b.expr and m and b.words in text:
            return b.file, text.index(b.words) + m.start(1), m.group(1)
    return None


@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: _bound_comment(lesson) is not None))
def test_a_drifted_number_in_a_listings_comment_fails_the_build_at_its_file_and_line(tmp_path, lesson):
    """The number is bound in the lesson's data file, not in the file: edited in the comment, it drifts."""
    rel, at, number = _bound_comment(lesson)
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    text = (repo / rel).read_text(encoding="utf-8")
    drifted = str(int(number) + 7)
    (repo / rel).write_text(text[:at] + drifted + text[at + len(number) :], encoding="utf-8")
    line = text.count("\n", 0, at) + 1
    built = mkdocs_build(repo, tmp_path / "site")
    said = built.stdout + built.stderr
    assert built.returncode != 0 and f"{rel}:{line}: 数字漂移：注释写 {drifted}" in said, said
