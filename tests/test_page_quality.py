"""Accessibility and screenshots of each lesson page with its widgets open, and of the other
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
def test_lesson_page_fits_with_its_widgets_and_has_no_serious_accessibility_violations(browser, base_url, lesson, scheme):
    """One load a scheme: the demo at its last stage (everything it shows at once) and the exercise
    fit the width and are captured at a laptop's width, then at a phone's (the window narrowed);
    then, every folded block open and every widget built, axe finds nothing serious."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page.goto(f"{base_url}/{lesson.url}")
    shown = {}
    if page.locator(".tl-demo").count():
        demo = shown["demo"] = page.locator("details", has=page.locator(".tl-demo")).first
        demo.locator("summary").first.click()
        stages = demo.locator(".tl-demo [aria-label='跳到某一步'] button")
        stages.last.wait_for()
        stages.last.click()
    if page.locator(".tl-exercise").count():
        exercise = shown["exercise"] = page.locator(".tl-exercise").first
        exercise.scroll_into_view_if_needed()
        exercise.locator("table").first.wait_for()
    if shown:  # the widgets' stylesheet arrives with the first of them
        page.wait_for_function("() => [...document.styleSheets].some(s => (s.href || '').endsWith('attention-demo.css'))")
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width
        for kind, widget in shown.items():
            widget.scroll_into_view_if_needed()
            widget.screenshot(path=str(ARTIFACTS / f"{kind}-{lesson.number}-{width}-{scheme}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
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
