"""The site itself: Chinese UI and search, both palettes, copy buttons, nothing from another host."""

import json
import re
from pathlib import Path

import pytest

from bs4 import BeautifulSoup

from coursekit.extensions import crossref
from tests.conftest import ROOT

pytestmark = pytest.mark.build  # reads the built site or builds a copy


def pages(site):
    return sorted(site.rglob("*.html"))


def test_no_page_loads_anything_from_another_host(built_site):
    for path in pages(built_site):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        loaded = [t.get("src") for t in soup.select("script[src], img[src], iframe[src], source[src]")]
        loaded += [t.get("href") for t in soup.select("link[href]") if t.get("rel") != ["canonical"]]
        external = [u for u in loaded if re.match(r"(https?:)?//", u or "")]
        assert external == [], (path, external)
        assert "fonts.googleapis" not in str(soup) and "fonts.gstatic" not in str(soup)


def test_no_stylesheet_pulls_fonts_or_files_from_another_host(built_site):
    for css in built_site.rglob("*.css"):
        text = css.read_text(encoding="utf-8")
        assert not re.search(r"@import\s+url\(\s*['\"]?(https?:)?//", text), css
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", text), css


def test_the_interface_is_chinese_with_light_and_dark_palettes_and_copy_buttons(lesson_html):
    soup = BeautifulSoup(lesson_html, "html.parser")
    assert soup.html["lang"] == "zh"
    schemes = {i.get("data-md-color-scheme") for i in soup.select("input[data-md-color-scheme]")}
    assert schemes == {"default", "slate"}
    config = json.loads(soup.select_one("script#__config").get_text())
    assert "content.code.copy" in config["features"]
    assert config["translations"]["clipboard.copy"] == "复制"


def test_search_segments_chinese_so_words_like_query_vector_are_findable(built_site):
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    lesson = " ".join(d["text"] + d["title"] for d in index["docs"] if d["location"].startswith("lessons/10-attention/"))
    words = set(re.split(index["config"]["separator"], lesson))
    assert {"注意力", "查询", "向量", "Softmax"} <= words


def site_url(lesson) -> str:
    """docs/lessons/10-attention.md -> lessons/10-attention/"""
    return lesson.path.removeprefix("docs/").removesuffix(".md") + "/"


def test_the_home_page_lists_every_lesson_with_its_own_title_and_summary(built_site):
    soup = BeautifulSoup((built_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    rows = [[td.get_text() for td in tr.select("td")] for tr in soup.select("article table tbody tr")]
    found = crossref.lessons(ROOT)
    assert found and rows == [[f"第 {n} 讲", lesson.short_title, lesson.summary] for n, lesson in found.items()]
    assert [a["href"] for a in soup.select("article table a")] == [site_url(lesson) for lesson in found.values()]
    assert "待补充" not in soup.get_text()


def test_each_lesson_page_links_the_lessons_before_and_after_it(built_site):
    found = list(crossref.lessons(ROOT).values())
    for i, lesson in enumerate(found):
        soup = BeautifulSoup((built_site / site_url(lesson) / "index.html").read_text(encoding="utf-8"), "html.parser")
        links = {a["rel"][0]: a for a in soup.select("article nav.tl-lessons a")}
        expected = {"prev": found[i - 1] if i else None, "next": found[i + 1] if i + 1 < len(found) else None}
        for rel, other in expected.items():
            if other is None:
                assert rel not in links, (lesson.path, rel)
            else:
                assert links[rel]["href"] == "../" + site_url(other).removeprefix("lessons/"), (lesson.path, rel)
                assert links[rel].get_text() == other.title


def test_references_to_other_lessons_lead_to_pages_that_exist_and_never_to_the_page_itself(built_site):
    for lesson in crossref.lessons(ROOT).values():
        page = built_site / site_url(lesson)
        soup = BeautifulSoup((page / "index.html").read_text(encoding="utf-8"), "html.parser")
        for a in soup.select("article a.tl-xref"):
            target = (page / a["href"]).resolve()
            assert (target / "index.html").is_file() and target != page.resolve(), (lesson.path, a)


def test_pinned_requirements_use_double_equals_and_the_cpu_torch():
    for name in ("requirements.txt", "requirements-test.txt"):
        reqs = [r.strip() for r in (ROOT / name).read_text().splitlines()
                if r.strip() and not r.startswith("#") and r.strip() not in ("-c constraints.txt", "-e .")]
        assert reqs and all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[\w.+]+", r) for r in reqs), reqs
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text()


def test_the_search_template_override_differs_from_materials_only_by_the_dialog_label():
    import material

    upstream = (Path(material.__file__).parent / "templates/partials/search.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides/partials/search.html").read_text(encoding="utf-8")
    body = lambda t: t.split("-#}", 1)[1]  # noqa: E731  (the comment header differs)
    assert body(ours).replace(""" aria-label="{{ lang.t('search') }}">""", ">", 1) == body(upstream)


def test_the_palette_override_is_materials_form_without_its_component_and_keeps_materials_record():
    """overrides/partials/palette.html: Material's form, minus the attribute that mounts Material's
    palette component, and a script that writes the record Material's head script reads."""
    import material

    templates = Path(material.__file__).parent / "templates/partials"
    upstream = (templates / "palette.html").read_text(encoding="utf-8").split("-#}", 1)[1]
    ours = (ROOT / "overrides/partials/palette.html").read_text(encoding="utf-8").split("-#}", 1)[1]
    form, script = ours.split("</form>", 1)
    assert form.replace("data-tl-palette", 'data-md-component="palette"', 1) + "</form>\n" == upstream
    assert '__md_set("__palette", { index: index, color: color })' in script
    # the record Material's head script colours the page from before the first layout
    head = (templates / "javascripts/palette.html").read_text(encoding="utf-8")
    assert 'var palette=__md_get("__palette");if(palette&&palette.color){' in head
    assert 'document.body.setAttribute("data-md-color-"+key,value)' in head


def test_no_script_holds_up_the_first_paint(built_site):
    """overrides/main.html defers Material's bundle, the one script its template leaves parser-blocking:
    every script that loads a file is deferred, and Material's comes before the course's own."""
    for path in pages(built_site):
        scripts = re.findall(r"<script\b[^>]*\bsrc=\"([^\"]+)\"([^>]*)>", path.read_text(encoding="utf-8"))
        assert scripts and all("defer" in attributes.split() for _, attributes in scripts), (path, scripts)
        urls = [src for src, _ in scripts]
        bundle = next(i for i, src in enumerate(urls) if "/javascripts/bundle." in src)
        assert all(i < bundle for i, src in enumerate(urls) if src.endswith("attention-demo.js")), urls  # in the article
        assert all(i > bundle for i, src in enumerate(urls) if src.endswith(("report.js", "code-focus.js"))), urls


def test_the_readme_gives_the_same_commands_as_the_setup_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for snippet in ("serve.sh", "test.sh"):
        command = (ROOT / "snippets" / snippet).read_text(encoding="utf-8").strip()
        assert f"```bash\n{command}\n```" in readme, snippet
    assert "bash scripts/test.sh" in (ROOT / ".ci/run").read_text(encoding="utf-8")


def test_the_home_page_title_is_the_site_name_once(built_site):
    soup = BeautifulSoup((built_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.title.get_text() == "手写小模型，看懂大模型"


def test_no_list_item_is_swallowed_into_the_paragraph_before_it(built_site):
    """A `- ` line right after a list item's second paragraph joins that paragraph (Python-Markdown's
    lazy continuation): the reader sees "。 - 每一页都查" instead of a new item."""
    for path in pages(built_site):
        soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
        swallowed = [p.get_text()[:60] for p in soup.select("article p")
                     if re.search(r"[。：；）)]\s+[-*+]\s+\S", p.get_text())]
        assert swallowed == [], (path, swallowed)
