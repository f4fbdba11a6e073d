"""Search, accessibility and screenshots of each lesson page with its demo open, and of the other
pages a reader opens."""


import pytest

from tests.conftest import LESSONS, ROOT, lesson_params

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "test-artifacts"


def axe_violations(page) -> tuple[list, str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    return bad, results.generate_report()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lesson", lesson_params())
def test_lesson_page_with_everything_open_has_no_serious_accessibility_violations(browser, base_url, lesson, scheme):
    page = browser.new_page(color_scheme=scheme)
    page.goto(f"{base_url}/{lesson.url}")
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    for widget in page.locator(".tl-demo, .tl-exercise").all():
        widget.scroll_into_view_if_needed()
    if page.locator(".tl-exercise").count():
        page.locator(".tl-exercise table").first.wait_for()
    if page.locator(".tl-demo").count():
        page.locator(".tl-demo .tl-demo-math").first.wait_for()
    bad, report = axe_violations(page)
    assert bad == [], report
    page.close()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lesson", lesson_params(having=lambda lesson: lesson.has_demo))
def test_demo_screenshots_fit_the_width(browser, base_url, lesson, width, scheme):
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page.goto(f"{base_url}/{lesson.url}")
    demo = page.locator("details", has=page.locator(".tl-demo")).first
    demo.locator("summary").first.click()
    stages = demo.locator(".tl-demo [aria-label='跳到某一步'] button")
    stages.last.wait_for()
    stages.last.click()  # the last stage: everything the demo shows at once
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTIFACTS.mkdir(exist_ok=True)
    demo.screenshot(path=str(ARTIFACTS / f"demo-{lesson.number}-{width}-{scheme}.png"))
    if page.locator(".tl-exercise").count():
        page.locator(".tl-exercise").first.scroll_into_view_if_needed()
        page.locator(".tl-exercise table").first.wait_for()
        page.wait_for_timeout(200)  # the stylesheet arrives with the first widget
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.locator(".tl-exercise").first.screenshot(path=str(ARTIFACTS / f"exercise-{lesson.number}-{width}-{scheme}.png"))
    page.close()


OTHER_PAGES = {**{f"notebook-{lesson.id}": lesson.notebook_url for lesson in LESSONS}, "404": "404.html",
               **{f"code-{p.stem}": f"code/{p.stem}/" for p in sorted((ROOT / "docs/code").glob("*.md"))}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", OTHER_PAGES)
def test_notebook_404_and_source_pages_have_no_serious_accessibility_violations(browser, base_url, name, scheme):
    page = browser.new_page(color_scheme=scheme)
    page.goto(f"{base_url}/{OTHER_PAGES[name]}")
    bad, report = axe_violations(page)
    assert bad == [], report
    page.close()
