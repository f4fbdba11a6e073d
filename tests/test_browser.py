"""The lesson page in a real browser: desktop and phone widths, light and dark, nothing overflows,
and every request, the demo's included, goes to the local server and succeeds."""


import pytest

from tests.conftest import ROOT

ARTIFACTS = ROOT / "test-artifacts"
pytestmark = pytest.mark.browser


def opened(browser, url: str, width: int, scheme: str):
    """(page, every URL it requested, every request that failed) once `url` has loaded."""
    page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
    requested, failed = [], []
    page.on("request", lambda r: requested.append(r.url))
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.goto(url, wait_until="networkidle")
    return page, requested, failed


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_lesson_renders_without_horizontal_overflow_and_loads_only_local_files(browser, base_url, width, scheme):
    page, requested, failed = opened(browser, f"{base_url}/lessons/10-attention/", width, scheme)
    page.locator("summary", has_text="展开观看动态过程").click()  # the demo loads its styles now
    page.locator(".tl-exercise").scroll_into_view_if_needed()
    page.locator(".tl-exercise table").first.wait_for()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("figure.tl-figure svg").is_visible()
    assert page.locator("h1").inner_text().startswith("10｜注意力")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lesson-10-{width}-{scheme}.png"), full_page=True)
    assert failed == []
    assert any(u.endswith("attention-demo.css") for u in requested)
    assert all(u.startswith(base_url) or u.startswith("data:") for u in requested), requested
    page.close()


READER_PAGES = {"home": "", "notebook": "lessons/10-notebook/", "setup": "setup/", "authoring": "authoring/",
                "code": "code/l10-run/", "404": "404.html"}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", READER_PAGES)
def test_every_page_fits_the_width_and_loads_only_local_files(browser, base_url, name, width, scheme):
    """The other pages a reader opens, at a phone's and a laptop's width, in both palettes."""
    page, requested, failed = opened(browser, f"{base_url}/{READER_PAGES[name]}", width, scheme)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}-{scheme}.png"), full_page=True)
    assert failed == []
    assert all(u.startswith(base_url) or u.startswith("data:") for u in requested), requested
    assert not any(u.endswith("attention-demo.js") for u in requested)  # no widget here, no demo script
    page.close()
