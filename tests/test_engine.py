"""The engine in process, with real workers: one run per lesson, cached by what it depends on,
isolated, time-limited, and every failure named by file and line."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from coursekit import engine
from coursekit.harness import copy_repo


def lesson(root: Path, number: int, files: dict[str, str], **settings) -> None:
    package = root / f"lessons/l{number}"
    package.mkdir(parents=True)
    extra = "".join(f"{k} = {v!r}\n" for k, v in settings.items())
    names = ", ".join(f"({n!r}, {n!r})" for n in files)
    (package / "__init__.py").write_text(f'"""第 {number} 讲 · 测试"""\nEXPERIMENTS = [{names}]\n{extra}', encoding="utf-8")
    for name, code in files.items():
        (package / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")


@pytest.fixture
def root(tmp_path) -> Path:
    repo = copy_repo(tmp_path / "repo")
    (repo / "tinylm/extra.py").write_text("# 一个常数\nTWO = 2\n", encoding="utf-8")
    lesson(repo, 50, {"first": "from tinylm.extra import TWO\nx = TWO * 3\nprint('x =', x)\n",
                      "second": "from lessons.l50.first import x\ny = x + 1\nprint('y =', y)\n"})
    lesson(repo, 51, {"uses": "from lessons.l50.second import y\nz = y * 10\nprint('z =', z)\n"})
    lesson(repo, 52, {"alone": "w = 5\nprint('w =', w)\n"})
    return repo


def runs(root: Path, sessions=("l50", "l51", "l52")) -> dict[str, engine.Run]:
    build = engine.Build(root)
    try:
        build.prefetch(sessions)
        return {s: build.run(s) for s in sessions}
    finally:
        build.close()


def test_each_file_runs_whole_once_and_its_output_is_kept_by_statement(root):
    run = runs(root, ["l50"])["l50"]
    assert run.error is None and run.executed
    first, second = run.files
    assert first.output() == "x = 6\n" and second.output() == "y = 7\n"
    assert first.output((3, 3)) == "x = 6\n" and first.output((1, 2)) == ""


def test_a_later_lesson_imports_an_earlier_one_without_printing_its_output(root):
    run = runs(root, ["l51"])["l51"]
    assert run.error is None and run.files[0].output() == "z = 70\n"


def test_results_are_cached_by_what_they_depend_on(root):
    assert all(r.executed for r in runs(root).values())
    assert not any(r.executed for r in runs(root).values())  # nothing changed
    extra = root / "tinylm/extra.py"
    extra.write_text("# 一个常数（注释改了）\nTWO = 2\n", encoding="utf-8")
    assert not any(r.executed for r in runs(root).values())  # a comment in an imported module
    extra.write_text("TWO = 3\n", encoding="utf-8")
    again = runs(root)
    assert again["l50"].executed and again["l51"].executed and not again["l52"].executed
    assert again["l51"].files[0].output() == "z = 100\n"
    second = root / "lessons/l50/second.py"
    second.write_text(second.read_text(encoding="utf-8") + "# 只是注释\n", encoding="utf-8")
    after = runs(root)  # a lesson's own file counts to the letter (its page shows it), for others its code
    assert after["l50"].executed and not after["l51"].executed and not after["l52"].executed
    second.write_text(second.read_text(encoding="utf-8").replace("x + 1", "x + 2"), encoding="utf-8")
    last = runs(root)
    assert last["l50"].executed and last["l51"].executed and not last["l52"].executed
    assert last["l51"].files[0].output() == "z = 110\n"


def test_independent_lessons_run_at_the_same_time(root, tmp_path):
    log = tmp_path / "times.txt"
    for n in (60, 61):
        lesson(root, n, {"slow": f"import time\nstart = time.time()\ntime.sleep(1.0)\n"
                                 f"open({str(log)!r}, 'a').write(f'{{start}} {{time.time()}}\\n')\n"})
    runs(root, ["l60", "l61"])
    (a0, a1), (b0, b1) = [tuple(map(float, line.split())) for line in log.read_text().splitlines()]
    assert a0 < b1 and b0 < a1  # the two runs overlapped


@pytest.mark.parametrize("code, message, line", [
    ("import sys\nsys.exit(0)\n", "sys.exit(0)", 2),
    ("raise SystemExit(3)\n", "sys.exit(3)", 1),
    ("x = 1\nraise KeyboardInterrupt\n", "KeyboardInterrupt", 2),
    ("import os\nprint('before')\nos._exit(7)\n", "意外退出（退出码 7）", None),
    ("print('x' * 200_000)\n", "打印超过 100000 个字符的上限", 1),
    ("open('docs/made-by-a-lesson.md', 'w').write('x')\n", "不能写入受监视的源文件夹", 1),
    ("x = 1\nwhile True:\n    x += 1\n", "超过时间上限 2 秒", 3),
    ("x = 2 / 3\nprint('约', round(x, 4), '（即 2/3）')\n", "打印的 2/3 是写死的（「（即 2/3）」）", 2),
])
def test_every_failure_is_one_error_naming_file_and_line(root, code, message, line):
    lesson(root, 70, {"bad": code}, TIME_LIMIT=2)
    start = time.monotonic()
    run = runs(root, ["l70"])["l70"]
    assert run.error is not None and message in str(run.error), run.error
    if line:
        assert run.error.where == ("lessons/l70/bad.py", line)
    assert time.monotonic() - start < 30
    assert not (root / "docs/made-by-a-lesson.md").exists()


def test_a_page_block_cannot_leak_into_the_next_build(root):
    patch = "import torch\ntorch.softmax = lambda *a, **k: 'patched'\nprint('patched it')\n"
    probe = "import torch\nprint(torch.softmax(torch.zeros(2), dim=0))\n"
    build = engine.Build(root)
    try:
        assert build.execute("l52", "p", engine.chain("", patch), patch, "docs/p.md:3") == {"output": "patched it\n"}
        assert build.execute("l52", "p", engine.chain("x", probe), probe, "docs/p.md:9")["output"] == "patched\n"
    finally:
        build.close()
    build = engine.Build(root)
    try:
        clean = build.execute("l52", "p", engine.chain("", probe), probe, "docs/p.md:3")
        assert clean == {"output": "tensor([0.5000, 0.5000])\n"}
    finally:
        build.close()


def test_typed_numbers_in_several_places_name_the_first_and_count_the_rest_without_running(root):
    lesson(root, 71, {"a": "print('约 0.5，即 1/2')\nprint('ok')\n", "b": "print('又是 0.25')\n"})
    run = runs(root, ["l71"])["l71"]
    assert run.error is not None and not run.error.ran and not run.executed
    assert run.error.where == ("lessons/l71/a.py", 1)
    assert str(run.error).startswith("打印的 0.5、1/2 是写死的（「约 0.5，即 1/2」）")
    assert str(run.error).endswith("（另有 1 行：lessons/l71/b.py:1）")
