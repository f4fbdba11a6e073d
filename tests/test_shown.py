"""A lesson page's listings and outputs are held to its reviewed record (coursekit.core.shown): shared code
changing under a published page fails the build at that page until the author confirms it, and a
later lesson leaves an earlier lesson's page as it was."""

from __future__ import annotations

import difflib
import json
import re
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup

from coursekit.core import shown
from scripts.drive import remove_lessons
from tests.conftest import LESSONS, ROOT, copy_repo, lesson_params, mkdocs_build

PAGE = "docs/lessons/97-fixture.md"  # a lesson number no lesson uses: shown.py only reads its folder name


def _record(root, blocks) -> None:
    path = root / "lessons/l97" / shown.RECORD
    path.parent.mkdir(parents=True)
    path.write_text(shown.as_record(PAGE, blocks), encoding="utf-8")


LISTING = shown.Shown(12, "lessons/l97/demo.py:listing", "x = 1\nprint(x + 1)", "2\n")
FIGURE = shown.Shown(30, shown.EXECUTED, "print(figure(x))", "<svg>1</svg>")


def test_a_page_that_shows_what_was_reviewed_has_no_problem(tmp_path):
    _record(tmp_path, [LISTING, FIGURE])
    moved = [shown.Shown(40, *(LISTING.block, LISTING.code, LISTING.output)), FIGURE]  # prose edits move lines
    assert shown.compare(tmp_path, PAGE, moved) == []


@pytest.mark.parametrize("change, words", [
    ({"code": "x = 1\nprint(x + 2)"}, ["代码与确认过的记录不同", "第 2 行「print(x + 1)」→「print(x + 2)」"]),
    ({"output": "3\n"}, ["输出与确认过的记录不同", "第 1 行「2」→「3」"]),
])
def test_a_changed_listing_is_named_at_its_line_with_the_change_and_the_command(tmp_path, change, words):
    _record(tmp_path, [LISTING])
    now = shown.Shown(**{**LISTING.__dict__, **change})
    [problem] = shown.compare(tmp_path, PAGE, [now])
    assert (problem.path, problem.line, problem.kind) == (PAGE, 12, "listing")
    assert "代码清单 lessons/l97/demo.py:listing" in problem.message
    assert all(w in problem.message for w in words), problem.message
    assert f"python scripts/confirm_shown.py {PAGE}" in problem.message


def test_new_gone_and_unrecorded_blocks_are_reported(tmp_path):
    assert "还没有确认过的清单记录 lessons/l97/reviewed.json" in shown.compare(tmp_path, PAGE, [LISTING])[0].message
    _record(tmp_path, [LISTING])
    new = shown.compare(tmp_path, PAGE, [FIGURE])
    assert len(new) == 2 and "执行的代码块「print(figure(x))」是新的，还没有确认" in new[0].message
    assert "代码清单 lessons/l97/demo.py:listing 已不在页面上" in new[1].message
    (tmp_path / "lessons/l97" / shown.RECORD).write_text("{", encoding="utf-8")
    [broken] = shown.compare(tmp_path, PAGE, [LISTING])
    assert broken.path == "lessons/l97/reviewed.json" and "清单记录读不了" in broken.message


def test_a_long_line_is_cut_around_its_first_difference():
    old, new = "a" * 100 + "0.4011" + "b" * 100, "a" * 100 + "0.5011" + "b" * 100
    said = shown.difference(old, new)
    assert "0.4011" in said and "0.5011" in said and len(said) < 150 and said.count("…") == 4


@pytest.mark.parametrize("lesson", lesson_params())
def test_every_lesson_has_a_record_of_what_its_page_shows(lesson):
    data = json.loads((ROOT / lesson.folder / shown.RECORD).read_text(encoding="utf-8"))
    assert data["page"] == lesson.page and data["shown"], "run python scripts/confirm_shown.py " + lesson.page


def _tinylm_listing(lesson):
    m = re.search(r'file="(tinylm/[\w/]+\.py):(\w+)"', lesson.markdown())
    return m and (m.group(1), m.group(2), lesson.markdown()[: m.start()].count("\n") + 1)


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params(having=_tinylm_listing))
def test_shared_code_changing_under_a_lesson_fails_until_confirmed(tmp_path, lesson):
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    path, section, line = _tinylm_listing(lesson)
    source = repo / path
    text = source.read_text(encoding="utf-8")
    marker = f"# --8<-- [end:{section}]"
    source.write_text(text.replace(marker, "# 以后的一讲加了一行\n" + marker, 1), encoding="utf-8")

    failed = mkdocs_build(repo, tmp_path / "site")
    assert failed.returncode != 0
    assert re.search(rf"{re.escape(lesson.page)}:{line}: 代码清单 {re.escape(path)}:{section} 的代码与确认过的记录不同"
                     r"（第 \d+ 行「[^」]*」→「# 以后的一讲加了一行」", failed.stdout + failed.stderr), failed.stderr

    confirm = subprocess.run([sys.executable, "scripts/confirm_shown.py", lesson.page], cwd=repo,
                             capture_output=True, text=True)
    assert confirm.returncode == 0, confirm.stderr
    assert f"已写入 {lesson.folder}/reviewed.json（新增 0 个，变了 1 个，去掉 0 个）" in confirm.stdout
    record = (repo / lesson.folder / shown.RECORD).read_text(encoding="utf-8")
    assert "# 以后的一讲加了一行" in record
    passed = mkdocs_build(repo, tmp_path / "site")
    assert passed.returncode == 0, passed.stdout + passed.stderr


@pytest.mark.build
def test_confirm_refuses_while_the_build_fails_for_another_reason(tmp_path):
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    lesson = LESSONS[0]
    page = repo / lesson.page
    before = (repo / lesson.folder / shown.RECORD).read_text(encoding="utf-8")
    page.write_text(page.read_text(encoding="utf-8") + "\n约为 0.123{=1 + len([])}。\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "scripts/confirm_shown.py", lesson.page], cwd=repo,
                            capture_output=True, text=True)
    assert result.returncode == 1 and "什么都没有确认" in result.stderr
    assert (repo / lesson.folder / shown.RECORD).read_text(encoding="utf-8") == before
    unknown = subprocess.run([sys.executable, "scripts/confirm_shown.py", "docs/index.md"], cwd=repo,
                             capture_output=True, text=True)
    assert unknown.returncode == 2 and "docs/lessons/" in unknown.stderr


def _article(html: str, gone: list[str]) -> str:
    """A lesson page's article as a reader reads it: no footer, links to lessons `gone` unwrapped."""
    article = BeautifulSoup(html, "html.parser").select_one("article")
    for el in article.select("nav, .tl-repro"):  # navigation between lessons, the build footer
        el.decompose()
    for a in article.select("a[href]"):
        if any(g in a["href"] for g in gone):
            a.unwrap()
    return str(article)


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params(LESSONS[:-1]))
def test_later_lessons_leave_an_earlier_page_as_it_was(tmp_path, built_site, lesson):
    """The course without the lessons after this one builds this lesson's page as the course with them
    does, apart from the footer and links to those lessons. (The code those lessons added to tinylm
    stays: what it changes on this page, the reviewed record catches; the strict build holds it.)"""
    later = [x for x in LESSONS if int(x.number) > int(lesson.number)]
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    remove_lessons(repo, later)
    result = mkdocs_build(repo, tmp_path / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    gone = [x.url.rstrip("/").rsplit("/", 1)[-1] for x in later] + [f"{x.number}-notebook" for x in later]
    alone, with_later = ([line for line in _article(lesson.html(site), gone).split("\n") if line.strip()]
                         for site in (tmp_path / "site", built_site))
    moved = "\n".join(difflib.unified_diff(alone, with_later, "without later lessons", "with them", n=0, lineterm=""))
    assert not moved, moved[:3000]
