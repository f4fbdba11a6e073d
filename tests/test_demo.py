"""The step-through demo and the live exercises, in a real browser, against tinylm's own numbers.

Each test runs on every lesson page that has what it tests (a widget, a demo, an exercise, a mask, a
demo in a folded block), decided at collection from the page's Markdown (`tests.harness.Lesson.embeds`,
`embeds_masked`, `folds`), each of its widgets, from the data the page embeds (recomputed by tinylm
here); no test is skipped. A page of this file's own, built from the same `embed(...)` with a causal
mask in a folded block, has every feature, so each test runs whether or not a lesson has it yet. A
test compares, feature by feature, the built pages with the pages the tests were generated for: a
source check that misses a page (or claims one) fails there. A lesson may name edits for its exercise
widget to be checked on, beside the example and random edits: `[[widget_cases]]` (name, q0, v2, each
vector left out when unchanged) in its data file `lessons/lNN/variations.toml` (coursekit.core.variations).
"""

from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser

import pytest
import torch

from coursekit.core import variations
from lessons.demo import embed, golden_cases, steps
from lessons.show import num
from tests.conftest import LESSONS, ROOT
from tinylm import causal_mask

in_browser = pytest.mark.browser
NAMES = {"dot": "点积", "scale": "缩放 ÷√d", "mask": "掩码", "softmax": "Softmax", "sum": "汇总"}
NUMBER = re.compile(r"(?<![\d.])(?:−∞|-?\d+(?:\.\d+)?)")
HIDDEN = "（挡住）"  # what a screen reader hears in a masked cell, besides its number
FIXTURE = "fixture.html"  # this file's own page, beside the home page; it has every feature below
BY_URL = {lesson.url: lesson for lesson in LESSONS}

# What a test needs a page to have, read from a lesson's Markdown at collection.
FEATURES = {
    "widget": lambda lesson: lesson.embeds("demo") or lesson.embeds("exercise"),
    "demo": lambda lesson: lesson.embeds("demo"),
    "exercise": lambda lesson: lesson.embeds("exercise"),
    "mask": lambda lesson: lesson.embeds_masked("demo") or lesson.embeds_masked("exercise"),
    "folded": lambda lesson: lesson.folds("demo"),
}


def pages_with(feature: str) -> list:
    """The lesson pages whose Markdown has the feature, and the fixture page, as `path` params."""
    return ([pytest.param(lesson.url, id=lesson.id) for lesson in LESSONS if FEATURES[feature](lesson)]
            + [pytest.param(FIXTURE, id="fixture")])


def on(feature: str):
    """Run the test on each page that has the feature (the `path` fixture, and `page` with it)."""
    return pytest.mark.parametrize("path", pages_with(feature), indirect=True)

# The fixture page's example: four positions, two features, a causal mask (row 0 reads only itself).
FX_Q = torch.tensor([[1., 0.], [0., 1.], [1., 1.], [0.5, -1.]])
FX_K = torch.tensor([[1., 0.], [0., 1.], [1., 1.], [-1., 0.5]])
FX_V = torch.tensor([[1., 0.], [0., 2.], [1., 2.], [-1., 1.]])
FX_CASES = [("q₀ 归零", [0., 0.], None), ("V 第三行改为 [3, 2]", None, [3., 2.])]


def text(x) -> str:
    """A number as the page writes it: −∞ for a masked score."""
    return "−∞" if x == -math.inf else num(x)


def strict_json(raw: str):
    """JSON as JSON.parse reads it: -Infinity, Infinity and NaN are not JSON."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON; JSON.parse rejects it")
    return json.loads(raw, parse_constant=refuse)


class Widget:
    """One embedded demo or exercise: its data as embedded, and tinylm's numbers for them."""

    def __init__(self, root, page):
        self.root, self.page = root, page
        self.data = strict_json(root.get_attribute("data-attention"))
        q, k, v = (torch.tensor(self.data[n], dtype=torch.float64) for n in "qkv")
        self.mask = None if "mask" not in self.data else torch.tensor(self.data["mask"])
        self.qkv = (q, k, v)
        self.live = steps(q, k, v, self.mask)
        self.n = len(self.live["q"])
        self.stages = ["dot", "scale"] + (["mask"] if self.masked else []) + ["softmax", "sum"]

    @property
    def masked(self) -> bool:
        return self.mask is not None

    def blocked(self, i: int, j: int) -> bool:
        return self.masked and not self.data["mask"][i][j]

    def scores(self, i: int) -> list[float]:
        return [-math.inf if x is None else x for x in self.live["scores"][i]]

    def made(self, i: int, s: int) -> list[float]:
        L, kind = self.live, self.stages[s]
        return {"dot": L["dots"][i], "scale": L.get("scaled", L["scores"])[i], "mask": self.scores(i),
                "softmax": L["weights"][i], "sum": L["output"][i]}[kind]

    def cell_texts(self, i: int, s: int) -> list[str]:
        """The cells of stage s's row, as a reader sees (and hears) them."""
        marked = self.stages[s] in ("mask", "softmax")
        return [text(x) + (HIDDEN if marked and self.blocked(i, j) else "") for j, x in enumerate(self.made(i, s))]

    def lines(self, i: int, s: int) -> list[list[float]]:
        """The numbers each written line of stage s shows, in order, from tinylm."""
        L, kind, n = self.live, self.stages[s], range(self.n)
        scaled = L.get("scaled", L["scores"])
        if kind == "dot":
            return [[x for c in range(L["d"]) for x in (L["q"][i][c], L["k"][j][c])] + [L["dots"][i][j]] for j in n]
        if kind == "scale":
            return [[L["dots"][i][j], L["d"] ** 0.5, scaled[i][j]] for j in n]
        if kind == "mask":
            return [[scaled[i][j]] + ([-math.inf] if self.blocked(i, j) else []) for j in n]
        if kind == "softmax":
            return ([[self.scores(i)[j], L["exps"][i][j]] for j in n] + [L["exps"][i] + [L["sums"][i]]]
                    + [[L["exps"][i][j], L["sums"][i], L["weights"][i][j]] for j in n])
        return [[c] + [x for r in n for x in (L["weights"][i][r], L["v"][r][c])] + [L["output"][i][c]]
                for c in range(len(L["v"][0]))]

    def open(self) -> None:
        """Open the folded block the widget sits in (the demo is built on its toggle), or scroll to it."""
        details = self.root.locator("xpath=ancestor::details[1]")
        if details.count() and not details.evaluate("d => d.open"):
            details.locator("summary").first.click()
        self.root.scroll_into_view_if_needed()
        self.root.locator("button").first.wait_for()


def texts(cells) -> list[str]:
    """What each cell says, its words for screen readers included (innerText would set them on a line of their own)."""
    return cells.evaluate_all("tds => tds.map(td => td.textContent)")


def widgets(page, kind: str) -> list[Widget]:
    return [Widget(root, page) for root in page.locator(f".tl-{kind}[data-attention]").all()]


class Features(HTMLParser):
    """The features of a built page, read from its HTML as the browser gets it."""

    def __init__(self, html: str):
        super().__init__()
        self.found, self.details = set(), []  # the open flag of each <details> around this point
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "details":
            self.details.append("open" in attrs)
        classes = (attrs.get("class") or "").split()
        kinds = [kind for kind in ("demo", "exercise") if f"tl-{kind}" in classes]
        if kinds and attrs.get("data-attention") is not None:
            self.found |= {"widget", kinds[0]}
            if "mask" in strict_json(attrs["data-attention"]):
                self.found.add("mask")
            if kinds[0] == "demo" and self.details and not self.details[-1]:
                self.found.add("folded")

    def handle_endtag(self, tag):
        if tag == "details" and self.details:
            self.details.pop()


# ---------------------------------------------------------------- the pages under test

def fixture_page(built_site, dest) -> None:
    """The site's home page with its article replaced by a masked demo and a masked exercise,
    loading the site's own script and styles, beside the built site's assets (linked, not copied)."""
    mask = causal_mask(len(FX_Q))
    data = steps(FX_Q, FX_K, FX_V, mask)
    first = "q₀·k₀ = " + " + ".join(f"{num(a)}×{num(b)}" for a, b in zip(data["q"][0], data["k"][0])) + f" = {num(data['dots'][0][0])}"
    article = f"""<h1>掩码演示（测试页）</h1>
<p>这一页只给测试用：四个位置，因果掩码。手算第一格：</p><p>{first}</p>
<details class="example"><summary>展开观看动态过程</summary>
{embed("demo", data, "交互演示需要浏览器启用 JavaScript。")}</details>
<div style="height: 2400px"></div>
<h2>改数</h2>
{embed("exercise", data, "改数练习需要浏览器启用 JavaScript。")}"""
    html = (built_site / "index.html").read_text(encoding="utf-8")
    html, found = re.subn(r'(<article class="md-content__inner md-typeset">).*?(</article>)',
                          lambda m: m[1] + article + '<script src="assets/attention-demo.js" defer></script>' + m[2],
                          html, count=1, flags=re.S)
    assert found == 1, "the home page has no article to replace"
    # the widgets' styles, in the head as the template writes them on a page with a widget
    html = html.replace("</head>", f"<style>{(ROOT / 'overrides/attention-demo.css').read_text(encoding='utf-8')}</style></head>", 1)
    dest.mkdir(parents=True)
    for child in built_site.iterdir():
        (dest / child.name).symlink_to(child, target_is_directory=child.is_dir())
    (dest / FIXTURE).write_text(html, encoding="utf-8")


@pytest.fixture(scope="session")
def fixture_site(built_site, tmp_path_factory):
    """The built site, with this file's own page beside its home page."""
    root = tmp_path_factory.mktemp("demo") / "site"
    fixture_page(built_site, root)
    return root


@pytest.fixture(scope="session")
def pages_url(fixture_site):
    """The built site with the fixture page, on a local port."""
    from scripts.drive import serve

    with serve(fixture_site) as url:
        yield url


def built_html(built_site, path: str) -> str:
    file = built_site / path / "index.html"
    return file.read_text(encoding="utf-8") if file.exists() else ""


@pytest.fixture
def path(request):
    """The page under test: a test says which with `@on(feature)`."""
    return request.param


@pytest.fixture
def page(browser, pages_url, path):
    """The page open in Chromium at a laptop's width; the test fails on any script error."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{pages_url}/{path}")
    yield page
    assert errors == []
    page.close()


def opened(page, path, kind: str, name: str) -> list:
    """The page's widgets of `kind`, opened; the source said there is one, so there must be."""
    found = widgets(page, kind)
    assert found, f"{path}：源文件嵌入了{name}，页面上却没有"
    for widget in found:
        widget.open()
    return found


@pytest.fixture
def demos(page, path):
    return opened(page, path, "demo", "逐步演示")


@pytest.fixture
def exercises(page, path):
    return opened(page, path, "exercise", "改数练习")


def lesson_cases(path: str) -> list:
    """The edits a lesson names for its exercise widget (widget_cases in its data file), if any."""
    if path == FIXTURE:
        return FX_CASES
    return [(c.name, c.q0, c.v2) for c in variations.declared(ROOT, BY_URL[path].folder).widget_cases]


# ---------------------------------------------------------------- the embedded data

@pytest.fixture(scope="session")
def built_features(built_site, fixture_site) -> dict[str, set[str]]:
    """Each built page with a widget (the fixture page included), and what its HTML has."""
    pages = {str(p.parent.relative_to(built_site)) + "/": p for p in built_site.rglob("*.html")}
    pages[FIXTURE] = fixture_site / FIXTURE
    found = {path: Features(file.read_text(encoding="utf-8")).found for path, file in pages.items()}
    return {path: features for path, features in found.items() if features}


@pytest.mark.build
@pytest.mark.parametrize("feature", FEATURES)
def test_every_built_page_with_a_widget_is_tested(built_features, feature):
    """The pages each test runs on, read from the sources, are exactly the built pages with its feature."""
    built = {path for path, features in built_features.items() if feature in features}
    tested = {p.values[0] for p in pages_with(feature)}
    assert built == tested, {"built, not tested": built - tested, "tested, not built": tested - built}


def test_embed_refuses_numbers_json_cannot_hold():
    with pytest.raises(ValueError):
        embed("demo", {"scores": [[0.5, -math.inf]]}, "")


def test_a_masked_score_is_embedded_as_null_and_every_row_reads_something():
    data = steps(FX_Q, FX_K, FX_V, causal_mask(4))
    strict_json(json.dumps(data, allow_nan=False))
    assert data["scores"][0] == [data["scaled"][0][0], None, None, None]
    assert data["weights"][0] == [1, 0, 0, 0] and data["exps"][0][1:] == [0, 0, 0]
    assert "mask" not in steps(FX_Q, FX_K, FX_V) and "scaled" not in steps(FX_Q, FX_K, FX_V)
    with pytest.raises(ValueError, match="一个位置也不许读"):
        steps(FX_Q, FX_K, FX_V, causal_mask(4) & torch.tensor([False, True, True, True]))
    with pytest.raises(ValueError, match="形状"):
        steps(FX_Q, FX_K, FX_V, causal_mask(3))


@in_browser
@on("widget")
def test_embedded_data_are_strict_json_and_tinylms_own_numbers(page, path):
    roots = page.locator("[data-attention]")
    assert roots.count() > 0
    for root in roots.all():
        raw = root.get_attribute("data-attention")
        assert page.evaluate("raw => typeof JSON.parse(raw)", raw) == "object"
        data = strict_json(raw)
        q, k, v = (torch.tensor(data[n], dtype=torch.float64) for n in "qkv")
        assert data == steps(q, k, v, None if "mask" not in data else torch.tensor(data["mask"]))


# ---------------------------------------------------------------- the demo

def check_stage(demo: Widget, i: int, s: int) -> None:
    page, root, kind = demo.page, demo.root, demo.stages[s]
    assert root.locator(".tl-demo-status").inner_text() == f"查询行 {i} · 第 {s + 1}/{len(demo.stages)} 步：{NAMES[kind]}"
    # the row of numbers this step produces, identical to tinylm's to the article's precision
    cells = root.locator("tr.is-made td")
    assert texts(cells) == demo.cell_texts(i, s)
    for j, (cell, x) in enumerate(zip(cells.all(), demo.made(i, s))):
        value = float(cell.get_attribute("data-value"))
        assert value == x if math.isinf(x) else abs(value - x) < 1e-12
        masked = kind in ("mask", "softmax") and demo.blocked(i, j)
        assert ("is-masked" in (cell.get_attribute("class") or "")) == masked
    # what the step uses is highlighted: q row and K rows, the mask's row, then the previous row, then V rows
    def used(caption):
        rows = root.locator("table", has=page.locator("caption", has_text=re.compile(f"^{caption}$"))).locator("tr")
        return [("is-used" in (r.get_attribute("class") or "")) for r in rows.all()]
    assert used("Q") == [kind in ("dot", "scale") and r == i for r in range(demo.n)]
    assert used("V") == [kind == "sum"] * demo.n
    assert used("掩码") == ([kind == "mask" and r == i for r in range(demo.n)] if demo.masked else [])
    if s > 0:
        assert texts(root.locator("table.tl-demo-row tr.is-used td")) == demo.cell_texts(i, s - 1)
    # the written arithmetic of this step, number by number
    lines = root.locator(".tl-demo-math li").all_inner_texts()
    want = demo.lines(i, s)
    assert len(lines) == len(want)
    for line, numbers in zip(lines, want):
        assert NUMBER.findall(line)[-len(numbers):] == [text(x) for x in numbers], line


@in_browser
@on("demo")
def test_next_steps_through_every_stage_of_every_query_row(demos):
    for demo in demos:
        nxt = demo.root.get_by_role("button", name="下一步 ▶")
        for i in range(demo.n):
            for s in range(len(demo.stages)):
                check_stage(demo, i, s)
                if (i, s) != (demo.n - 1, len(demo.stages) - 1):
                    nxt.click()
        assert nxt.is_disabled()


@in_browser
@on("demo")
def test_row_and_stage_buttons_jump_and_arrow_keys_step(demos):
    for demo in demos:
        last, softmax = demo.n - 1, demo.stages.index("softmax")
        demo.root.get_by_role("button", name=f"查询行 {last}").click()
        demo.root.get_by_role("button", name=f"{softmax + 1}. Softmax").click()
        check_stage(demo, last, softmax)
        assert demo.root.get_by_role("button", name=f"{softmax + 1}. Softmax").get_attribute("aria-current") == "step"
        assert demo.root.get_by_role("button", name=f"查询行 {last}").get_attribute("aria-pressed") == "true"
        demo.page.keyboard.press("ArrowRight")
        check_stage(demo, last, softmax + 1)
        demo.page.keyboard.press("ArrowLeft")
        demo.page.keyboard.press("ArrowLeft")
        check_stage(demo, last, softmax - 1)


@in_browser
@on("demo")
def test_the_demo_writes_the_articles_own_arithmetic(demos, page):
    """Each demo goes with the page's worked example: some of its written steps are the article's, verbatim."""
    article = page.evaluate("""() => {  // the article as a reader sees it, without the widgets themselves
        const widgets = [...document.querySelectorAll("article [data-attention]")];
        widgets.forEach(w => w.style.display = "none");
        const words = document.querySelector("article").innerText;
        widgets.forEach(w => w.style.display = "");
        return words; }""")
    for demo in demos:
        found = []
        for i in range(demo.n):
            demo.root.get_by_role("button", name=f"查询行 {i}").click()
            for s, name in enumerate(demo.stages):
                demo.root.get_by_role("button", name=f"{s + 1}. {NAMES[name]}").click()
                for line in demo.root.locator(".tl-demo-math li").all_inner_texts():
                    if line in article or line.split("：")[-1] in article:  # "q₀·k₀ = 1×1 + 0×0 = 1"
                        found.append(line)
        assert found, "the demo writes none of the article's arithmetic"


@in_browser
@on("demo")
def test_focus_is_visible_and_the_stage_is_announced(demos, page):
    for demo in demos:
        assert demo.root.locator(".tl-demo-status").get_attribute("aria-live") == "polite"
        demo.root.get_by_role("button", name="查询行 0").focus()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "查询行 1"
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"


@in_browser
@on("mask")
def test_masked_cells_are_told_apart_by_more_than_colour(page, path):
    masked = [w for kind in ("demo", "exercise") for w in widgets(page, kind) if w.masked]
    assert masked, f"{path}：源文件给演示或练习加了掩码，页面上却没有带掩码的"
    for w in masked:
        w.open()
        if w.root.locator(".tl-demo-status").count():
            w.root.get_by_role("button", name=f"{w.stages.index('softmax') + 1}. Softmax").click()
        cells = w.root.locator("td.is-masked")
        assert cells.count() > 0
        for cell in cells.all():
            style = cell.evaluate("td => { const s = getComputedStyle(td); return [s.backgroundImage, s.borderTopStyle]; }")
            assert "repeating-linear-gradient" in style[0] and style[1] == "dashed", style
            words = cell.text_content()
            assert words.endswith(HIDDEN) or words == "挡住", words
        assert "斜纹虚线格" in w.root.locator(".tl-mask-note").inner_text()


@in_browser
@on("folded")
def test_demo_is_built_only_when_opened_with_its_styles_already_in_the_page(browser, pages_url, path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{pages_url}/{path}", wait_until="networkidle")
    in_details = page.locator("details .tl-demo[data-attention]")
    closed = in_details.evaluate_all("ds => ds.map(d => !d.closest('details').open)")
    assert any(closed), f"{path}：源文件把逐步演示放在折叠块里，页面上却没有"
    folded = in_details.nth(closed.index(True))  # a locator that still finds it once its block is open
    assert folded.locator("button").count() == 0
    demo = Widget(folded, page)
    demo.open()  # built on the details' toggle event
    assert demo.root.locator("button").count() == demo.n + len(demo.stages) + 2
    # laid out by the page's own styles at once: no stylesheet to wait for, none requested
    assert demo.root.locator(".tl-demo-rows").evaluate("e => getComputedStyle(e).display") == "flex"
    assert page.locator('link[href$="attention-demo.css"]').count() == 0
    page.close()


# ---------------------------------------------------------------- the exercise

@in_browser
@on("exercise")
def test_exercise_inputs_recompute_exactly_as_tinylm_does(exercises, path):
    """The example, the lesson's named edits and random edits, against tinylm's golden answers."""
    for ex in exercises:
        for case in golden_cases(*ex.qkv, lesson_cases(path), mask=ex.mask):
            for c in range(2):
                ex.root.get_by_label(f"q₀ 第 {c} 坐标").fill(repr(case["q0"][c]))
                ex.root.get_by_label(f"V 第三行 第 {c} 坐标").fill(repr(case["v2"][c]))
            for name in ("weights", "output"):
                cells = ex.root.locator(f'table[data-result="{name}"] td')
                got = [float(x) for x in cells.evaluate_all("tds => tds.map(td => td.dataset.value)")]
                want = [x for row in case[name] for x in row]
                assert len(got) == len(want), (case["name"], name)
                assert all(abs(a - b) <= 1e-6 for a, b in zip(got, want)), (case["name"], name, got, want)
            weights = ex.root.locator('table[data-result="weights"] td')
            flags = weights.evaluate_all("tds => tds.map(td => td.classList.contains('is-masked'))")
            assert flags == [ex.blocked(i, j) for i in range(ex.n) for j in range(ex.n)], case["name"]


@in_browser
@on("exercise")
def test_exercise_answers_show_in_the_page_and_reset_restores_the_example(exercises):
    for ex in exercises:
        L = ex.live
        ex.root.get_by_label("V 第三行 第 0 坐标").fill(repr(L["v"][2][0] + 2))
        change = ex.root.locator('table[data-result="change"] td').all_inner_texts()
        # position i's coordinate 0 moves by 2 × its share of position 2; coordinate 1 stays
        assert change == [num(x) for i in range(ex.n) for x in (2 * L["weights"][i][2], 0)]
        ex.root.get_by_role("button", name="恢复原例").click()
        assert ex.root.locator('table[data-result="output"] td').all_inner_texts() == [num(x) for r in L["output"] for x in r]


# ---------------------------------------------------------------- Material's instant navigation

@in_browser
def test_demo_starts_after_materials_instant_navigation(browser, tmp_path):
    from scripts.drive import free_port, serve
    from tests.conftest import mkdocs_build

    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    result = mkdocs_build(ROOT, tmp_path / "site", SITE_URL=url)
    assert result.returncode == 0, result.stderr
    paths = [lesson.url for lesson in LESSONS
             if 'data-attention="' in built_html(tmp_path / "site", lesson.url)]
    assert paths, "no lesson embeds a demo or an exercise"
    with serve(tmp_path / "site", port):
        page = browser.new_page()
        for path in paths:
            page.goto(url)
            page.evaluate("window.__sameDocument = true")
            page.locator(f"a[href$='{path}']").first.evaluate("a => a.click()")
            page.wait_for_url(f"**/{path}")
            for demo in widgets(page, "demo"):
                demo.open()
                demo.root.get_by_role("button", name="下一步 ▶").click()
                assert demo.root.locator(".tl-demo-status").inner_text() == f"查询行 0 · 第 2/{len(demo.stages)} 步：缩放 ÷√d"
            for ex in widgets(page, "exercise"):
                ex.root.scroll_into_view_if_needed()
                ex.root.locator('table[data-result="output"] td').nth(2 * ex.n - 1).wait_for()
                assert ex.root.locator('table[data-result="output"] td').count() == 2 * ex.n
            assert page.evaluate("window.__sameDocument") is True, path  # no full page load happened
        page.close()
