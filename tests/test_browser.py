"""Every page a reader opens, in a real browser, once a palette, as a reader who prefers it meets
it: every folded block open (the demo at its last stage, everything it shows at once; the exercise
with its first answer), at a laptop's width and then a phone's (the window narrowed) nothing
overflows and every figure shows; axe finds nothing serious; no script error, and every request,
the widgets' included, goes to the local server and succeeds. The dark load then switches to light
through the palette's toggle, as a reader switches. Screenshots of each go to test-artifacts/."""

import time

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.conftest import LESSONS, LOADED, ROOT, in_each_scheme, reader_pages

ARTIFACTS = ROOT / "test-artifacts"
pytestmark = pytest.mark.browser


class Requests:
    """Every request a page makes while the test runs: what it asked for, what failed, what is
    still on its way."""

    def __init__(self, page) -> None:
        self.page, self.requested, self.failed, self.pending = page, [], [], set()
        page.on("request", self.sent)
        page.on("requestfinished", lambda r: self.pending.discard(r))
        page.on("requestfailed", self.lost)
        page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.status} {r.url}"))

    def sent(self, request) -> None:
        self.requested.append(request.url)
        self.pending.add(request)

    def lost(self, request) -> None:
        self.pending.discard(request)
        self.failed.append(request.url)

    def answered(self) -> list[str]:
        """Every URL requested so far, once each request has been answered or has failed (one still
        unanswered after a loaded machine's ceiling counts as failed)."""
        deadline = time.monotonic() + LOADED / 1000
        while self.pending and time.monotonic() < deadline:
            self.page.wait_for_timeout(20)  # lets Playwright deliver the requests' events
        self.failed += [f"no answer: {r.url}" for r in self.pending]
        return self.requested


READER_PAGES = reader_pages()
TITLES = {f"lesson-{lesson.id}": lesson.title for lesson in LESSONS}


def axe_violations(page) -> tuple[list, str]:
    # Material fades the search field's colours when the width crosses its breakpoint: axe read
    # mid-fade finds a contrast no reader sees still (4.12 on one run); it reads the settled page.
    page.wait_for_function("() => !document.getAnimations().some(a => a instanceof CSSTransition)", timeout=LOADED)
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    return bad, results.generate_report()


def fits(page, width: int, name: str, scheme: str, shown: dict) -> None:
    """At `width`: nothing wider than the window, every figure visible; the page and each widget captured."""
    page.set_viewport_size({"width": width, "height": 900})
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (width, scheme)
    for figure in page.locator("figure.tl-figure svg").all():
        assert figure.is_visible(), (width, scheme)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}-{scheme}.png"), full_page=True)
    for kind, widget in shown.items():
        widget.scroll_into_view_if_needed()
        widget.screenshot(path=str(ARTIFACTS / f"{name}-{kind}-{width}-{scheme}.png"))


def widgets_shown(page) -> dict:
    """The demo at its last stage and the exercise with its first answer, by kind (those the page has)."""
    shown = {}
    if page.locator(".tl-demo").count():
        demo = shown["demo"] = page.locator("details", has=page.locator(".tl-demo")).first
        demo.locator("summary").first.click()
        stages = demo.locator(".tl-demo [aria-label='跳到某一步'] button")
        stages.last.wait_for()
        stages.last.click()
        demo.locator(".tl-demo .tl-demo-math").first.wait_for()
    if page.locator(".tl-exercise").count():
        exercise = shown["exercise"] = page.locator(".tl-exercise").first
        exercise.scroll_into_view_if_needed()
        exercise.locator("table").first.wait_for()  # it has computed its first answer
    return shown


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("name", READER_PAGES)
def test_every_page_fits_both_widths_loads_only_local_files_and_has_no_serious_accessibility_violations(
        browser, base_url, name, scheme):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    requests, errors = Requests(page), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base_url}/{READER_PAGES[name]}")
    if name in TITLES:
        assert page.locator("h1").inner_text().startswith(TITLES[name])
    shown = widgets_shown(page)
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (1280, 390):
        fits(page, width, name, scheme, shown)
    page.set_viewport_size({"width": 1280, "height": 900})
    bad, report = axe_violations(page)
    assert bad == [], report
    if scheme == "dark":  # the toggle switches the palette, and the page still fits
        schemes = in_each_scheme(page)
        next(schemes), next(schemes)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    requested = requests.answered()
    assert requests.failed == [] and errors == []
    assert all(u.startswith((base_url, "data:")) for u in requested), requested
    # the widgets' script comes with a widget, and only with one; their styles are in the page's head
    assert any(u.endswith("attention-demo.js") for u in requested) <= bool(shown), requested
    assert page.evaluate("[...document.head.querySelectorAll('style')].some(s => s.textContent.includes('.tl-demo'))") == bool(shown)
    page.close()
