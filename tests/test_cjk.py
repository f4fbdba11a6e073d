"""Chinese text without stray spaces (coursekit.extensions.cjk), in process: what each blank between
two characters becomes once a paragraph is converted."""

from __future__ import annotations

import markdown
import pytest

# (id, Markdown, the paragraph's HTML): a blank shows as nothing only where Chinese typesetting wants none
CASES = [
    ("soft-break", "每个数，\n都来自同一份代码", "每个数，都来自同一份代码"),  # a soft break between two CJK characters
    ("bold-lead-in", "**新东西放进新函数。** 第 11 讲", "<strong>新东西放进新函数。</strong>第 11 讲"),  # a bold lead-in and its space
    ("bold-lead-in-break", "**新东西放进新函数。**\n第 11 讲", "<strong>新东西放进新函数。</strong>第 11 讲"),
    ("after-colon", "先设种子： 一条语句", "先设种子：一条语句"),  # a space typed after full-width punctuation
    ("after-link", "（见[这一节](#x)）。 下一步", '（见<a href="#x">这一节</a>）。下一步'),
    ("middle-dot", "第 10 讲 · 注意力", "第 10 讲 · 注意力"),  # the middle dot is set with spaces
    ("han-space", "中文 中文", "中文 中文"),  # a space between two Han characters is the author's
    ("code-after", "运行：\n`python -m lessons.l10`", "运行：\n<code>python -m lessons.l10</code>"),  # code after the break
    ("latin-after", "说明。 Python 也行", "说明。 Python 也行"),  # a Latin word after it
    ("digit-after", "读取比例\n0.5", "读取比例\n0.5"),  # a digit after the break
    ("in-code", "`代码。 文字`", "<code>代码。 文字</code>"),  # code is never touched
]


@pytest.mark.parametrize(("source", "html"), [pytest.param(source, html, id=name) for name, source, html in CASES])
def test_a_blank_between_chinese_characters_shows_only_where_typesetting_wants_one(source, html):
    assert markdown.markdown(source, extensions=["coursekit.extensions.cjk"]) == f"<p>{html}</p>"
