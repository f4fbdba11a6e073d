"""The build's side of a lesson page's widgets (lessons.demo): what they embed is bound like any
number, and what the page's blocks change in place is caught.

- `declared(text)`: the expressions each `widget(...)` call on a page names (`q="q"`, …), read from
  the page's executed blocks as the guard reads `{=expr}` annotations. The engine evaluates them
  with the page's annotations, before any block runs (`prepare` makes sure of it at preprocess
  time): in the lesson's run namespace, untouched by the page, where the prose is bound.
- `check(state, where, answer)`, after each block: each widget the block embedded (the worker hands
  them on with the numbers they showed) must name its expressions, and have shown exactly their
  values; and a lesson value the block changed in place (the worker compares digests of the
  lesson's namespace before and after it) must not be one that a binding or a widget on the page
  reads. Each is a drift, reported at the block's line.

Nothing here imports torch: it runs in the MkDocs process.
"""

from __future__ import annotations

import ast
import math
import re

from coursekit.core import engine, guard, scan, syntax

ROLES = ("q", "k", "v", "mask")  # lessons.demo.ROLES
HOW = 'lessons.demo.widget("demo", 说明, q="q", k="k", v="v")'


def calls(code: str) -> list[ast.Call]:
    """The `widget(...)` calls (or `demo.widget(...)`) in a block's code."""
    try:
        tree = syntax.parse(code)
    except SyntaxError:
        return []
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "widget"]


def declared(text: str) -> list[str]:
    """The expressions the page's widgets name as string literals, in page order, each once."""
    found: list[str] = []
    for f in scan.fences(text):
        if not f.executed or "file=" in f.info:
            continue
        for call in calls("\n".join(f.lines)):
            for kw in call.keywords:
                if kw.arg in ROLES and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str) \
                        and kw.value.value not in found:
                    found.append(kw.value.value)
    return found


def prepare(state, text: str) -> None:
    """Evaluate the page's widget expressions now, before its blocks run, into `state.widget_values`."""
    exprs = declared(text)
    if not exprs or not state.lesson_id or state.broken or state.build is None:
        return
    try:
        state.widget_values.update(zip(exprs, state.build.evaluate(state.lesson_id, exprs)))
    except engine.LessonError:
        pass  # the page reports the lesson's failure once


def check(state, where: str, answer: dict) -> None:
    """Add a drift to the page's problems for each widget of this block that shows other numbers
    than its lesson expressions, and for lesson values it changed in place that the page reads."""
    path, _, line = where.rpartition(":")
    line = int(line) if line.isdigit() else 1
    problems = state.problems
    for shown in answer.get("widgets", []):
        what = {"demo": "逐步演示", "exercise": "改数练习"}.get(shown["kind"], shown["kind"])
        if shown["exprs"] is None:
            problems.append(guard.Problem(path, line, f"{what}的数据没有绑定：embed(…) 不说这些数来自本讲的哪些表达式，"
                                                      f"构建无法核对；改用 {HOW}"))
            continue
        for role, expr in shown["exprs"].items():
            live = state.widget_values.get(expr)
            if live is None:
                problems.append(guard.Problem(path, line, f"{what}的 {role}={expr!r} 没能在代码块运行之前算好："
                                                          f"表达式要直接写成字符串，如 q=\"q\""))
            elif "error" in live:
                problems.append(guard.Problem(path, line, f"{what}的 {role} 读的 {expr} 不是本讲代码算出的值"
                                                          f"（在本讲的命名空间里：{live['error']}）"))
            elif not _same(shown["numbers"][role], live["numbers"]):
                problems.append(guard.Problem(path, line, f"数字漂移：{what}嵌入的 {role} 与本讲代码现算的 {expr} 不一致"
                                                          f"（{_difference(shown['numbers'][role], live['numbers'])}）；"
                                                          f"正文绑定的是代码块运行之前的值，是前面的代码块改了它吗？"))
    changed = set(answer.get("changed", []))
    for name in sorted(changed):
        lines = sorted({(b.path, b.line) for b in state.bound if name in _names(b.expr)})
        read = [f"第 {'、'.join(str(n) for _, n in lines[:5])} 行{'等处' if len(lines) > 5 else ''}的绑定"
                if all(p == path for p, _ in lines) else "、".join(f"{p}:{n}" for p, n in lines[:5])] if lines else []
        read += ["页面上的演示"] if any(name in _names(e) for e in state.widget_values) else []
        if read:
            problems.append(guard.Problem(path, line, f"数字漂移：这个代码块原地改了本讲的 {name}，而{'和'.join(read)}"
                                                      f"读的是它改之前的值；要改就先复制一份（{name}.clone()）"))


def _names(expr: str) -> set[str]:
    try:
        return {n.id for n in ast.walk(syntax.parse(expr, mode="eval")) if isinstance(n, ast.Name)}
    except SyntaxError:
        return set(re.findall(r"[A-Za-z_]\w*", expr))


def _same(a: list[float], b: list[float]) -> bool:
    return len(a) == len(b) and all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))


def _difference(shown: list[float], live: list[float]) -> str:
    from coursekit.core.numbers import show

    if len(shown) != len(live):
        return f"嵌入 {len(shown)} 个数，现算 {len(live)} 个"
    i = next(i for i, (x, y) in enumerate(zip(shown, live)) if not _same([x], [y]))
    return f"第 {i} 个数：嵌入 {show(shown[i])}，现算 {show(live[i])}"
