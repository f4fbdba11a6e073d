"""Each lesson page in a real browser: desktop and phone widths, light and dark, nothing overflows,
no script error, and every request, the demo's included, goes to the local server and succeeds;
the other pages a reader opens likewise. A page loads once a width: dark, as a reader who prefers it
meets it, then light through the palette's toggle, as a reader switches."""

import time

import pytest

from tests.conftest import LESSONS, LOADED, ROOT, in_each_scheme, lesson_params

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


def opened(browser, url: str, width: int):
    """(page, its Requests, script errors) once `url` has loaded, in the dark palette a reader who
    prefers dark meets. A test checks the requests at its end: everything it did has asked by then."""
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme="dark")
    requests, errors = Requests(page), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return page, requests, errors


def open_everything(page) -> None:
    """Open every folded block (the demo's included) and bring every widget into view, so each
    loads what it loads."""
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    for widget in page.locator(".tl-exercise, .tl-demo").all():
        widget.scroll_into_view_if_needed()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lesson", lesson_params())
def test_lesson_renders_without_horizontal_overflow_and_loads_only_local_files(browser, base_url, lesson, width):
    page, requests, errors = opened(browser, f"{base_url}/{lesson.url}", width)
    open_everything(page)
    widgets = page.locator(".tl-exercise, .tl-demo").count()
    if page.locator(".tl-exercise").count():
        page.locator(".tl-exercise table").first.wait_for()  # the exercise has computed its first answer
    if page.locator(".tl-demo").count():
        page.locator(".tl-demo .tl-demo-math").first.wait_for()  # the demo has laid out its first step
    assert page.locator("h1").inner_text().startswith(lesson.title)
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in in_each_scheme(page):
        assert page.evaluate("document.documentElement.scrollWidth") <= width, scheme
        for figure in page.locator("figure.tl-figure svg").all():
            assert figure.is_visible(), scheme
        page.screenshot(path=str(ARTIFACTS / f"lesson-{lesson.number}-{width}-{scheme}.png"), full_page=True)
    requested = requests.answered()
    assert requests.failed == [] and errors == []
    assert any(u.endswith("attention-demo.css") for u in requested) == bool(widgets)  # styles come with a widget
    assert all(u.startswith((base_url, "data:")) for u in requested), requested
    page.close()


def reader_pages() -> dict[str, str]:
    """The pages other than lessons a reader opens: each lesson's notebook and every source page."""
    pages = {"home": "", "setup": "setup/", "authoring": "authoring/", "404": "404.html"}
    pages.update({f"notebook-{lesson.id}": lesson.notebook_url for lesson in LESSONS})
    pages.update({f"code-{p.stem}": f"code/{p.stem}/" for p in sorted((ROOT / "docs/code").glob("*.md"))})
    return pages


READER_PAGES = reader_pages()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", READER_PAGES)
def test_every_page_fits_the_width_and_loads_only_local_files(browser, base_url, name, width):
    """The other pages a reader opens, at a phone's and a laptop's width, in both palettes."""
    page, requests, errors = opened(browser, f"{base_url}/{READER_PAGES[name]}", width)
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme in in_each_scheme(page):
        assert page.evaluate("document.documentElement.scrollWidth") <= width, scheme
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}-{scheme}.png"), full_page=True)
    requested = requests.answered()
    assert requests.failed == [] and errors == []
    assert all(u.startswith((base_url, "data:")) for u in requested), requested
    assert not any(u.endswith("attention-demo.js") for u in requested)  # no widget here, no demo script
    page.close()
