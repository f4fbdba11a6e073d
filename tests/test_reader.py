"""What a reader meets: Chinese chrome, notebook pages that work, Chinese text without stray spaces,
widgets that say when an entry is not a number, a report link that names the right section, search
that puts the lesson first, and a search index that grows little with each lesson."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import LESSONS, PALETTES, ROOT, kit_lesson_params, lesson_params
from tests.harness import site_config

CODE_PAGES = [f"code/{p.stem}/" for p in sorted((ROOT / "docs/code").glob("*.md"))]
PAGES = {
    "home": "", "setup": "setup/", "authoring": "authoring/", "code": CODE_PAGES[0], "404": "404.html",
    **{f"lesson-{lesson.id}": lesson.url for lesson in LESSONS},
    **{f"notebook-{lesson.id}": lesson.notebook_url for lesson in LESSONS},
}
# Material's English interface strings and Jupyter's prompts; none may show on a Chinese page.
ENGLISH_CHROME = ["Made with", "Permanent link", "Not found", "404 - ", "Copy to clipboard", "Skip to content",
                  "Back to top", "Previous", "Next", "Search", "Table of contents", "Initializing search"]
PROMPT = re.compile(r"\b(In|Out)\s*\[\s*\d*\s*\]:")
# Han characters and the CJK punctuation of this site's prose (not ·, which is set with spaces).
CJK = "\u3000-\u303f\u4e00-\u9fff\uff01-\uff5e“”‘’"
# Material's copy button, which it adds to a code block when the block is mounted.
COPY = 'button.md-code__button[data-md-type="copy"]'
BROKEN = re.compile(f"[{CJK}][ \\t]*\\n[ \\t\\n]*[{CJK}]")


def nav_words() -> set[str]:
    """Latin words the site's own nav titles use (file names such as self_attention.py)."""
    config = site_config()
    words: set[str] = set()

    def walk(items):
        for item in items:
            if isinstance(item, dict):
                for title, value in item.items():
                    words.update(re.findall(r"[A-Za-z][\w.]*", title))
                    if isinstance(value, list):
                        walk(value)

    walk(config["nav"])
    return words


def scroll_through(page) -> None:
    """Open every folded block and scroll to the end half a screen at a time, as a reader does:
    lazily mounted blocks mount."""
    page.evaluate("""async () => {
        document.querySelectorAll('article details').forEach(d => d.open = true);
        for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
            scrollTo(0, y); await new Promise(r => requestAnimationFrame(() => setTimeout(r, 30))); }
        scrollTo(0, 0); }""")


@pytest.mark.browser
@pytest.mark.parametrize("name", PAGES)
def test_no_english_chrome_and_no_stray_space_on_any_page(browser, base_url, name):
    """Outside the article only the nav's file names and the tool names in the footer are Latin;
    no English interface string, no `In [1]:` prompt and no English tooltip anywhere; and in the
    prose no space between two Chinese characters where the source broke a line."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base_url}/{PAGES[name]}")
    scroll_through(page)  # every code block has mounted its copy button
    assert page.locator("article pre > code").count() == page.locator(f"article pre {COPY}").count()
    body = page.locator("body").inner_text()
    for phrase in ENGLISH_CHROME:
        assert phrase not in body, (name, phrase)
    assert not PROMPT.search(body), (name, PROMPT.search(body))
    tips = page.evaluate("""() => [...document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')]
        .flatMap(e => ['title', 'aria-label', 'placeholder', 'alt'].map(a => e.getAttribute(a)).filter(Boolean))""")
    english = [t for t in tips if re.fullmatch(r"[\x00-\x7f]*[A-Za-z]{3,}[\x00-\x7f]*", t) and not nav_words() & set(re.findall(r"[A-Za-z][\w.]*", t))]
    assert english == [], (name, english)
    chrome = page.evaluate("""() => { const b = document.body.cloneNode(true);
        b.querySelectorAll('article, script, style, svg, .md-search, .md-nav--secondary').forEach(e => e.remove());
        return b.innerText; }""")
    allowed = nav_words() | {"MkDocs", "Material", "for", "tinylm", "torch"}
    stray = {w for w in re.findall(r"[A-Za-z][\w.]*", chrome) if w not in allowed and len(w) > 2}
    assert stray == set(), (name, stray)
    if name not in ("code", "404"):  # pages of prose: no space between two Chinese characters
        texts = page.evaluate("""() => [...document.querySelectorAll(
            'article p, article li:not(:has(p, ul, ol, div, details, pre)), article td, article th, article h1, article h2, article h3')]
            .map(e => { const c = e.cloneNode(true); c.querySelectorAll('code, pre').forEach(x => x.replaceWith('⟨code⟩')); return c.textContent; })""")
        broken = [BROKEN.search(t).group(0) for t in texts if BROKEN.search(t)]
        assert broken == [], (name, broken)  # a line break in the source is no space in Chinese
    if name == "home":  # the sentence the issue quotes
        assert "正文里写的每个数，都来自同一份代码" in page.locator("article").inner_text()
    page.close()


@pytest.mark.build
def test_the_404_page_is_chinese_and_titled(built_site):
    html = (built_site / "404.html").read_text(encoding="utf-8")
    assert "<title>找不到这一页 - 手写小模型，看懂大模型</title>" in html
    assert "找不到这一页（404）" in html and "Not found" not in html


def lesson_paths(built_site, notebooks: bool = False) -> list[str]:
    """The built lessons' pages (`lessons/10-attention/`), or their notebook pages."""
    found = sorted(p.parent.relative_to(built_site).as_posix() + "/" for p in built_site.glob("lessons/*/index.html")
                   if p.parent.name.endswith("-notebook") == notebooks)
    assert found, f"no {'notebook' if notebooks else 'lesson'} page was built"
    return found


@pytest.mark.browser
def test_every_notebook_toc_link_lands_on_a_heading(browser, base_url, built_site):
    for path in lesson_paths(built_site, notebooks=True):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base_url}/{path}")
        links = page.locator(".md-sidebar--secondary nav.md-nav--secondary a.md-nav__link")
        hrefs = links.evaluate_all("as => as.map(a => a.getAttribute('href'))")
        headings = page.locator("article h2, article h3").count()
        assert len(hrefs) == headings >= 1, (path, hrefs)  # one heading per experiment at least
        ids = []
        for href in hrefs:  # Material makes them absolute: this page, with a fragment
            url = urlsplit(href)
            assert url.path in ("", f"/{path}") and url.fragment, href
            ids.append(unquote(url.fragment))
            tag = page.evaluate("id => { const e = document.getElementById(id); return e && e.tagName }", ids[-1])
            assert tag in ("H2", "H3"), (path, href, tag)
        # following the last link scrolls its heading to the top of the window (or, when the page
        # is too short for that, as far as the page goes, the heading in view)
        links.last.click()
        page.wait_for_function("""id => { const top = document.getElementById(id).getBoundingClientRect().top;
            const end = scrollY >= document.documentElement.scrollHeight - innerHeight - 2;
            return Math.abs(top) < 150 || (end && top >= 0 && top < innerHeight); }""", arg=ids[-1])
        page.close()


@pytest.mark.browser
def test_notebook_pages_read_like_the_site_on_a_phone(browser, base_url, built_site):
    """What no palette changes (each palette's fit at both widths is test_browser's)."""
    for path in lesson_paths(built_site, notebooks=True):
        number = re.match(r"lessons/0*(\d+)-notebook/", path).group(1)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{base_url}/{path}")
        assert page.title() == f"第 {number} 讲 · 笔记本 - 手写小模型，看懂大模型"
        h1 = page.locator("article h1").inner_text()
        assert "？：" not in h1 and "：：" not in h1, h1
        text = page.locator("article").inner_text()
        assert "noqa" not in text and not PROMPT.search(text)
        # the site's code blocks (Pygments classes, copy button), not nbconvert's
        assert page.locator("article .jp-Cell, article .jp-InputPrompt, article .highlight-ipynb").count() == 0
        assert page.locator("article div.language-python.highlight pre > code").count() >= 2
        # a printed line wider than the screen wraps inside its box, read whole without scrolling
        outputs = page.locator("article .language-output pre > code")
        assert outputs.count() >= 1
        outputs.first.evaluate("c => { c.textContent += '\\n' + '0.1234, '.repeat(40); }")
        wide = outputs.evaluate_all("cs => cs.filter(c => c.scrollWidth > c.clientWidth).length")
        assert wide == 0 and outputs.first.evaluate("c => c.getClientRects()[0].height") > 100
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # the download link is there and points to the notebook beside the page
        href = page.locator("a.tl-download, .tl-download a").first.get_attribute("href")
        assert href.endswith(".ipynb")
        page.close()


@pytest.mark.build
def test_notebook_pages_stay_out_of_the_search_index(built_site):
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    assert not [d["location"] for d in index["docs"] if "-notebook/" in d["location"]]


@pytest.mark.build
def test_the_authoring_page_keeps_its_bullet_about_listing_markers(built_site):
    html = (built_site / "authoring/index.html").read_text(encoding="utf-8")
    assert "<code># --8&lt;-- [start:listing]</code> 与 <code># --8&lt;-- [end:listing]</code> 标出要展示的一段" in html
    assert ";--8&lt;--" not in html  # the escape is gone from what the reader sees



# A style that pushes everything after the page's title far below the fold: every code block of
# any lesson, however short its page, starts out of view (not laid out, not yet mounted).
FAR_BELOW = """(() => { const put = () => { const s = document.createElement('style');
    s.textContent = '.md-content__inner > h1 { margin-bottom: 300vh !important; }';
    document.head.append(s); };
  if (document.head) put(); else new MutationObserver((_, o) => { if (document.head) { o.disconnect(); put(); } })
    .observe(document, {childList: true, subtree: true}); })()"""


def opened(browser, url: str, width: int = 1280, height: int = 900, far_below: bool = False, clock: bool = False):
    """`url` open in Chromium; `.errors` collects script errors (checked by `closed`). With `clock`,
    the page's timers run on Playwright's clock, which the test moves on (`page.clock.run_for`)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    if far_below:
        page.add_init_script(FAR_BELOW)
    if clock:
        page.clock.install()
    page.goto(url)
    return page


# Resolves once the window has kept its scroll position and the page its height for an animation frame:
# whatever a jump or a late layout was going to move has moved.
STILL = """async () => { let last = null;
    for (;;) { await new Promise(r => requestAnimationFrame(r));
        const now = `${scrollX},${scrollY},${document.documentElement.scrollHeight}`;
        if (now === last) return; last = now; } }"""


def still(page) -> None:
    page.evaluate(STILL)


def closed(page) -> None:
    assert page.errors == []
    page.close()


@pytest.mark.browser
@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: lesson.embeds("exercise")))
def test_the_exercise_marks_an_empty_or_non_number_entry_and_computes_nothing_from_it(browser, base_url, lesson):
    page = opened(browser, f"{base_url}/{lesson.url}")
    ex = page.locator(".tl-exercise").first
    ex.scroll_into_view_if_needed()
    ex.locator('table[data-result="output"]').wait_for()
    fields = ex.locator("input")
    assert fields.count() >= 2
    first, other = fields.nth(0), fields.nth(1)
    label = first.get_attribute("aria-label")
    hint = ex.locator(".tl-ex-hint")
    assert label and first.get_attribute("aria-invalid") is None and hint.is_hidden()
    was = first.input_value()
    first.fill("")  # empty: once silently 0, which may be an exercise's own entry and its answer
    assert first.get_attribute("aria-invalid") == "true"
    assert hint.is_visible() and label in hint.inner_text()
    assert first.get_attribute("aria-describedby") == hint.get_attribute("id")
    assert ex.locator("table[data-result]").count() == 0  # nothing computed from it
    first.press_sequentially("e")  # a number field's unparseable text: value "" and validity.badInput
    assert first.get_attribute("aria-invalid") == "true" and ex.locator("table[data-result]").count() == 0
    assert first.evaluate("i => getComputedStyle(i).borderTopColor") != other.evaluate(
        "i => getComputedStyle(i).borderTopColor")  # the invalid field looks different
    first.fill(was)
    assert first.get_attribute("aria-invalid") is None and hint.is_hidden()
    assert ex.locator('table[data-result="output"] td').count() >= 1
    closed(page)


def js_fmt(x: float) -> str:
    """The demo's number format: four decimals, an integer without them."""
    r = round(x * 1e4) / 1e4
    return str(int(r)) if r == int(r) else f"{r:.4f}"


def js_string(x: float) -> str:
    """JavaScript's String(x) for a finite number."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@pytest.mark.browser
@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: lesson.has_demo))
def test_the_demo_writes_equals_for_exact_values_and_approximately_for_rounded_ones(browser, base_url, lesson):
    page = opened(browser, f"{base_url}/{lesson.url}")
    demo = page.locator("details", has=page.locator(".tl-demo")).first
    demo.locator("summary").first.click()
    data = json.loads(demo.locator("[data-attention]").first.get_attribute("data-attention"))
    demo.get_by_role("button", name=re.compile(r"Softmax")).click()
    lines = demo.locator(".tl-demo-math li").all_inner_texts()
    exps = data["exps"][0]
    assert len(lines) > len(exps)
    for line, e in zip(lines, exps):  # exp(score) = e, for each position row 0 reads
        assert line.startswith("exp(") and line.endswith(("=" if js_fmt(e) == js_string(e) else "≈") + " " + js_fmt(e)), (line, e)
    assert any(js_fmt(e) == js_string(e) for e in exps) or any("≈" in line for line in lines)
    closed(page)


def reported_section(page) -> str:
    """Click 报告此页问题 without leaving the page; the section the link then carries."""
    page.evaluate("""() => document.addEventListener('click', e => {
        if (e.target.closest('a.tl-report')) e.preventDefault(); })""")
    link = page.locator("a.tl-report")
    link.scroll_into_view_if_needed()
    link.click()
    return parse_qs(urlsplit(link.get_attribute("href")).query)["section"][0]


HEADING_NAME = "h => { const c = h.cloneNode(true); c.querySelectorAll('.headerlink').forEach(a => a.remove()); return c.textContent.trim(); }"


def readable_headings(page, most: int = 2) -> list[tuple[str, str]]:
    """(id, text) of the first `most` h2 the window can bring to just under its top edge."""
    found = page.evaluate(f"""() => [...document.querySelectorAll('article h2[id]')]
        .filter(h => h.offsetTop - 80 <= document.documentElement.scrollHeight - innerHeight)
        .map(h => [h.id, ({HEADING_NAME})(h)])""")
    assert found, "no section heading can be scrolled to the reading line"
    return found[:most]


def read(page, heading_id: str, seconds: float = 2.0) -> None:
    """Scroll so the heading's section is under the reading line, and stay there `seconds` on the
    page's clock (opened with `clock=True`): the scroll event has reached the page's script first."""
    page.evaluate("""id => new Promise(done => {
        addEventListener('scroll', () => done(), {once: true});
        window.scrollTo(0, document.getElementById(id).offsetTop - 80); })""", heading_id)
    page.clock.run_for(int(seconds * 1000))


@pytest.mark.browser
@pytest.mark.parametrize("lesson", kit_lesson_params())
def test_report_names_the_section_the_reader_was_reading_not_the_last_one(browser, base_url, lesson):
    page = opened(browser, f"{base_url}/{lesson.url}", height=600, clock=True)
    for heading_id, name in readable_headings(page):
        read(page, heading_id)
        assert reported_section(page) == name
    closed(page)


@pytest.mark.browser
@pytest.mark.parametrize("lesson", kit_lesson_params())
def test_report_names_the_section_of_the_selected_text(browser, base_url, lesson):
    page = opened(browser, f"{base_url}/{lesson.url}")
    # the first paragraph inside a section (after an h2), and that section's name
    name = page.evaluate(f"""() => {{ let heading = null;
        for (const e of document.querySelectorAll('article > *')) {{
            if (/^H[23]$/.test(e.tagName) && e.id) heading = e;
            else if (e.tagName === 'P' && heading && e.textContent.trim()) {{
                e.dataset.selectMe = '1'; return ({HEADING_NAME})(heading); }} }}
        return null; }}""")
    assert name
    page.locator("article p[data-select-me]").evaluate(
        "p => { p.scrollIntoView(); const r = document.createRange(); r.selectNodeContents(p);"
        " getSelection().removeAllRanges(); getSelection().addRange(r); }")
    # selectionchange is asynchronous: the link carries the section once the page has seen the selection
    page.wait_for_function("""name => [...document.querySelectorAll('a.tl-report')].every(
        a => new URL(a.href).searchParams.get('section') === name)""", arg=name)
    assert reported_section(page) == name
    closed(page)


def topic(lesson) -> str:
    """What the lesson is about, in the words of its title: `10｜注意力：…` -> 注意力."""
    return re.split(r"[：:？?，,]", lesson.title.split("｜", 1)[-1])[0].strip()


def test_a_lesson_topic_is_the_head_of_its_title():
    assert [topic(lesson) for lesson in LESSONS] and all(topic(lesson) for lesson in LESSONS)


@pytest.mark.browser
def test_search_puts_each_lessons_explanation_above_source_pages(browser, base_url):
    """Each lesson's topic searched in turn, in one page (the index loads once)."""
    page = browser.new_page()
    page.goto(f"{base_url}/")
    box = page.locator("input.md-search__input")
    box.click()
    for lesson in LESSONS:
        box.fill("")  # the last topic's results go first: what is read next answers this topic
        box.press("End")
        page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
        box.fill(topic(lesson))
        box.press("End")  # fill() alone does not fire Material's search; a key press does
        # the lesson's own page among the results: the search has answered (a state, not a time)
        page.locator(f".md-search-result__item a[href*='{lesson.url}']").first.wait_for()
        hrefs = [unquote(h) for h in page.locator(".md-search-result__item a").evaluate_all("as => as.map(a => a.href)")]
        # what ranking means, whatever other lessons are called (one may name the topic in its title and
        # come first; one that only mentions it may come after the sources): the lesson's explanation
        # above every source page that holds the word
        own = [i for i, h in enumerate(hrefs) if f"/{lesson.url}" in h]
        code = [i for i, h in enumerate(hrefs) if "/code/" in h]
        assert own and all(own[0] < j for j in code), (lesson.id, hrefs)
        assert not any("-notebook/" in h for h in hrefs), lesson.id
    page.close()


def lesson_entries(index: dict, lesson) -> list[dict]:
    """The index entries one lesson brings: its page and its notebook."""
    return [d for d in index["docs"] if d["location"].startswith((lesson.url, lesson.notebook_url))]


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_a_lesson_adds_at_most_25_kb_to_the_search_index(built_site, lesson):
    """A lesson's page and notebook, with the source pages (shared by the lessons, counted with each)."""
    raw = (built_site / "search/search_index.json").read_bytes()
    index = json.loads(raw)
    entries = lesson_entries(index, lesson) + [d for d in index["docs"] if d["location"].startswith("code/")]
    assert any(d["location"].startswith(lesson.url) for d in entries)
    size = sum(len(json.dumps(d, ensure_ascii=False, separators=(",", ":")).encode()) + 1 for d in entries)
    assert size <= 25 * 1024, f"lesson {lesson.number} adds {size:,} bytes to the raw search index"
    assert b"\\u" not in raw.split(b'"docs"', 1)[1]  # written as UTF-8, not as \\u escapes (6 bytes a character)


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_pages_index_their_words_not_their_code(built_site, lesson):
    from tests.test_listings import page_listings, snippet

    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    code = [d for d in index["docs"] if d["location"].startswith("code/")]
    assert code and all("<pre>" not in d["text"] for d in code)
    assert all(d.get("boost", 1) < 1 for d in code)
    entries = [d for d in index["docs"] if d["location"].startswith(lesson.url)]
    text = " ".join(d["text"] for d in entries)
    assert "\u200b" in text  # the words, segmented for search
    assert topic(lesson) in " ".join(d["title"] + " " + d["text"] for d in entries).replace("\u200b", "")
    assert "tensor(" not in text  # not the printed outputs
    code_lines = {line.strip() for ref in page_listings(lesson.markdown()) for line in snippet(ref).splitlines()
                  if len(line.strip()) >= 24 and not line.strip().startswith("#")}
    assert code_lines and not [line for line in code_lines if line in text]  # nor the listings


@pytest.mark.build
def test_the_widgets_script_and_styles_come_only_on_pages_with_a_widget(built_site):
    styles = (ROOT / "overrides/attention-demo.css").read_text(encoding="utf-8")
    for path in built_site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        head, body = html.split("</head>", 1)
        has_widget = 'data-attention="' in body
        assert ("assets/attention-demo.js" in body) == has_widget, path
        assert (styles.strip() in head) == has_widget, path
    assert not (built_site / "assets/attention-demo.css").exists()  # nothing left to request


def nav_sections() -> dict[str, str]:
    """{lesson page (lessons/10-attention.md): the title of its section in mkdocs.yml's nav}."""
    config = site_config()
    found = {}
    for item in config["nav"]:
        for title, value in item.items():
            if isinstance(value, list):
                for child in value:
                    for page in child.values():
                        found[page] = title
    return found


@pytest.mark.build
def test_previous_and_next_links_name_the_lesson_not_just_its_part(built_site):
    """“下一页：正文” from the home page did not say which lesson; the section's title comes first."""
    sections = nav_sections()
    titles = [sections[lesson.page.removeprefix("docs/")] for lesson in LESSONS]
    html = (built_site / "index.html").read_text(encoding="utf-8")
    assert f'aria-label="下一页: {titles[0]} · 正文"' in html
    for lesson, title in zip(LESSONS, titles):
        assert f'aria-label="下一页: {title} · 笔记本"' in lesson.html(built_site), lesson.id


@pytest.mark.browser
@pytest.mark.parametrize("lesson", kit_lesson_params())
def test_code_below_the_fold_is_mounted_only_when_it_comes_near(browser, base_url, lesson):
    """The lesson page's weight (scripts/bench_page.py): Material mounts a code block's copy button
    when it comes into view (content.lazy). It must still happen for the reader who scrolls there."""
    page = opened(browser, f"{base_url}/{lesson.url}", far_below=True)
    last = page.locator("article > div.highlight").last
    code = last.locator("pre > code")
    assert last.locator(COPY).count() == 0
    assert code.get_attribute("tabindex") == "0"  # a keyboard can reach it already (coursekit.codefocus)
    last.scroll_into_view_if_needed()
    last.locator(COPY).wait_for()
    assert last.locator(COPY).get_attribute("title") == "复制"
    # once mounted, a block keeps its tab stop only if it scrolls sideways (Material's rule)
    scroll_through(page)
    states = page.locator("article pre > code").evaluate_all(
        "cs => cs.filter(c => c.checkVisibility()).map(c => [c.scrollWidth > c.clientWidth, c.hasAttribute('tabindex')])")
    assert len(states) >= page.locator("article > div.highlight").count() >= 1
    assert all(scrolls == focusable for scrolls, focusable in states), states
    closed(page)


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lesson", kit_lesson_params())
def test_a_link_to_a_late_section_lands_on_its_heading(browser, base_url, lesson, width):
    """Blocks above a section are not laid out when a link jumps there; the heading still lands at
    the top of the window (or, for a section too short to fill the window, where the page ends)
    and stays there while the blocks around it render."""
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(f"{base_url}/{lesson.url}")
    ids = page.locator("article h2[id]").evaluate_all("hs => hs.map(h => h.id)")
    assert ids
    for target in dict.fromkeys((ids[len(ids) // 2], ids[-1])):
        page.goto(f"{base_url}/{lesson.url}#{target}")
        landed = """id => { const top = document.getElementById(id).getBoundingClientRect().top;
            const atEnd = scrollY >= document.documentElement.scrollHeight - innerHeight - 2;
            return (0 <= top && top < 150) || (atEnd && 0 <= top && top < innerHeight); }"""
        try:  # a loaded machine may take longer than a quiet one to scroll there
            page.wait_for_function(landed, arg=target, timeout=5000)
        except PlaywrightTimeout:
            pass
        still(page)  # and it stays there while the blocks around it render
        top = page.evaluate("id => document.getElementById(id).getBoundingClientRect().top", target)
        assert page.evaluate(landed, target), (width, target, top)
    page.close()


# What a reader can't read in view (in the visible box of each code element, its padding aside): output
# boxes wider than their box; comments in listings that start with room to spare (8 columns) and
# still end past the box's edge (a comment after code that fills the line scrolls with the code).
CUT = """() => {
    const visible = c => c.checkVisibility();
    const edge = c => { const r = c.getBoundingClientRect(); return r.left + c.clientWidth - parseFloat(getComputedStyle(c).paddingRight); };
    const outputs = [...document.querySelectorAll('article .language-output pre > code')].filter(visible)
        .filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.slice(0, 60));
    const comments = [];
    for (const c of [...document.querySelectorAll('article pre > code')].filter(visible)) {
        const right = edge(c), room = 8 * parseFloat(getComputedStyle(c).fontSize) * 0.6;
        for (const s of c.querySelectorAll('.c, .c1, .ch, .cs')) {
            const r = s.getBoundingClientRect();
            if (r.width && r.left < right - room && r.right > right + 1) comments.push(s.textContent.slice(0, 40));
        } }
    return [outputs, comments]; }"""
# Scrolls from the top of the page to its end half a window at a time, as a reader does; the page's
# largest change of height on the way.
JUMP = """async () => { const start = document.documentElement.scrollHeight; let most = 0;
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y); await new Promise(r => requestAnimationFrame(() => setTimeout(r, 30)));
        most = Math.max(most, Math.abs(document.documentElement.scrollHeight - start)); }
    scrollTo(0, 0); return [start, most]; }"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lesson", lesson_params())
def test_a_reader_sees_every_output_and_comment_whole_the_page_keeps_its_length_and_prints_every_listing(
        browser, base_url, lesson, width):
    """At a phone's width and a laptop's: no output box and no comment cut at the box's edge, no jump
    of more than 2% of the page's height while scrolling top to bottom (a listing laid out late, a
    widget built late), and under print media every listing, folded ones too, rendered."""
    page = opened(browser, f"{base_url}/{lesson.url}", width=width, height=844)
    page.wait_for_load_state("networkidle")
    still(page)
    outputs, comments = page.evaluate(CUT)
    assert page.locator("article .language-output").count() >= 1
    assert outputs == [] and comments == [], (width, outputs, comments)
    start, most = page.evaluate(JUMP)
    assert most <= 0.02 * start, (width, start, most)
    page.emulate_media(media="print")
    printed = page.locator("article pre > code").evaluate_all(
        "cs => cs.map(c => c.checkVisibility({contentVisibilityAuto: true}) && c.getBoundingClientRect().height > 0)")
    assert printed and all(printed), printed
    closed(page)


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lesson", kit_lesson_params())
def test_back_returns_the_reader_to_the_place_they_left(browser, base_url, lesson, width):
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(f"{base_url}/{lesson.url}")
    headings = page.locator("article h2")
    middle = headings.count() // 2
    heading = headings.nth(middle)
    heading.evaluate("h => window.scrollTo(0, h.getBoundingClientRect().top + scrollY - 100)")
    still(page)
    assert page.evaluate("scrollY") > 0
    top = heading.evaluate("h => h.getBoundingClientRect().top")
    page.goto(f"{base_url}/setup/")
    page.go_back()
    try:  # the browser restores the place once the page is back; a loaded machine takes longer
        page.wait_for_function(f"top => Math.abs(document.querySelectorAll('article h2')[{middle}].getBoundingClientRect().top - top) <= 2",
                               arg=top, timeout=5000)
    except PlaywrightTimeout:
        pass
    still(page)  # and the reader stays there while the blocks around render
    assert abs(heading.evaluate("h => h.getBoundingClientRect().top") - top) <= 2
    page.close()


# The element just before code element `c` in the tab order (a JavaScript expression's start).
TAB_PREVIOUS = """c => [...document.querySelectorAll('a[href], button, [tabindex="0"]')]
    .filter(e => !e.closest('[hidden], details:not([open]) > :not(summary)'))
    .find((e, i, all) => all[i + 1] === c)"""


@pytest.mark.browser
@pytest.mark.parametrize("lesson", kit_lesson_params())
def test_tabbing_onto_a_block_not_yet_mounted_lands_on_its_copy_button(browser, base_url, lesson):
    """Material mounts a block when Tab brings it into view: its copy button comes first, and a block
    that needs no scrolling loses its tab stop. Focus goes to the copy button, not back to the page."""
    page = opened(browser, f"{base_url}/{lesson.url}", height=844, far_below=True)
    codes = page.locator("article > div.highlight pre > code")
    # a block whose neighbour above in the tab order is not another code block (focusing that one
    # would scroll both into view and mount them together)
    alone = [i for i in range(codes.count()) if codes.nth(i).evaluate(TAB_PREVIOUS + ".closest('div.highlight') === null")]
    short = [i for i in alone if codes.nth(i).evaluate("c => c.textContent.split('\\n').length < 5")]
    code = codes.nth((short or alone)[-1])  # far down: a short block if there is one
    assert code.evaluate("c => !c.parentElement.querySelector('.md-code__nav')")  # not mounted yet
    # the element just before it in the tab order, then one Tab, as a keyboard reader moves
    code.evaluate(TAB_PREVIOUS + ".focus()")
    page.keyboard.press("Tab")
    try:  # Material mounts the block as it comes into view, then moves the focus onto its copy button
        page.wait_for_function("() => document.activeElement.matches('pre button')", timeout=5000)
    except PlaywrightTimeout:
        pass
    focused = page.evaluate("""() => { const a = document.activeElement;
        return [a.tagName, a.getAttribute('data-md-type'), a.closest('pre') && a.closest('pre').id]; }""")
    pre = code.evaluate("c => c.parentElement.id")
    assert focused == ["BUTTON", "copy", pre], (focused, pre)
    page.keyboard.press("Tab")  # and on: to the block itself only if it scrolls, else past it
    assert page.evaluate("() => document.activeElement !== document.body")
    closed(page)


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_the_home_tables_lesson_column_stays_on_one_line(browser, base_url, width):
    """“第 10 讲” broke after 第 at both widths."""
    page = opened(browser, f"{base_url}/", width=width, height=844)
    cells = page.locator("article table tbody tr td:first-child")
    assert cells.count() == len(LESSONS)
    lines = cells.evaluate_all("""tds => tds.map(td => { const r = document.createRange(); r.selectNodeContents(td);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })""")
    assert lines == [1] * len(LESSONS), (width, lines)
    closed(page)


SCHEME_OF = """() => [document.body.dataset.mdColorScheme,
    document.querySelector('meta[name=color-scheme]').content,
    [...document.querySelectorAll('[data-tl-palette] label')].filter(l => !l.hidden).map(l => l.title)]"""


@pytest.mark.browser
@pytest.mark.parametrize("preference", sorted(PALETTES))
def test_the_palette_follows_the_readers_preference_switches_and_keeps_the_choice(browser, base_url, preference):
    """The course's own toggle (overrides/partials/palette.html): the reader's preferred palette on a
    first visit, one toggle shown, a click or Enter switches, and the choice outlives a reload (Material's
    head script reads the record) and an instant navigation; the address bar takes the header's colour."""
    other = next(p for p in PALETTES if p != preference)
    (scheme, toggle), (switched, back) = PALETTES[preference], PALETTES[other]
    context = browser.new_context(viewport={"width": 390, "height": 800}, color_scheme=preference)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base_url}/{LESSONS[0].url}")
    assert page.locator("[data-md-component=palette]").count() == 0  # Material's component is not mounted
    assert page.evaluate(SCHEME_OF) == [scheme, preference, [toggle]]
    page.wait_for_function("""() => { const m = document.querySelector('meta[name=theme-color]');
        const rgb = getComputedStyle(document.querySelector('.md-header')).backgroundColor.match(/\\d+/g);
        return m && m.content === '#' + rgb.slice(0, 3).map(v => (+v).toString(16).padStart(2, '0')).join(''); }""")
    page.get_by_title(toggle).click()
    assert page.evaluate(SCHEME_OF) == [switched, other, [back]]
    page.reload()
    assert page.evaluate(SCHEME_OF) == [switched, other, [back]]
    before = page.url
    page.locator("a.md-footer__link--next").click()  # Material's instant navigation: the header stays
    page.wait_for_url(lambda url: url != before)
    assert page.evaluate(SCHEME_OF) == [switched, other, [back]]
    page.locator("[data-tl-palette] input:checked").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(SCHEME_OF) == [scheme, preference, [toggle]]
    assert errors == []
    context.close()
