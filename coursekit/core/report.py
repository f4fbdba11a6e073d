"""What `mkdocs serve` and the build's log say: a page's problems in a red box at the top of the
served page, headed by what happened, the drifted text marked; which lessons' code ran."""

from __future__ import annotations

import html

from coursekit.core.guard import Problem

# The box's headline by the kinds of its problems (guard.Problem.kind); mixed kinds get a neutral one.
HEADLINES = {
    ("code",): "代码运行失败：本页有 {code} 处代码出错",
    ("drift",): "数字漂移：本页有 {drift} 处数字与现算结果不符",
    ("code", "drift"): "代码运行失败，数字也漂移了：本页有 {code} 处代码出错、{drift} 处数字与现算结果不符",
    ("name",): "名字重了：本讲的实验文件里有 {name} 处定义与另一个文件里的同名定义值不同",
    ("listing",): "展示的内容变了：本页有 {listing} 处代码或输出与确认过的记录不同，请核对正文",
}
NEUTRAL = "本页有 {n} 处问题"


def headline(problems: list[Problem]) -> str:
    counts: dict[str, int] = {}
    for p in problems:
        counts[p.kind] = counts.get(p.kind, 0) + 1
    return HEADLINES.get(tuple(sorted(counts)), NEUTRAL).format(n=len(problems), **counts)


def banner(path: str, problems: list[Problem], action: str = "") -> str:
    """The box; `action`: HTML an adapter adds below the problems (serve's confirm button)."""
    items = "".join(f"<li><code>{html.escape(p.format())}</code></li>" for p in problems)
    return (
        '<div class="admonition danger drift-report" role="alert">'
        f'<p class="admonition-title">{html.escape(headline(problems))}</p>'
        f"<ul>{items}</ul>{action}</div>"
    )


def highlight(page_html: str, problems: list[Problem]) -> str:
    """Mark the prose a problem names, where it stands verbatim in the page's HTML."""
    for text in {p.text for p in problems if p.text}:
        escaped = html.escape(text, quote=False)
        page_html = page_html.replace(escaped, f'<mark class="drift">{escaped}</mark>', 1)
    return page_html


def executed(lessons, seconds: float, reruns: int) -> str:
    """The build log's line on code: which lessons ran (by number and package), the rest cached."""
    workers = f"页面另起 {reruns} 个工作进程"
    if not lessons:
        return f"代码执行：没有一讲重新运行，{workers}；全部取缓存"
    numbers = "、".join(str(int(s.number)) if s.number.isdigit() else s.number for s in lessons)
    packages = ", ".join(s.package for s in lessons)
    return f"代码执行：重新运行第 {numbers} 讲（{packages}），共 {seconds:.2f} s，{workers}；其余取缓存"
