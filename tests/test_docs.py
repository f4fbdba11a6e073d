"""What the docs say about the guard is what the guard says: its example messages are produced by it."""

import re

from bs4 import BeautifulSoup

from coursekit import pages
from tests.conftest import ROOT


def test_the_readme_quotes_the_guards_own_messages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("These are the guard's own")[1].split("```text\n")[1].split("```")[0]
    assert block.strip().split("\n") == pages.example_messages(ROOT)


def test_the_authoring_page_shows_the_messages_the_build_produced(built_site):
    html = (built_site / "authoring/index.html").read_text(encoding="utf-8")
    text = BeautifulSoup(html, "html.parser").select_one("article").get_text()
    for message in pages.example_messages(ROOT):
        assert message in text, message
    assert not re.search(r"check\(|illustrative\(", text)
