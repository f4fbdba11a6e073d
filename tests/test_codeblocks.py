"""Code blocks ready to be laid out and mounted late (coursekit.extensions.codeblocks), in process."""

from __future__ import annotations

import markdown
import pytest

from coursekit.extensions.codeblocks import lines, ready

EXTENSIONS = ["pymdownx.highlight", "pymdownx.superfences", "coursekit.extensions.codeblocks"]


def convert(text: str, extensions=EXTENSIONS) -> str:
    return markdown.Markdown(extensions=extensions).convert(text)


def test_every_block_gets_its_line_count_and_a_tab_stop_and_inline_code_does_not():
    html = convert("正文 `x = 1`。\n\n```python\nprint(1)\nprint(2)\n```\n\n```text\n0.4011\n```\n\n    indented = 2\n")
    assert html.count("<code") == 4
    assert html.count('<code tabindex="0"') == 3  # two fenced blocks and the indented one
    assert '<code>x = 1</code>' in html
    assert [html.count(f'style="--tl-lines: {n}"') for n in (1, 2)] == [2, 1]


@pytest.mark.parametrize("body, n", [("a\n", 1), ("a\nb\n", 2), ("a\nb", 2), ("<span>a</span>\n\n", 2), ("", 0)])
def test_lines_counts_what_the_block_shows(body, n):
    assert lines(body) == n


def test_what_a_block_already_has_is_left_as_it_is():
    html = '<pre style="x"><code tabindex="-1">a</code></pre><pre class="p"><span></span><code class="c">b\nc\n</code></pre>'
    assert ready(html) == ('<pre style="x"><code tabindex="-1">a</code></pre><pre class="p" style="--tl-lines: 2">'
                           '<span></span><code tabindex="0" class="c">b\nc\n</code></pre>')


def test_without_the_extension_blocks_carry_neither():
    plain = convert("```python\nprint(1)\n```\n", EXTENSIONS[:2])
    assert "tabindex" not in plain and "--tl-lines" not in plain
