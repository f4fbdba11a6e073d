"""Each lesson page carries its author's whole text, with live figures, folded answers computed at
build, and links that work: to this site's pages, and to other lessons only where they exist."""

import ast
import re
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

from coursekit.core import engine, scan
from tests.conftest import LESSONS, ROOT, lesson_params, seed_of
from tests.test_lessons import output_fences, stdout_of

pytestmark = pytest.mark.build  # reads the built site or builds a copy


@pytest.fixture(scope="module")
def build():
    b = engine.Build(ROOT)
    yield b
    b.close()


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def article_of(lesson, built_site):
    return BeautifulSoup(lesson.html(built_site), "html.parser").select_one("article")


@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: seed_of(lesson).is_file()))
def test_every_line_of_the_authors_text_is_on_the_page(lesson, built_site):
    """A lesson written from an author's text (tests/data/lessonNN-seed.txt) keeps all of it."""
    article = article_of(lesson, built_site)
    page = squash(article.get_text(" "))
    page_tight = squash(article.get_text(""))
    items = [squash(li.get_text(" ")) for li in article.select("ol > li")]
    missing = []
    for line in seed_of(lesson).read_text(encoding="utf-8").splitlines():
        numbered = re.match(r"(\d+)\. (.*)", line)
        if numbered:  # the exercises are an ordered list: the number is the item's position
            n, text = int(numbered[1]), squash(numbered[2])
            if not (len(items) >= n and items[n - 1].startswith(text)):
                missing.append(line)
        elif line.strip() and squash(line) not in page and squash(line) not in page_tight:
            missing.append(line)
    assert missing == []


@pytest.mark.parametrize("lesson", lesson_params())
def test_the_page_does_not_render_any_raw_markdown_or_snippet_marker(lesson, built_site):
    article = article_of(lesson, built_site)
    for code in article.select("code"):  # code may show the syntax (`{=表达式}`); prose may not
        code.decompose()
    text = article.get_text()
    assert text.strip()
    assert "--8<--" not in text and "exec=" not in text and "{=" not in text and "{示意}" not in text
    assert "```" not in text and "!!!" not in text and "??? " not in text


def figure_calls(markdown: str) -> list[str]:
    """The first argument of each `read_proportions(...)` in the page's executed blocks: what it draws."""
    found = []
    for fence in scan.fences(markdown):
        if 'exec="1"' not in fence.info:
            continue
        for node in ast.walk(ast.parse("\n".join(fence.lines))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "read_proportions":
                found.append(ast.unparse(node.args[0]))
    return found


@pytest.mark.parametrize("lesson", lesson_params())
def test_figures_are_inline_svg_drawn_from_the_live_proportions(lesson, built_site, build):
    article = article_of(lesson, built_site)
    assert not article.select("img")  # no static picture stands in for a figure
    drawn = figure_calls(lesson.markdown())
    figures = article.select("figure.tl-figure svg")
    assert len(figures) == len(drawn)
    if not drawn:
        return
    live = build.evaluate(lesson.id, drawn)
    for svg, expr, value in zip(figures, drawn, live):
        assert svg.get("role") == "img"
        assert "numbers" in value, (expr, value)
        shown = [t.get_text() for t in svg.select("text.value")]
        assert shown == [f"{w:.4f}" for w in value["numbers"]], expr
        assert abs(sum(value["numbers"]) - 1) < 1e-6  # one query's proportions over the positions it reads


@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: "??? success" in lesson.markdown()))
def test_each_exercise_answer_is_folded_and_shows_what_the_command_computes(lesson, built_site):
    article = article_of(lesson, built_site)
    answers = article.select("details.success")
    assert len(answers) == lesson.markdown().count("??? success")
    assert all(not a.has_attr("open") for a in answers)
    stdout = stdout_of(lesson)
    outputs = [o.get_text() for o in article.select("div.language-output pre code")]
    from_files = [out for f, out in zip(output_fences(lesson), outputs) if 'file="' in f.info]
    for answer in answers:
        shown = [o.get_text() for o in answer.select("div.language-output pre code")]
        assert shown, squash(answer.get_text(" "))[:80]  # each answer is computed, not typed
        assert all(out in from_files and out.strip() in stdout for out in shown)


def internal_links(article, base: str) -> list[tuple[str, str]]:
    """(text, site path) of every link in the article to a page of this site, resolved from `base`."""
    found = []
    for a in article.select("a[href]"):
        href = a["href"]
        if href.startswith(("#", "mailto:", "//")) or urlsplit(href).scheme:
            continue
        found.append((a.get_text(), unquote(urlsplit(urljoin(f"/{base}", href)).path).lstrip("/")))
    return found


@pytest.mark.parametrize("lesson", lesson_params())
def test_every_link_to_this_site_lands_on_a_built_page_or_file(lesson, built_site):
    article = article_of(lesson, built_site)
    links = internal_links(article, lesson.url)
    assert links
    dead = []
    for text, path in links:
        target = built_site / path
        if not (target.is_file() or (target / "index.html").is_file()):
            dead.append((text, path))
    assert dead == []
    assert not [a["href"] for a in article.select("a[href]") if re.match(r"https?://(?!localhost)", a["href"])
                and "/blob/" in a["href"]]  # the lesson's code is on this site, not only on GitHub


def test_source_pages_show_the_files_that_run(built_site):
    pages = sorted((ROOT / "docs/code").glob("*.md"))
    assert pages
    for page in pages:
        included = re.findall(r'^--8<-- "([^":]+)"$', page.read_text(encoding="utf-8"), re.M)
        html = BeautifulSoup((built_site / "code" / page.stem / "index.html").read_text(encoding="utf-8"), "html.parser")
        shown = [squash(c.get_text()) for c in html.select("article div.language-python code")]
        assert included and len(shown) >= len(included), page
        for file in included:
            source = (ROOT / file).read_text(encoding="utf-8")
            assert squash("\n".join(s for s in source.splitlines() if "--8<--" not in s)) in shown, (page, file)


NUMBERS = {lesson.number.lstrip("0"): lesson for lesson in LESSONS}
REFERENCE = re.compile(r"第\s*0*(\d+)\s*讲")


@pytest.mark.parametrize("lesson", lesson_params())
def test_references_to_lessons_link_only_to_lessons_that_exist(lesson, built_site):
    """第 N 讲, 上一讲 and 下一讲 may be links, to that lesson's page; a lesson not on the site is plain text."""
    article = article_of(lesson, built_site)
    own = int(lesson.number)
    for text, path in internal_links(article, lesson.url):
        target = next((other for other in LESSONS if path.rstrip("/") + "/" == other.url), None)
        named = [int(n) for n in REFERENCE.findall(text)]
        if "上一讲" in text:
            named.append(own - 1)
        if "下一讲" in text:
            named.append(own + 1)
        if named:
            assert target is not None and int(target.number) in named, (text, path)
    links = " ".join(a.get_text() for a in article.select("a"))
    missing = {n for n in REFERENCE.findall(article.get_text()) if n not in NUMBERS}
    for n in missing:
        assert not re.search(rf"第\s*0*{n}\s*讲", links), n
    if str(own - 1) not in NUMBERS:
        assert "上一讲" not in links
    if str(own + 1) not in NUMBERS:
        assert "下一讲" not in links
