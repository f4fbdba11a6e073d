"""How `mkdocs serve` shows a page's problems: a red box at the top, the drifted text marked."""

from __future__ import annotations

import html

from coursekit.guard import Problem


def banner(path: str, problems: list[Problem]) -> str:
    items = "".join(f"<li><code>{html.escape(p.format())}</code></li>" for p in problems)
    return (
        '<div class="admonition danger drift-report" role="alert">'
        f'<p class="admonition-title">本页有 {len(problems)} 处数字或代码与现算结果不符</p>'
        f"<ul>{items}</ul></div>"
    )


def highlight(page_html: str, problems: list[Problem]) -> str:
    """Mark the prose a problem names, where it stands verbatim in the page's HTML."""
    for text in {p.text for p in problems if p.text}:
        escaped = html.escape(text, quote=False)
        page_html = page_html.replace(escaped, f'<mark class="drift">{escaped}</mark>', 1)
    return page_html
