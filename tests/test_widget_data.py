"""What a widget embeds is bound like any number (lessons.demo.widget, coursekit.core.widgets): a demo or
exercise fed another tensor than the lesson's, or a tensor a page block changed in place before it,
fails the page at the block's file and line, and so does an in-place change of a value the prose is
bound to. Tooling tests run on a scratch lesson of their own (tests/scratch_lesson.py); the lesson
tests run on every lesson with a widget."""

from __future__ import annotations

import ast
import re

import markdown
import pytest
import torch

from coursekit.core import engine, scan, shown, widgets
from coursekit.extensions import checks, fence
from lessons.demo import embed, steps, widget
from scripts.drive import copy_repo, mkdocs_build
from coursekit.core.worker import fingerprint
from tests.conftest import lesson_params
from tests.scratch_lesson import make_lesson
from tinylm import causal_mask

DATA = ("本讲的 q、k、v", '''\
    """data：本讲的 q、k、v 与掩码。"""
    # --8<-- [start:listing]
    import torch
    from tinylm import attention_steps, causal_mask

    q = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
    k = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
    v = torch.tensor([[1., 0.], [0., 2.], [1., 2.]])
    mask = causal_mask(len(q))
    weights = attention_steps(q, k, v).weights
    print(weights)
    # --8<-- [end:listing]
    ''')
DEMO = '"演示需要浏览器启用 JavaScript。"'
EXERCISE = '"练习需要浏览器启用 JavaScript。"'
PAGE = f'''\
q₀ 是 [1, 0]{{=q[0]}}，位置 0 读位置 2 的比例约为 0.4011{{=weights[0, 2]}}。

```python exec="1" file="lessons/lNN/data.py:listing" source="above" result="output"
```

BEFORE

??? example "展开观看动态过程"

    ```python exec="1" html="1"
    from lessons.demo import embed, steps, widget
    print(widget("demo", {DEMO}, q="q", k="k", v="v"))
    ```

改一改：

```python exec="1" html="1"
print(widget("exercise", {EXERCISE}, q="q", k="k", v="v", mask="mask"))
```
'''
Q = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
K, V = Q.clone(), torch.tensor([[1., 0.], [0., 2.], [1., 2.]])


def block(code: str) -> str:
    return '```python exec="1"\n' + code + "\n```"


@pytest.fixture(scope="module")
def lesson(tmp_path_factory):
    """A repository copy with a scratch lesson whose page has a demo and an exercise."""
    repo = copy_repo(tmp_path_factory.mktemp("widgets") / "repo", with_cache=True)
    return make_lesson(repo, slug="widgets", title="草稿：演示的数据", files={"data": DATA}, page=PAGE)


def write(lesson, before: str = "", old: str = "", new: str = "") -> str:
    """The scratch page with `before` in place of BEFORE (and `old` replaced by `new`); its text."""
    page = PAGE.replace("lNN", lesson.id).replace("BEFORE", before)
    if old:
        assert old in page, old
        page = page.replace(old, new, 1)
    file = lesson.repo / lesson.page
    head = file.read_text(encoding="utf-8")
    title = re.search(r"^# .*\n", head, re.M)
    file.write_text(head[: title.end()] + "\n" + page, encoding="utf-8")
    return file.read_text(encoding="utf-8")


def fence_line(text: str, snippet: str) -> int:
    """The line of the ```python fence that opens the block holding `snippet`."""
    lines = text[: text.index(snippet)].split("\n")
    return max(i for i, s in enumerate(lines) if s.lstrip().startswith("```python")) + 1


def convert(repo, page: str, monkeypatch) -> tuple[str, list]:
    """The page converted in process, with the real engine, as a builder without MkDocs hooks
    (Zensical) does: (its HTML, its problems)."""
    monkeypatch.setattr(engine, "current", engine.Current(build=None, root=repo, collects=True))  # problems kept, not raised
    monkeypatch.setenv(shown.CONFIRMING, "1")  # not about the reviewed record (tests/test_shown.py is)
    _, _, body = scan.front_matter((repo / page).read_text(encoding="utf-8"))
    md = markdown.Markdown(extensions=[
        checks.CourseExtension(), "pymdownx.snippets", "pymdownx.details", "admonition",
        "pymdownx.superfences"], extension_configs={
        "pymdownx.snippets": {"base_path": [str(repo)], "check_paths": True},
        "pymdownx.superfences": {"custom_fences": [  # as mkdocs.yml registers them
            {"name": n, "class": n, "validator": fence.validator, "format": fence.formatter} for n in fence.LANGUAGES]}})
    try:
        html = md.convert(body)
    except checks.PageProblems:
        html = ""
    fm_lines = scan.front_matter((repo / page).read_text(encoding="utf-8"))[1]
    # the front matter's title is new_lesson.py's, not this file's concern
    return html, [p for p in engine.current.problems.get(page, []) if p.path != page or p.line > fm_lines]


def said(problems) -> list[str]:
    return [p.format() for p in problems]


# ---------------------------------------------------------------- the kit's own tests

def test_a_widget_embeds_exactly_what_embed_of_steps_embeds():
    scope = {"q": Q, "k": K, "v": V, "mask": causal_mask(3)}
    assert widget("demo", "x", q="q", k="k", v="v", scope=scope) == embed("demo", steps(Q, K, V), "x")
    assert (widget("exercise", "x", q="q", k="k", v="v", mask="mask", scope=scope)
            == embed("exercise", steps(Q, K, V, mask=causal_mask(3)), "x"))
    # without a scope, the caller's namespace: here this module's
    assert widget("demo", "x", q="Q * 2", k="K", v="V") == embed("demo", steps(Q * 2, K, V), "x")


def test_the_worker_sees_a_value_changed_in_place_however_deep():
    steps_like = (torch.ones(2), {"w": [torch.zeros(3)]})
    model = torch.nn.Linear(2, 2)
    scope = {"t": torch.ones(3), "s": steps_like, "m": model, "f": len, "n": 3}
    before = fingerprint(scope)
    assert set(before) == {"t", "s", "m", "n"}  # functions, classes, modules are left out
    assert fingerprint(scope) == before
    steps_like[1]["w"][0][1] = 5.0
    with torch.no_grad():
        model.weight.add_(1)
    after = fingerprint(scope)
    assert {name for name in before if after[name] != before[name]} == {"s", "m"}


def test_widgets_declared_reads_the_string_expressions_of_executed_blocks_only():
    text = PAGE.replace("lNN", "l99") + '\n```python\nwidget("demo", "", q="not_run", k="k", v="v")\n```\n'
    assert widgets.declared(text) == ["q", "k", "v", "mask"]


# ---------------------------------------------------------------- a scratch lesson's page

@pytest.mark.build
def test_the_honest_page_passes_and_its_widgets_embed_the_lessons_numbers(lesson, monkeypatch):
    write(lesson)
    html, problems = convert(lesson.repo, lesson.page, monkeypatch)
    assert said(problems) == []
    # the element embed() writes, as the page carries it (the fence marks every div unsearched)
    for made in (embed("demo", steps(Q, K, V), DEMO.strip('"')),
                 embed("exercise", steps(Q, K, V, mask=causal_mask(3)), EXERCISE.strip('"'))):
        assert fence._unsearched(made) in html


@pytest.mark.build
def test_a_widget_named_another_expression_shows_that_expression_bound(lesson, monkeypatch):
    """`q="q * 2"` is bound like `{=q * 2}`: the page says what it shows, the build checks it."""
    write(lesson, old='q="q", k="k", v="v"))', new='q="q * 2", k="k", v="v"))')
    _, problems = convert(lesson.repo, lesson.page, monkeypatch)
    assert said(problems) == []


@pytest.mark.parametrize("before, old, new, message", [
    ("", 'print(widget("demo", {d}, q="q", k="k", v="v"))', 'print(embed("demo", steps(q * 2, k, v), {d}))',
     "逐步演示的数据没有绑定：embed(…) 不说这些数来自本讲的哪些表达式"),
    (block("q = q * 2"), "", "",
     "数字漂移：逐步演示嵌入的 q 与本讲代码现算的 q 不一致（第 0 个数：嵌入 2，现算 1）"),
    (block("q2 = q * 2"), 'q="q", k="k", v="v"))', 'q="q2", k="k", v="v"))',
     "逐步演示的 q 读的 q2 不是本讲代码算出的值（在本讲的命名空间里：NameError"),
], ids=["bare-embed", "rebound-in-a-block", "a-name-of-the-page"])
@pytest.mark.build
def test_a_widget_fed_another_tensor_fails_the_page_at_its_block(lesson, monkeypatch, before, old, new, message):
    text = write(lesson, before, old.format(d=DEMO), new.format(d=DEMO))
    _, problems = convert(lesson.repo, lesson.page, monkeypatch)
    line = fence_line(text, 'print(embed("demo"' if "embed" in new else 'print(widget("demo"')
    assert [p.kind for p in problems if p.line == line] == ["drift"]
    assert any(s.startswith(f"{lesson.page}:{line}: {message}") for s in said(problems)), said(problems)


@pytest.mark.build
def test_an_in_place_change_before_the_demo_fails_at_the_block_that_made_it_and_at_the_widgets(lesson, monkeypatch):
    text = write(lesson, block("q[0, 0] = 9.0"))
    _, problems = convert(lesson.repo, lesson.page, monkeypatch)
    changed, demo, exercise = (fence_line(text, s) for s in ("q[0, 0] = 9.0", 'widget("demo"', 'widget("exercise"'))
    prose = lesson.line_of("q₀ 是")
    assert said(problems) == [
        f"{lesson.page}:{changed}: 数字漂移：这个代码块原地改了本讲的 q，而第 {prose} 行的绑定和页面上的演示读的是它改之前的值；"
        "要改就先复制一份（q.clone()）",
        f"{lesson.page}:{demo}: 数字漂移：逐步演示嵌入的 q 与本讲代码现算的 q 不一致（第 0 个数：嵌入 9，现算 1）；"
        "正文绑定的是代码块运行之前的值，是前面的代码块改了它吗？",
        f"{lesson.page}:{exercise}: 数字漂移：改数练习嵌入的 q 与本讲代码现算的 q 不一致（第 0 个数：嵌入 9，现算 1）；"
        "正文绑定的是代码块运行之前的值，是前面的代码块改了它吗？",
    ]
    assert {p.kind for p in problems} == {"drift"}


@pytest.mark.build
def test_an_in_place_change_of_a_value_only_the_prose_reads_fails_at_that_block(lesson, monkeypatch):
    text = write(lesson, block("weights.mul_(2)"))
    _, problems = convert(lesson.repo, lesson.page, monkeypatch)
    assert said(problems) == [f"{lesson.page}:{fence_line(text, 'weights.mul_(2)')}: 数字漂移：这个代码块原地改了本讲的 weights，"
                              f"而第 {lesson.line_of('q₀ 是')} 行的绑定读的是它改之前的值；要改就先复制一份（weights.clone()）"]


@pytest.mark.build
def test_changing_a_copy_passes(lesson, monkeypatch):
    write(lesson, block("mine = q.clone()\nmine[0, 0] = 9.0\nother = weights * 2"))
    _, problems = convert(lesson.repo, lesson.page, monkeypatch)
    assert said(problems) == []


@pytest.mark.build
def test_mkdocs_build_strict_fails_naming_the_page_and_the_lines(lesson, tmp_path):
    """A real build: the honest page has no problem, the page with an in-place change fails there."""
    write(lesson)
    honest = mkdocs_build(lesson.repo, tmp_path / "honest", **{shown.CONFIRMING: "1"})
    fm_lines = scan.front_matter(text := (lesson.repo / lesson.page).read_text(encoding="utf-8"))[1]
    lines = [int(n) for n in re.findall(rf"{re.escape(lesson.page)}:(\d+):", honest.stdout + honest.stderr)]
    assert [n for n in lines if n > fm_lines] == [], honest.stderr  # its title is new_lesson.py's
    text = write(lesson, block("q[0, 0] = 9.0"))
    built = mkdocs_build(lesson.repo, tmp_path / "site", **{shown.CONFIRMING: "1"})
    out = built.stdout + built.stderr
    assert built.returncode != 0
    changed, demo = fence_line(text, "q[0, 0] = 9.0"), fence_line(text, 'widget("demo"')
    assert f"{lesson.page}:{changed}: 数字漂移：这个代码块原地改了本讲的 q" in out, out
    assert f"{lesson.page}:{demo}: 数字漂移：逐步演示嵌入的 q" in out, out
    write(lesson)


# ---------------------------------------------------------------- every lesson with a widget

def widget_calls(lesson) -> list[tuple[int, ast.Call]]:
    """(line of its block's fence, the call) for each widget(...) of the lesson's page."""
    text = lesson.markdown()
    _, fm_lines, body = scan.front_matter(text)
    return [(fm_lines + f.start, call) for f in scan.fences(body) if f.executed
            for call in widgets.calls("\n".join(f.lines))]


HAS_WIDGET = lesson_params(having=lambda lesson: lesson.embeds("demo") or lesson.embeds("exercise"))


@pytest.mark.parametrize("lesson", HAS_WIDGET)
def test_every_widget_of_a_lesson_names_the_lesson_expressions_it_shows(lesson):
    text = lesson.markdown()
    assert not re.search(r"\bembed\(", text), "a lesson page embeds with widget(...), never a bare embed(...)"
    calls = widget_calls(lesson)
    assert calls
    for _, call in calls:
        named = {kw.arg: kw.value for kw in call.keywords}
        assert {"q", "k", "v"} <= set(named)
        assert all(isinstance(named[r], ast.Constant) and isinstance(named[r].value, str)
                   for r in widgets.ROLES if r in named)


@pytest.mark.build
@pytest.mark.parametrize("lesson", HAS_WIDGET)
def test_an_in_place_change_before_a_lessons_first_widget_fails_its_page(lesson, tmp_path, monkeypatch):
    repo = copy_repo(tmp_path / "repo", with_cache=True)
    page = repo / lesson.page
    text = page.read_text(encoding="utf-8")
    fence_at, call = widget_calls(lesson)[0]
    q = next(kw.value.value for kw in call.keywords if kw.arg == "q")
    lines = text.split("\n")
    indent = re.match(r"\s*", lines[fence_at - 1]).group(0)
    inserted = [f'{indent}```python exec="1"', f"{indent}_changed = ({q})", f"{indent}_changed.add_(1)", f"{indent}```", ""]
    page.write_text("\n".join(lines[: fence_at - 1] + inserted + lines[fence_at - 1:]), encoding="utf-8")
    _, problems = convert(repo, lesson.page, monkeypatch)
    failed = [s for s in said(problems) if "本讲的代码" in s]
    assert not failed, f"{lesson.id}'s own code does not run in this tree, so no block of its page runs: {failed}"
    names = sorted(widgets._names(q))
    ours = [s for s in said(problems) if "原地改了" in s or "嵌入的 q" in s]
    assert any(s.startswith(f"{lesson.page}:{fence_at}: 数字漂移：这个代码块原地改了本讲的 {names[0]}") for s in ours), ours
    assert any(s.startswith(f"{lesson.page}:{fence_at + len(inserted)}: 数字漂移：") and "嵌入的 q" in s for s in ours), ours
