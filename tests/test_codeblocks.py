"""Code blocks a keyboard reaches and whose comments know their column (coursekit.extensions.codeblocks), in process."""

from __future__ import annotations

import markdown
import pytest

from coursekit.extensions.codeblocks import columns, ready

EXTENSIONS = ["pymdownx.highlight", "pymdownx.superfences", "coursekit.extensions.codeblocks"]


def convert(text: str, extensions=EXTENSIONS) -> str:
    return markdown.Markdown(extensions=extensions).convert(text)


def test_every_block_gets_a_tab_stop_and_inline_code_does_not():
    html = convert("正文 `x = 1`。\n\n```python\nprint(1)\nprint(2)\n```\n\n```text\n0.4011\n```\n\n    indented = 2\n")
    assert html.count("<code") == 4
    assert html.count('<code tabindex="0"') == 3  # two fenced blocks and the indented one
    assert '<code>x = 1</code>' in html


def test_each_comment_carries_the_column_it_starts_at():
    html = convert('```python\n# 整行注释\nx = "中文" + y  # 行末注释\n    z = 1  # 缩进之后\n```\n')
    assert '<span class="c1" style="--tl-col: 0"># 整行注释</span>' in html
    assert '<span class="c1" style="--tl-col: 16"># 行末注释</span>' in html  # 中文 is four columns
    assert '<span class="c1" style="--tl-col: 11"># 缩进之后</span>' in html
    assert convert("```python\nprint('# 不是注释')\n```\n").count("--tl-col") == 0


@pytest.mark.parametrize("text, n", [("x = 1  ", 7), ("中文", 4), ("（，）", 6), ("&", 1), ("", 0)])
def test_columns_counts_wide_characters_twice(text, n):
    assert columns(text) == n


def test_what_a_block_already_has_is_left_as_it_is():
    html = '<pre style="x"><code tabindex="-1">a</code></pre><pre class="p"><span></span><code class="c">b\nc\n</code></pre>'
    assert ready(html) == ('<pre style="x"><code tabindex="-1">a</code></pre><pre class="p">'
                           '<span></span><code tabindex="0" class="c">b\nc\n</code></pre>')


def test_without_the_extension_blocks_carry_neither():
    plain = convert("```python\nprint(1)  # 注释\n```\n", EXTENSIONS[:2])
    assert "tabindex" not in plain and "--tl-col" not in plain
