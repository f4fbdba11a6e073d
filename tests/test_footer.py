"""Every lesson page says what it was built from and links to a pre-filled issue report."""

import subprocess
from importlib import metadata
from urllib.parse import parse_qs, urlparse

import pytest
import yaml
from bs4 import BeautifulSoup

import tinylm
from tests.conftest import ROOT, lesson_params

pytestmark = pytest.mark.filterwarnings("ignore")


def footer(html):
    return BeautifulSoup(html, "html.parser").select_one("aside.tl-repro")


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_the_footer_names_commit_tinylm_and_torch(built_site, lesson):
    lesson_html = lesson.html(built_site)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    text = footer(lesson_html).get_text()
    assert commit[:12] in text and f"tinylm {tinylm.__version__}" in text and f"torch {metadata.version('torch')}" in text


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_the_report_link_opens_the_lesson_error_form_filled_in(built_site, lesson):
    link = footer(lesson.html(built_site)).select_one("a.tl-report")
    url = urlparse(link["href"])
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""), Loader=yaml.BaseLoader)
    repo = config["extra"]["repository"][1]
    assert f"{url.scheme}://{url.netloc}{url.path}" == f"{repo}/issues/new"
    query = parse_qs(url.query, keep_blank_values=True)
    assert query["template"] == ["lesson-error.yml"]
    assert query["lesson"][0].startswith(lesson.title) and lesson.url in query["lesson"][0]
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert query["commit"] == [commit]
    form = yaml.safe_load((ROOT / ".github/ISSUE_TEMPLATE/lesson-error.yml").read_text(encoding="utf-8"))
    ids = {field.get("id") for field in form["body"]}
    assert {"lesson", "section", "commit"} <= ids  # the pre-filled parameters are fields of the form
