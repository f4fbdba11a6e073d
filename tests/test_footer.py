"""Every lesson page says what it was built from and links to a pre-filled issue report."""

import subprocess
from importlib import metadata
from urllib.parse import parse_qs, urlparse

import pytest
import yaml
from bs4 import BeautifulSoup

import tinylm
from tests.conftest import ROOT

pytestmark = pytest.mark.filterwarnings("ignore")


def footer(html):
    return BeautifulSoup(html, "html.parser").select_one("aside.tl-repro")


def test_the_footer_names_commit_tinylm_and_torch(lesson_html):
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    text = footer(lesson_html).get_text()
    assert commit[:12] in text and f"tinylm {tinylm.__version__}" in text and f"torch {metadata.version('torch')}" in text


def test_the_report_link_opens_the_lesson_error_form_filled_in(lesson_html):
    link = footer(lesson_html).select_one("a.tl-report")
    url = urlparse(link["href"])
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""), Loader=yaml.BaseLoader)
    repo = config["extra"]["repository"][1]
    assert f"{url.scheme}://{url.netloc}{url.path}" == f"{repo}/issues/new"
    query = parse_qs(url.query, keep_blank_values=True)
    assert query["template"] == ["lesson-error.yml"]
    assert query["lesson"][0].startswith("10｜注意力") and "lessons/10-attention/" in query["lesson"][0]
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert query["commit"] == [commit]
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/lesson-error.yml").read_text(encoding="utf-8"))
    ids = {field.get("id") for field in form["body"]}
    assert {"lesson", "section", "commit"} <= ids  # the pre-filled parameters are fields of the form


@pytest.mark.browser
def test_clicking_report_fills_in_the_section_being_read(browser, base_url):
    page = browser.new_page()
    page.goto(f"{base_url}/lessons/10-attention/")
    page.locator("h2", has_text="从一行，推广到所有位置").evaluate("h => h.scrollIntoView({block: 'start'})")
    page.evaluate("window.addEventListener('click', e => e.preventDefault())")  # stay on the page
    page.locator("a.tl-report").dispatch_event("click")
    href = page.locator("a.tl-report").get_attribute("href")
    assert parse_qs(urlparse(href).query)["section"] == ["从一行，推广到所有位置"]
    page.close()
