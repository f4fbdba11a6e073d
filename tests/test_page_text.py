"""A page is read as the text a reader gets, whatever the editor saved (coursekit.core.pagetext): a
byte-order mark, CRLF or CR line ends never turn a check off, and bytes that are not UTF-8 fail at the
file and line that hold them. In process, with the course's Markdown extensions on a fixture tree;
tests/test_lesson_builds.py builds a real lesson page saved that way."""

from __future__ import annotations

import markdown
import pytest

from coursekit.core import engine, pagetext, scan, shown
from coursekit.extensions import authoring, checks, crossref
from tests.test_extension import StandIn

BOM = b"\xef\xbb\xbf"
# How an editor saves a page: (BOM first, line end)
QUIRKS = {"bom": (True, "\n"), "crlf": (False, "\r\n"), "cr": (False, "\r"), "bom-crlf": (True, "\r\n")}
# A lesson page (its lesson's values, here the stand-in's) and a page of no lesson (the kit's numbers)
PAGES = {
    "lesson": ("docs/lessons/99-t.md", "title: 99｜草稿\n", "比例 a₀=[0.4011，0.1987，0.4011]{=row}，共 3 个{示意}。",
               "数字漂移：正文写 0.1987"),
    "page": ("docs/guide.md", "", "每个文件最多运行 90 秒{=TIME_LIMIT}，比如 5 秒{示意}。", "数字漂移：正文写 90"),
}


def saved(text: str, quirk: str) -> bytes:
    bom, end = QUIRKS[quirk]
    return (BOM if bom else b"") + text.replace("\n", end).encode("utf-8")


@pytest.fixture
def site(tmp_path, monkeypatch):
    (tmp_path / "lessons/l99").mkdir(parents=True)
    (tmp_path / "lessons/l99/__init__.py").write_text('SUMMARY = "试一试"\nEXPERIMENTS = []\n', encoding="utf-8")
    monkeypatch.setattr(engine, "current", engine.Current(build=StandIn(), root=tmp_path, collects=True))
    monkeypatch.setenv(shown.CONFIRMING, "1")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def convert(text: str) -> str:
    md = markdown.Markdown(extensions=[checks.CourseExtension(), crossref.CrossrefExtension(), "toc"])
    return md.convert(text)


def test_a_file_is_read_without_its_bom_and_with_lf_line_ends(tmp_path):
    for quirk in QUIRKS:
        (tmp_path / "p.md").write_bytes(saved("# 标题\n\n正文 1{示意}。\n", quirk))
        assert pagetext.read(tmp_path / "p.md") == "# 标题\n\n正文 1{示意}。\n", quirk
    assert pagetext.normal("\ufeff# 标题\r\n一\r二\n") == "# 标题\n一\n二\n"


def test_a_file_that_is_not_utf8_fails_naming_its_path_and_the_line_of_the_bad_byte(site):
    page = site / "docs/guide.md"
    page.parent.mkdir(parents=True)
    page.write_bytes("# 标题\n\n正文。\n".encode() + "第三行是 GBK 编码的中文\n".encode("gbk"))
    with pytest.raises(pagetext.UnreadableText) as err:
        pagetext.read(page)
    assert str(err.value).startswith("docs/guide.md:4: 这个文件不是 UTF-8 编码，读不出来（第 ")
    assert isinstance(err.value, ValueError)  # what a reader of text catches when a file can't be decoded
    with pytest.raises(pagetext.UnreadableText, match=r"^docs/guide.md:4: "):
        convert("# 另一页\n")  # converting any page looks for its file among them all: it says which can't be read


@pytest.mark.parametrize("quirk", QUIRKS)
@pytest.mark.parametrize("kind", PAGES)
@pytest.mark.parametrize("passed", ["decoded", "raw"])
def test_a_page_saved_with_a_bom_or_other_line_ends_is_checked_at_its_lines(site, quirk, kind, passed):
    """`decoded`: the text as MkDocs passes it (it reads UTF-8 with or without a BOM, any line ends,
    and passes the body after the front matter); `raw`: as a builder that kept the BOM and line ends."""
    rel, front, claim, said = PAGES[kind]
    source = (f"---\n{front}---\n" if front else "") + f"# 标题\n\n正文。\n\n{claim}\n"
    (site / rel).parent.mkdir(parents=True, exist_ok=True)
    (site / rel).write_bytes(saved(source, quirk))
    body = scan.front_matter(source)[2]
    text = body if passed == "decoded" else saved(body, quirk).decode("utf-8")
    html = convert(text)
    line = source.split("\n").index(claim) + 1
    problems = [p.format() for p in engine.current.problems[rel]]
    assert [p for p in problems if p.startswith(f"{rel}:{line}: {said}")], problems
    assert "{=" not in html and "{示意}" not in html and "\ufeff" not in html  # no markup reaches readers
    assert '<h1 id="_1">标题</h1>' in html  # the first line is still the title


@pytest.mark.parametrize("quirk", QUIRKS)
def test_a_page_checked_outside_a_build_reads_as_in_one(site, quirk):
    """scripts/bound_numbers.py checks a page file (coursekit.extensions.authoring): its front matter
    names its lesson, whose values its numbers bind to."""
    _, _, claim, said = PAGES["lesson"]
    source = f"---\nsession: l99\n---\n# 标题\n\n{claim}\n"
    (site / "docs").mkdir()
    (site / "docs/guide.md").write_bytes(saved(source, quirk))
    found, bound, offset = authoring.check(StandIn(), site, site / "docs/guide.md")
    assert [p.format()[:40] for p in found.problems] == [f"docs/guide.md:6: {said}，代码现算 0.1978"[:40]]
    assert [b.written for b in bound] == ["0.4011", "0.1987", "0.4011"] and offset == len("---\nsession: l99\n---\n")


def test_a_lesson_saved_with_a_bom_keeps_its_title_and_summary(site):
    (site / "docs/lessons").mkdir(parents=True)
    (site / "docs/lessons/99-t.md").write_bytes(saved("---\ntitle: 99｜草稿\n---\n# 草稿\n", "bom-crlf"))
    (site / "lessons/l99/__init__.py").write_bytes(saved('SUMMARY = "试一试"\n', "bom-crlf"))
    [lesson] = crossref.lessons(site).values()
    assert (lesson.title, lesson.title_line, lesson.summary, lesson.problems()) == ("99｜草稿", 2, "试一试", [])


def test_an_included_file_saved_with_a_bom_is_checked_at_its_own_lines(site):
    (site / "snippets").mkdir()
    (site / "snippets/shared.md").write_bytes(saved("一\n\n总和约为 5.0526{=total}。\n", "bom-crlf"))
    body = '# 草稿\n\n--8<-- "snippets/shared.md"\n'
    (site / "docs/lessons").mkdir(parents=True)
    (site / "docs/lessons/99-t.md").write_text(f"---\ntitle: 99｜草稿\n---\n{body}", encoding="utf-8")
    html = convert(body)
    assert "\ufeff" not in html and "{=" not in html
    [problem] = engine.current.problems["docs/lessons/99-t.md"]
    assert problem.format().startswith("snippets/shared.md:3: 数字漂移：正文写 5.0526，代码现算 5.05623")

