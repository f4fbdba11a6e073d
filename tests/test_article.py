"""The lesson page carries the author's whole text, with live figures, answers and working links."""

import re

import pytest
import torch
from bs4 import BeautifulSoup

from tests.conftest import SEED


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def article(lesson_html):
    return BeautifulSoup(lesson_html, "html.parser").select_one("article")


def test_every_line_of_the_authors_text_is_on_the_page(article):
    page = squash(article.get_text(" "))
    page_tight = squash(article.get_text(""))
    items = [squash(li.get_text(" ")) for li in article.select("ol > li")]
    missing = []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        numbered = re.match(r"(\d+)\. (.*)", line)
        if numbered:  # the exercises are an ordered list: the number is the item's position
            n, text = int(numbered[1]), squash(numbered[2])
            if not (len(items) >= n and items[n - 1].startswith(text)):
                missing.append(line)
        elif line.strip() and squash(line) not in page and squash(line) not in page_tight:
            missing.append(line)
    assert missing == []


def test_the_page_does_not_render_any_raw_markdown_or_snippet_marker(article):
    text = article.get_text()
    assert "--8<--" not in text and "exec=" not in text and "{=" not in text and "{示意}" not in text


def test_the_figure_is_inline_svg_drawn_from_the_live_proportions(article):
    from lessons.l10.attention_2d import weights

    svg = article.select_one("figure.tl-figure svg")
    assert svg is not None and svg.get("role") == "img"
    shown = [t.get_text() for t in svg.select("text.value")]
    assert shown == [f"{w:.4f}" for w in weights[0].tolist()]
    assert "K 的位置轴" in svg.get_text()
    assert not article.select("img")  # no static picture stands in for it


def test_each_exercise_answer_is_folded_and_computed_at_build(article):
    answers = article.select("details.success")
    assert len(answers) == 2
    assert all(not a.has_attr("open") for a in answers)
    first, second = (squash(a.get_text(" ")) for a in answers)
    assert "位置 1 的第 0 坐标增加 0.8022" in first and "注意力权重改变了吗？ False" in first
    assert "第一行比例： [0.3333, 0.3333, 0.3333]" in second
    zero = torch.tensor([[1., 0.], [0., 2.], [1., 2.]]).mean(0)
    assert f"第一行输出： [{zero[0]:.4f}, {zero[1]:.4f}]" in second


def test_entry_and_source_links_point_to_pages_of_this_site(article, built_site):
    expected = {"运行入口": "code/l10-run", "注意力组件": "code/self-attention", "环境说明": "setup",
                "attention.py": "code/attention", "attention_2d": "code/attention-2d"}
    links = {a.get_text(): a["href"] for a in article.select("a[href]") if a.get_text() in expected}
    assert links.keys() == expected.keys()
    for text, href in links.items():
        assert not href.startswith(("http:", "https:", "//")), href
        target = (built_site / "lessons/10-attention" / href).resolve() / "index.html"
        assert target.is_file() and expected[text] in str(target), (text, href)


def test_source_pages_show_the_files_that_run(built_site):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = BeautifulSoup((built_site / "code/attention/index.html").read_text(encoding="utf-8"), "html.parser")
    shown = page.select_one("article div.language-python code").get_text()
    source = (root / "tinylm/attention.py").read_text(encoding="utf-8")
    assert squash(shown) == squash("\n".join(s for s in source.splitlines() if "--8<--" not in s))


def test_lessons_not_on_the_site_yet_are_plain_text(article):
    for a in article.select("a"):
        assert "第08讲" not in a.get_text() and "下一讲" not in a.get_text()
    assert "第08讲" in article.get_text() and "下一讲" in article.get_text()


def test_the_listing_shows_tinylm_own_attention_function(article):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    listings = [squash(d.get_text()) for d in article.select("div.language-python")]
    source = (root / "tinylm/attention.py").read_text(encoding="utf-8")
    body = source.split("# --8<-- [start:attention]\n")[1].split("# --8<-- [end:attention]")[0]
    assert any(squash(body) in listing for listing in listings)
