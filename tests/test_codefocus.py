"""Code blocks ship focusable (coursekit.codefocus), in process: Material mounts them lazily."""

from __future__ import annotations

import markdown

from coursekit.codefocus import focusable

EXTENSIONS = ["pymdownx.highlight", "pymdownx.superfences", "coursekit.codefocus"]


def convert(text: str) -> str:
    return markdown.Markdown(extensions=EXTENSIONS, extension_configs={
        "pymdownx.highlight": {"pygments_lang_class": True}}).convert(text)


def test_every_highlighted_block_gets_tabindex_and_inline_code_does_not():
    html = convert("正文 `x = 1`。\n\n```python\nprint(1)\n```\n\n```text\n0.4011\n```\n\n    indented = 2\n")
    assert html.count("<code") == 4
    assert html.count('<code tabindex="0">') == 3  # two fenced blocks and the indented one
    assert '<code>x = 1</code>' in html


def test_a_code_element_that_already_has_tabindex_is_left_as_it_is():
    html = '<pre><code tabindex="-1">a</code></pre><pre class="x"><span></span><code class="c">b</code></pre>'
    assert focusable(html) == '<pre><code tabindex="-1">a</code></pre><pre class="x"><span></span><code tabindex="0" class="c">b</code></pre>'


def test_without_the_extension_blocks_are_not_focusable():
    plain = markdown.Markdown(extensions=EXTENSIONS[:2]).convert("```python\nprint(1)\n```\n")
    assert "tabindex" not in plain
