"""The served page's red box says what happened, from the kinds of its problems."""

import pytest

from coursekit.core import report
from coursekit.core.guard import Problem


def problems(*kinds: str) -> list[Problem]:
    return [Problem("docs/lessons/99-x.md", 7 + i, f"问题 {i}", kind=kind) for i, kind in enumerate(kinds)]


@pytest.mark.parametrize("kinds, headline", [
    (("code",), "代码运行失败：本页有 1 处代码出错"),
    (("drift", "drift"), "数字漂移：本页有 2 处数字与现算结果不符"),
    (("drift", "code", "drift"), "代码运行失败，数字也漂移了：本页有 1 处代码出错、2 处数字与现算结果不符"),
    (("listing",), "展示的内容变了：本页有 1 处代码或输出与确认过的记录不同，请核对正文"),
    (("listing", "code"), "本页有 2 处问题"),
    (("listing", "drift", "code"), "本页有 3 处问题"),
])
def test_the_headline_says_what_happened(kinds, headline):
    html = report.banner("docs/lessons/99-x.md", problems(*kinds))
    assert f'<p class="admonition-title">{headline}</p>' in html
    assert html.count("<li>") == len(kinds)


def test_a_problem_is_about_numbers_unless_it_says_otherwise():
    assert Problem("p.md", 1, "数字漂移").kind == "drift"
