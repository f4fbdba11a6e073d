"""Lessons pointing at each other (coursekit.extensions.crossref): references become links only to lessons that
exist, each lesson page links its neighbours, the home page's table comes from each lesson's own
title and SUMMARY, a lesson without a summary fails the build, and so does a dead internal link.

In process on a fixture course of its own (lessons 3, 4, 41, 42, 44: no gap-free run, one gap),
then through real `mkdocs build --strict` and `zensical build` runs of a repository copy with two
scratch lessons at numbers no lesson uses."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import ClassVar
from pathlib import Path

import markdown
import pytest
from bs4 import BeautifulSoup

from coursekit.extensions import crossref, checks
from coursekit.core import engine
from tests.conftest import ROOT, copy_repo, mkdocs_build

# ---- in process: a fixture course ---------------------------------------------------------------

FIXTURE = {  # number: (slug, title, summary)
    3: ("three", "03｜第三讲：向量", "把字变成向量"),
    4: ("four", "04｜第四讲：相似", "用点积比较向量"),
    41: ("alpha", "41｜甲：读前文", "让每个位置读到前文"),
    42: ("beta", "42｜乙：*星号* 与 <标签> & [方括号] | 竖线", '他说 "引号"、\\ 反斜杠、`反引号`、*星号*、|竖线|'),
    44: ("delta", "44｜丁：跳过一讲", "第 43 讲还没有写"),
}


_tick = iter(range(1, 10**9))


def stamp(path: Path) -> None:
    """A modification time of its own: two writes within one clock tick would look unchanged."""
    ns = 1_700_000_000_000_000_000 + next(_tick) * 1_000_000
    os.utime(path, ns=(ns, ns))


def write_lesson(root: Path, number: int, body: str = "正文。\n", title: str | None = None,
                 summary: str | None = "", package: bool = True) -> Path:
    slug, own_title, own_summary = FIXTURE.get(number, (f"n{number}", f"{number:02d}｜第 {number} 讲", "简介"))
    page = root / f"docs/lessons/{number:02d}-{slug}.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    title = own_title if title is None else title
    page.write_text(f"---\ntitle: {title!r}\n---\n\n# {title}\n\n{body}", encoding="utf-8")
    stamp(page)
    if package:
        init = root / f"lessons/l{number:02d}/__init__.py"
        init.parent.mkdir(parents=True, exist_ok=True)
        summary = own_summary if summary == "" else summary
        line = "" if summary is None else f"SUMMARY = {summary!r}\n"
        init.write_text(f'"""第 {number} 讲"""\n\n{line}EXPERIMENTS = []\n', encoding="utf-8")
        stamp(init)
    return page


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A docs/ tree of the fixture lessons, and the engine state a build would set (no lesson runs)."""
    for number in FIXTURE:
        write_lesson(tmp_path, number)
    (tmp_path / "docs/index.md").write_text(f"# 首页\n\n## 课程目录\n\n{crossref.TABLE_MARKER}\n\n后记。\n", encoding="utf-8")
    monkeypatch.setattr(engine, "current", engine.Current(build=None, root=tmp_path, collects=False))
    return tmp_path


EXTENSIONS = ["attr_list", "md_in_html", "tables", "admonition", "pymdownx.details", "pymdownx.superfences",
              "toc", "coursekit.extensions.crossref", "coursekit.extensions.cjk"]


def convert(root: Path, rel: str, extensions=EXTENSIONS) -> BeautifulSoup:
    """The page at docs/`rel` converted as a builder does: its text without the front matter."""
    text = (root / "docs" / rel).read_text(encoding="utf-8")
    body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    return BeautifulSoup(markdown.Markdown(extensions=extensions).convert(body), "html.parser")


def xrefs(soup) -> list[tuple[str, str]]:
    return [(a.get_text(), a["href"]) for a in soup.select("a.tl-xref")]


def test_references_to_lessons_that_exist_link_and_others_stay_text(course):
    write_lesson(course, 42, "第 41 讲说过；第41讲、第041讲、第４１讲也是它。第 4 讲、第04讲。第 43 讲还没有，第 99 讲也没有。\n")
    soup = convert(course, "lessons/42-beta.md")
    # one link per lesson and section: the first reference to 41, the first to 4
    assert xrefs(soup) == [("第 41 讲", "41-alpha.md"), ("第 4 讲", "04-four.md")]
    assert soup.select_one("a.tl-xref")["title"] == "41｜甲：读前文"
    text = soup.get_text()
    assert "第 43 讲还没有，第 99 讲也没有" in text  # not on the site: plain text


def test_each_form_of_reference_links(course):
    for form in ["第 41 讲", "第41讲", "第041讲", "第４１讲", "第\n41 讲", "第03讲", "第 3 讲"]:
        write_lesson(course, 42, f"## 节\n\n看{form}。\n")
        assert len(xrefs(convert(course, "lessons/42-beta.md"))) == 1, form


def test_previous_and_next_mean_the_adjacent_numbers_not_the_nearest_lesson(course):
    write_lesson(course, 42, "上一讲讲了读前文。下一讲还没有写。\n")
    assert xrefs(convert(course, "lessons/42-beta.md")) == [("上一讲", "41-alpha.md")]
    write_lesson(course, 44, "上一讲还没有写。下一讲也没有。\n")  # 43 and 45 do not exist; 42 is not 上一讲
    assert xrefs(convert(course, "lessons/44-delta.md")) == []
    write_lesson(course, 3, "下一讲比较向量。\n")
    assert xrefs(convert(course, "lessons/03-three.md")) == [("下一讲", "04-four.md")]


def test_a_page_never_links_to_itself(course):
    write_lesson(course, 41, "这是第 41 讲，第041讲。\n")
    soup = convert(course, "lessons/41-alpha.md")
    assert xrefs(soup) == [] and "这是第 41 讲，第041讲。" in soup.get_text()


def test_code_headings_links_summaries_and_raw_html_are_left_alone(course):
    body = (
        "## 第 41 讲的回顾\n\n"
        "行内 `第 41 讲` 不动。\n\n"
        "```text\n第 41 讲\n```\n\n"
        "[第 41 讲的练习](41-alpha.md#ex) 已经是链接。\n\n"
        "??? note \"上一讲的答案\"\n\n    折叠块里的正文提到上一讲。\n\n"
        '<p class="tl-kicker">手写小模型 · 第 41 讲</p>\n'
    )
    write_lesson(course, 42, body)
    soup = convert(course, "lessons/42-beta.md")
    assert soup.select_one("h2").get_text() == "第 41 讲的回顾" and soup.select_one("h2 a") is None
    assert soup.select_one("h2")["id"] == "41"  # the anchor is made from the heading's text, as before
    assert soup.select_one("p code").get_text() == "第 41 讲" and "第 41 讲" in soup.select_one("pre").get_text()
    assert [a["href"] for a in soup.select("a") if "练习" in a.get_text()] == ["41-alpha.md#ex"]
    assert soup.select_one("summary").select("a") == []
    assert soup.select_one("p.tl-kicker").select("a") == []
    assert xrefs(soup) == [("上一讲", "41-alpha.md")]  # the one in the folded block's text


def test_the_first_reference_of_each_section_links(course):
    write_lesson(course, 42, "上一讲、上一讲。\n\n又是上一讲。\n\n## 下一节\n\n上一讲，第 41 讲。\n")
    soup = convert(course, "lessons/42-beta.md")
    assert xrefs(soup) == [("上一讲", "41-alpha.md"), ("上一讲", "41-alpha.md")]
    assert [a.find_parent("p").get_text() for a in soup.select("a.tl-xref")] == ["上一讲、上一讲。", "上一讲，第 41 讲。"]


def test_each_lesson_page_ends_linking_the_lessons_before_and_after_it(course):
    def nav(number):
        soup = convert(course, f"lessons/{number:02d}-{FIXTURE[number][0]}.md")
        [found] = soup.select("nav.tl-lessons")
        assert soup.find_all(recursive=False)[-1] is found  # the page's last element
        return found

    first = nav(3)
    assert first.get_text() == "下一讲：04｜第四讲：相似" and first.select_one("a")["href"] == "04-four.md"
    middle = nav(42)
    assert [(a["rel"], a["href"]) for a in middle.select("a")] == [(["prev"], "41-alpha.md"), (["next"], "44-delta.md")]
    assert middle.get_text().startswith("上一讲：41｜") and "后一篇：44｜丁：跳过一讲" in middle.get_text()  # across the gap
    assert nav(44).get_text() == "前一篇：42｜乙：*星号* 与 <标签> & [方括号] | 竖线"
    assert nav(44).has_attr("data-search-exclude")


def test_a_new_lesson_changes_its_neighbours_nav_and_nothing_else_of_them(course):
    before = str(convert(course, "lessons/44-delta.md"))
    write_lesson(course, 45, "新的一讲。\n")
    after = str(convert(course, "lessons/44-delta.md"))
    assert after != before and "45-n45.md" in after
    strip = lambda html: re.sub(r"<nav .*?</nav>", "", html, flags=re.S)  # noqa: E731
    assert strip(after) == strip(before)


def test_a_page_outside_docs_lessons_gets_no_links_and_no_nav(course):
    (course / "docs/setup.md").write_text("# 环境\n\n第 41 讲用到它；上一讲。\n", encoding="utf-8")
    soup = convert(course, "setup.md")
    assert xrefs(soup) == [] and soup.select("nav.tl-lessons") == []


def test_the_home_page_table_is_each_lessons_own_title_and_summary(course):
    soup = convert(course, "index.md")
    rows = [[td.get_text() for td in tr.select("td")] for tr in soup.select("table tbody tr")]
    assert rows == [[f"第 {n} 讲", re.sub(r"^\d+｜", "", title), summary] for n, (_, title, summary) in FIXTURE.items()]
    assert [a["href"] for a in soup.select("table a")] == [f"lessons/{n:02d}-{s}.md" for n, (s, _, _) in FIXTURE.items()]
    assert soup.select("table thead th")[2].get_text() == "这一讲做什么"
    assert "后记。" in soup.get_text() and crossref.TABLE_MARKER not in str(soup)


def test_the_table_follows_a_changed_title_or_summary_and_a_new_lesson(course):
    write_lesson(course, 41, title="41｜甲：改过的标题", summary="改过的简介")
    write_lesson(course, 45, summary="新来的一讲")
    rows = [[td.get_text() for td in tr.select("td")] for tr in convert(course, "index.md").select("table tbody tr")]
    assert ["第 41 讲", "甲：改过的标题", "改过的简介"] in rows and rows[-1] == ["第 45 讲", "第 45 讲", "新来的一讲"]


def test_the_marker_inside_code_is_left_as_written(course):
    (course / "docs/authoring.md").write_text(f"# 写\n\n```markdown\n{crossref.TABLE_MARKER}\n```\n", encoding="utf-8")
    soup = convert(course, "authoring.md")
    assert soup.select("table") == [] and crossref.TABLE_MARKER in soup.select_one("pre").get_text()


@pytest.mark.parametrize("summary, says", [
    (None, "这一讲没有一句话简介"),
    ("   ", "不能为空"),
    ("两行\n简介", "U+000A"),
    ("约 0.5 秒就学会", "不要写数（0.5）"),
    ("用三组向量算读取比例", "不要写数（三）"),
    ("三分之一是 1/3", "（三分之一、1/3）"),
    ("读到 40% 的前文", "（40%）"),
    ("约为 2.3333{=mean}", "{=…}"),
    ("长" * (crossref.MAX_SUMMARY + 1), f"最长 {crossref.MAX_SUMMARY} 个字符"),
])
def test_a_lesson_without_a_usable_summary_fails_naming_its_file_and_line(course, summary, says):
    write_lesson(course, 41, summary=summary)
    where = "lessons/l41/__init__.py:" + ("1" if summary is None else "3")
    for page in ("index.md", "lessons/41-alpha.md"):  # the table's page, and the lesson's own
        with pytest.raises(crossref.LessonDeclarationError) as err:
            convert(course, page)
        assert str(err.value).startswith(f"{where}: ") and says in str(err.value), str(err.value)
    convert(course, "lessons/42-beta.md")  # other lessons' pages do not depend on it


def test_a_lesson_page_without_a_package_or_a_title_fails_naming_the_page(course):
    write_lesson(course, 41, package=False)
    (course / "lessons/l41/__init__.py").unlink()
    write_lesson(course, 42, title="")
    with pytest.raises(crossref.LessonDeclarationError) as err:
        convert(course, "index.md")
    lines = str(err.value).split("\n")
    assert lines[0].startswith("docs/lessons/41-alpha.md:1: 这一讲没有配套代码包 lessons/l41/")
    assert lines[1].startswith("docs/lessons/42-beta.md:2: 这一讲没有标题")


def test_the_summary_is_read_without_running_the_package(course):
    init = course / "lessons/l41/__init__.py"
    init.write_text('import torch  # never imported by the build\nraise SystemExit\nSUMMARY = "静态读取"\n', encoding="utf-8")
    assert crossref.declared_summary(init) == ("静态读取", 3)
    assert crossref.summary_in("x = 1\nSUMMARY = NAME\n") == (None, 2)  # not a string: not read, named at its line
    assert crossref.summary_in("SUMMARY = 3\n") == (None, 1)
    assert crossref.summary_in("x = 1\n") == (None, 1)


def test_a_summary_that_is_not_a_string_fails_at_its_line(course):
    init = course / "lessons/l41/__init__.py"
    init.write_text('"""第 41 讲"""\n\nSUMMARY = TITLE + "的简介"\n', encoding="utf-8")
    stamp(init)
    with pytest.raises(crossref.LessonDeclarationError) as err:
        convert(course, "index.md")
    assert str(err.value).startswith("lessons/l41/__init__.py:3: 这一讲没有一句话简介") and "写成字符串" in str(err.value)


class _NoLessons:
    """An engine build with no lesson to run: the guard checks the text only."""

    lessons: ClassVar[dict] = {}

    def done_with(self, lesson_id) -> None:  # a page's end: no worker to end
        pass


def test_the_drift_guard_reads_the_page_as_written_and_ordinals_are_not_numbers(course, monkeypatch):
    monkeypatch.setattr(engine.current, "build", _NoLessons())
    write_lesson(course, 42, "上一讲和第 41 讲都提过。\n\n比例约为 0.4011。\n")
    both = ["tables", "pymdownx.superfences", "coursekit.extensions.checks", "coursekit.extensions.crossref"]
    with pytest.raises(checks.PageProblems):
        convert(course, "lessons/42-beta.md", both)
    [problem] = engine.current.problems["docs/lessons/42-beta.md"]
    assert problem.format().startswith("docs/lessons/42-beta.md:9: 未绑定的数字 0.4011")  # its own line, not shifted
    write_lesson(course, 42, "上一讲和第 41 讲都提过。\n")
    soup = convert(course, "lessons/42-beta.md", both)
    assert engine.current.problems["docs/lessons/42-beta.md"] == [] and xrefs(soup) == [("上一讲", "41-alpha.md")]


# ---- new_lesson.py: the summary it asks for ------------------------------------------------------

def run_new_lesson(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/new_lesson.py", *args], cwd=repo, capture_output=True, text=True)


def free_numbers(count: int, repo: Path = ROOT) -> list[int]:
    """`count` consecutive lesson numbers no lesson uses, with no lesson just before or after them."""
    used = {int(p.name.split("-")[0]) for p in (repo / "docs/lessons").glob("[0-9]*-*.md")}
    used |= {int(p.name[1:]) for p in (repo / "lessons").glob("l[0-9]*") if p.name[1:].isdigit()}
    for start in range(98 - count, 1, -1):
        if not set(range(start - 1, start + count + 1)) & used:
            return list(range(start, start + count))
    raise AssertionError("no free lesson numbers")


def files_of(repo: Path) -> dict[str, bytes]:
    return {p.relative_to(repo).as_posix(): p.read_bytes() for p in sorted(repo.rglob("*"))
            if p.is_file() and not {".cache", "site", "__pycache__"} & set(p.relative_to(repo).parts)}


@pytest.fixture(scope="module")
def plain_copy(tmp_path_factory):
    return copy_repo(tmp_path_factory.mktemp("summary") / "repo")


@pytest.mark.parametrize("summary, says", [
    (None, "要写一句话简介"),
    ("  ", "要写一句话简介"),
    ("约 0.5 秒的掩码", "不要写数（0.5）"),
    ("两行\n简介", "U+000A"),
    ("长" * (crossref.MAX_SUMMARY + 1), "最长"),
    ("约为 2.3333{=mean}", "{=…}"),
])
def test_new_lesson_refuses_a_lesson_without_a_usable_summary_and_writes_nothing(plain_copy, summary, says):
    [n] = free_numbers(1, plain_copy)
    before = files_of(plain_copy)
    result = run_new_lesson(plain_copy, f"{n:02d}", "scratch", "临时讲：简介", *([] if summary is None else [summary]))
    assert result.returncode == 1 and "没有写入任何文件" in result.stderr and says in result.stderr, result.stderr
    assert files_of(plain_copy) == before


def test_new_lesson_writes_the_summary_as_given_and_leaves_the_home_page_alone(plain_copy):
    [n] = free_numbers(1, plain_copy)
    summary = '他说 "引号"、\\ 反斜杠、LESSON_SUMMARY 与 TITLE、{x}'
    index = (plain_copy / "docs/index.md").read_bytes()
    result = run_new_lesson(plain_copy, f"{n:02d}", "scratch", "临时讲：简介", summary)
    assert result.returncode == 0, result.stderr
    assert crossref.declared_summary(plain_copy / f"lessons/l{n:02d}/__init__.py") == (summary, 4)
    assert (plain_copy / "docs/index.md").read_bytes() == index
    assert "docs/index.md" not in result.stdout


# ---- real builds of a repository copy with two scratch lessons ------------------------------------

TITLES = ("临时讲甲：交叉引用", "临时讲乙：*星号* 与 <标签> | 竖线")
SUMMARIES = ("让讲与讲互相链接", '简介里的 "引号"、*星号*、|竖线| 与 \\ 反斜杠')


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A repository copy with scratch lessons A and B=A+1 from new_lesson.py; B refers to A, to
    itself and to a B+1 that does not exist. Built once with --strict (into mkdocs-site/)."""
    repo = copy_repo(tmp_path_factory.mktemp("crossref") / "repo", with_cache=True)
    a, b = free_numbers(2)
    for n, slug, title, summary in ((a, "xref-a", TITLES[0], SUMMARIES[0]), (b, "xref-b", TITLES[1], SUMMARIES[1])):
        made = run_new_lesson(repo, f"{n:02d}", slug, title, summary)
        assert made.returncode == 0, made.stderr
    page = repo / f"docs/lessons/{b:02d}-xref-b.md"
    page.write_text(page.read_text(encoding="utf-8") + (
        f"\n## 回顾\n\n第 {a} 讲的例子，上一讲也说过。这是第 {b} 讲。下一讲还没有写。\n\n"
        f"## 再看\n\n第{a}讲在代码里不变：`第 {a} 讲`。\n"), encoding="utf-8")
    result = mkdocs_build(repo, repo / "mkdocs-site")
    assert result.returncode == 0, result.stdout + result.stderr
    return repo, a, b


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def section_links(soup: BeautifulSoup, heading: str) -> list[tuple[str, str]]:
    """(text, href) of the cross-lesson links in the section under the h2 `heading`."""
    h2 = next(h for h in soup.select("article h2") if h.get_text().rstrip("¶") == heading)
    out = []
    for el in h2.find_next_siblings():
        if el.name in ("h2", "nav"):
            break
        out += [(x.get_text(), x["href"]) for x in el.select("a.tl-xref")]
    return out


@pytest.mark.build
def test_the_built_lesson_links_the_lessons_it_names_that_exist(scratch):
    repo, a, b = scratch
    soup = soup_of(repo / f"mkdocs-site/lessons/{b:02d}-xref-b/index.html")
    assert section_links(soup, "回顾") == [(f"第 {a} 讲", f"../{a:02d}-xref-a/")]  # once a section
    assert section_links(soup, "再看") == [(f"第{a}讲", f"../{a:02d}-xref-a/")]
    text = soup.select_one("article").get_text()
    assert f"这是第 {b} 讲。下一讲还没有写。" in text  # itself, and a lesson that does not exist: text
    assert [c.get_text() for c in soup.select("article p code")][-1] == f"第 {a} 讲"


@pytest.mark.build
def test_the_built_lessons_link_each_other_at_their_end(scratch):
    import json

    repo, a, b = scratch
    nav_b = soup_of(repo / f"mkdocs-site/lessons/{b:02d}-xref-b/index.html").select_one("article nav.tl-lessons")
    assert nav_b.select_one("a[rel=prev]")["href"] == f"../{a:02d}-xref-a/"
    assert nav_b.select_one("a[rel=prev]").get_text() == f"{a:02d}｜{TITLES[0]}"
    nav_a = soup_of(repo / f"mkdocs-site/lessons/{a:02d}-xref-a/index.html").select_one("article nav.tl-lessons")
    assert nav_a.select_one("a[rel=next]")["href"] == f"../{b:02d}-xref-b/"
    index = json.loads((repo / "mkdocs-site/search/search_index.json").read_text(encoding="utf-8"))
    b_text = "".join(d["text"] for d in index["docs"] if d["location"].startswith(f"lessons/{b:02d}-xref-b/"))
    b_text = b_text.replace("\u200b", "")
    assert "在代码里不变" in b_text and "临时讲甲" not in b_text  # the page is indexed, its nav line is not


@pytest.mark.build
def test_the_built_home_page_lists_each_lesson_with_its_title_and_summary(scratch):
    repo, a, b = scratch
    home = soup_of(repo / "mkdocs-site/index.html")
    for n, slug, title, summary in ((a, "xref-a", TITLES[0], SUMMARIES[0]), (b, "xref-b", TITLES[1], SUMMARIES[1])):
        link = home.select_one(f'article table a[href="lessons/{n:02d}-{slug}/"]')
        cells = [td.get_text() for td in link.find_parent("tr").select("td")]
        assert cells == [f"第 {n} 讲", title, summary]
    assert "待补充" not in home.get_text()


@pytest.mark.build
def test_zensical_makes_the_same_links_nav_and_table(scratch):
    import os

    repo, a, b = scratch
    result = subprocess.run([sys.executable, "-m", "zensical", "build", "--clean"], cwd=repo, capture_output=True,
                            text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(repo)})
    assert result.returncode == 0, result.stdout + result.stderr
    for page in (f"lessons/{a:02d}-xref-a/index.html", f"lessons/{b:02d}-xref-b/index.html", "index.html"):
        ours, theirs = soup_of(repo / "site" / page), soup_of(repo / "mkdocs-site" / page)
        for selector in ("article a.tl-xref", "article nav.tl-lessons a", "article table a"):
            assert [(x.get_text(), x["href"]) for x in ours.select(selector)] == \
                   [(x.get_text(), x["href"]) for x in theirs.select(selector)], (page, selector)
    assert soup_of(repo / f"site/lessons/{b:02d}-xref-b/index.html").select("article a.tl-xref")


@pytest.mark.build
def test_a_lesson_without_a_summary_fails_the_build_naming_its_file(scratch, tmp_path):
    repo, a, _ = scratch
    init = repo / f"lessons/l{a:02d}/__init__.py"
    kept = init.read_text(encoding="utf-8")
    init.write_text(kept.replace(f"SUMMARY = \"{SUMMARIES[0]}\"\n", ""), encoding="utf-8")
    try:
        result = mkdocs_build(repo, tmp_path / "site")
    finally:
        init.write_text(kept, encoding="utf-8")
    assert result.returncode != 0
    assert f"lessons/l{a:02d}/__init__.py:1: 这一讲没有一句话简介：在这个文件里加一行 SUMMARY = " in result.stderr, result.stderr


@pytest.mark.build
def test_a_dead_internal_link_fails_the_strict_build_naming_the_page(scratch, tmp_path):
    repo, a, _ = scratch
    files = [repo / "docs/setup.md", repo / f"docs/lessons/{a:02d}-xref-a.md"]
    kept = [f.read_text(encoding="utf-8") for f in files]
    files[0].write_text(kept[0] + "\n[不存在的页](nowhere.md) · [不存在的锚点](#no-such-section) · "
                        "[绝对路径](/also-nowhere.md)\n", encoding="utf-8")
    files[1].write_text(kept[1] + "\n[看第 1 讲](01-none.md)\n", encoding="utf-8")
    try:
        result = mkdocs_build(repo, tmp_path / "site")
    finally:
        for f, text in zip(files, kept):
            f.write_text(text, encoding="utf-8")
    assert result.returncode != 0
    log = result.stdout + result.stderr
    assert re.search(r"WARNING .*Doc file 'setup\.md' contains a link 'nowhere\.md', but the target is not found", log), log
    assert re.search(r"WARNING .*Doc file 'setup\.md' contains a link '#no-such-section', but there is no such anchor", log), log
    assert re.search(r"WARNING .*Doc file 'setup\.md' contains a link '/also-nowhere\.md'", log), log
    assert re.search(rf"WARNING .*Doc file 'lessons/{a:02d}-xref-a\.md' contains a link '01-none\.md'", log), log
    assert "Aborted with" in log and "in strict mode" in log


def test_the_authoring_page_states_the_rules_the_kit_applies():
    page = (ROOT / "docs/authoring.md").read_text(encoding="utf-8")
    assert f"最长 {crossref.MAX_SUMMARY} 个字" in page and f"`{crossref.SUMMARY_NAME}`" in page
    command = re.search(r"python scripts/new_lesson\.py (\d+) (\S+) \"([^\"]+)\" \"([^\"]+)\"", page)
    assert command and crossref.summary_problem(command.group(4)) is None  # the example summary is one the kit accepts
    assert "validation:" in page and "validation:" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_the_declarations_other_pages_show_change_with_a_title_or_summary(course):
    before = crossref.declarations(course)
    write_lesson(course, 41, summary="另一句简介")
    assert crossref.declarations(course) != before and "另一句简介" in crossref.declarations(course)
    assert crossref.shows_declarations("docs/lessons/42-beta.md", "正文")
    assert crossref.shows_declarations("docs/index.md", (course / "docs/index.md").read_text(encoding="utf-8"))
    assert not crossref.shows_declarations("docs/setup.md", "环境")
