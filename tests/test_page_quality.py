"""Search, accessibility and screenshots of the lesson page with its demo open."""

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "test-artifacts"


@pytest.mark.parametrize("query", ["注意力", "查询向量", "Softmax"])
def test_site_search_finds_the_lesson(browser, base_url, query):
    page = browser.new_page()
    page.goto(f"{base_url}/")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # fill() alone does not fire Material's search; a key press does
    hits = page.locator(".md-search-result__item a[href*='lessons/10-attention/']")
    hits.first.wait_for(timeout=10000)
    assert hits.count() >= 1
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_lesson_page_with_the_demo_open_has_no_serious_accessibility_violations(browser, base_url, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(color_scheme=scheme)
    page.goto(f"{base_url}/lessons/10-attention/")
    page.locator("summary", has_text="展开观看动态过程").click()
    page.locator("details.success").evaluate_all("ds => ds.forEach(d => d.open = true)")
    page.locator(".tl-exercise").scroll_into_view_if_needed()
    page.locator(".tl-exercise table").first.wait_for()
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    assert bad == [], results.generate_report()
    page.close()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_demo_screenshots_fit_the_width(browser, base_url, width, scheme):
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page.goto(f"{base_url}/lessons/10-attention/")
    page.locator("summary", has_text="展开观看动态过程").click()
    page.get_by_role("button", name="4. 汇总").click()
    demo = page.locator("details", has=page.locator(".tl-demo"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTIFACTS.mkdir(exist_ok=True)
    demo.screenshot(path=str(ARTIFACTS / f"demo-{width}-{scheme}.png"))
    page.locator(".tl-exercise").scroll_into_view_if_needed()
    page.locator(".tl-exercise table").first.wait_for()
    page.wait_for_timeout(200)  # the stylesheet arrives with the first widget
    page.locator(".tl-exercise").screenshot(path=str(ARTIFACTS / f"exercise-{width}-{scheme}.png"))
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["lessons/10-notebook/", "404.html", "code/l10-run/"])
def test_notebook_404_and_source_pages_have_no_serious_accessibility_violations(browser, base_url, path, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(color_scheme=scheme)
    page.goto(f"{base_url}/{path}")
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    assert bad == [], results.generate_report()
    page.close()
