"""The engine in process, with real workers: one run per lesson, cached by what it depends on,
isolated, time-limited, and every failure named by file and line.

The tests work in one small fixture tree, made once for the module: the lessons package's own
modules (its __init__ and what it imports), the kit (the runner among it), an empty docs/, a tinylm of the
tests' own (tinylm/extra.py) and the test lessons; none of the course's lessons, pages or build
files. The tree stays at one path, so the zygote the workers are forked from (it imports torch
once, engine.Zygote) serves every test of the module. A test that only reads runs of A, B and C
reads them from one Build for the module (`shared`); a test that changes files or asks for a fresh
Build (cache behaviour) gets the tree as it was made, with no cache, and leaves it so (`root`)."""

from __future__ import annotations

import shutil
import textwrap
import time
from pathlib import Path

import pytest

from coursekit.core import digests, engine, reads, report, store
from coursekit.extensions import checks
from tests.scratch_lesson import free_numbers, used_numbers

ROOT = Path(__file__).resolve().parents[1]
# The test lessons' numbers, after every lesson the repository has: A, B and C below, then the
# lessons single tests make (one of them imports A and B, so numbers are put into code as lNN).
A, B, C, D, E, F, G = (f"l{n}" for n in free_numbers(ROOT, 7))


def lesson(root: Path, lesson_id: str, files: dict[str, str], **settings) -> None:
    package = root / f"lessons/{lesson_id}"
    package.mkdir(parents=True)
    extra = "".join(f"{k} = {v!r}\n" for k, v in settings.items())
    names = ", ".join(f"({n!r}, {n!r})" for n in files)
    (package / "__init__.py").write_text(f'"""第 {lesson_id[1:]} 讲 · 测试"""\nEXPERIMENTS = [{names}]\n{extra}', encoding="utf-8")
    (package / "__main__.py").write_text(f"from coursekit.core.runner import main\n\nmain('lessons.{lesson_id}')\n", encoding="utf-8")
    for name, code in files.items():
        (package / f"{name}.py").write_text(textwrap.dedent(code).replace("lA.", f"{A}."), encoding="utf-8")


def small_tree(dest: Path) -> Path:
    """What the engine and its workers read, and no more: lessons/'s own modules (the package's
    __init__, which the workers import, and what it imports; not the course's lesson packages), the
    kit (the zygote and the workers import it from the tree, the runner with it; a block may read its
    example lesson), docs/ (empty: a lesson may not write into it) and a tinylm of the tests' own
    holding tinylm/extra.py; then the test lessons A, B and C."""
    (dest / "lessons").mkdir(parents=True)
    for module in sorted((ROOT / "lessons").glob("*.py")):
        shutil.copy2(module, dest / "lessons" / module.name)
    shutil.copytree(ROOT / "coursekit", dest / "coursekit", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "docs").mkdir()
    (dest / "tinylm").mkdir()
    (dest / "tinylm/__init__.py").write_text('"""测试用的 tinylm：只有 extra.py。"""\n', encoding="utf-8")
    ours = {int(s[1:]) for s in (A, B, C, D, E, F, G)}
    assert not (used_numbers(ROOT) | used_numbers(dest)) & ours
    (dest / "tinylm/extra.py").write_text("# 一个常数\nTWO = 2\n", encoding="utf-8")
    lesson(dest, A, {"first": "from tinylm.extra import TWO\nx = TWO * 3\nprint('x =', x)\n",
                     "second": "from lessons.lA.first import x\ny = x + 1\nprint('y =', y)\n"})
    lesson(dest, B, {"uses": "from lessons.lA.second import y\nz = y * 10\nprint('z =', z)\n"})
    lesson(dest, C, {"alone": "w = 5\nprint('w =', w)\n"})
    assert set(engine.find_lessons(dest)) == {A, B, C}
    return dest


def reset(tree: Path) -> Path:
    """The tree at its one path as small_tree made it (the copy beside it), with no cache."""
    for entry in list(tree.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    shutil.copytree(tree.parent / "made", tree, dirs_exist_ok=True)
    return tree


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """The module's small fixture tree, made once; every test works at its path."""
    base = tmp_path_factory.mktemp("engine")
    small_tree(base / "made")
    (base / "repo").mkdir()
    return reset(base / "repo")


@pytest.fixture
def root(tree) -> Path:
    """The tree for a test that changes it or needs a fresh cache: as made, with no cache, and put
    back so after the test (a copy of the small tree, cheap)."""
    reset(tree)
    yield tree
    reset(tree)


@pytest.fixture(scope="module")
def shared(tree):
    """One Build for the module's tests that only read: A, B and C run once (executed: no cache)."""
    build = engine.Build(reset(tree))
    try:
        build.prefetch([A, B, C])
        for lesson_id in (A, B, C):
            build.run(lesson_id)
        yield build
    finally:
        build.close()


def runs(root: Path, lesson_ids=(A, B, C)) -> dict[str, engine.Run]:
    build = engine.Build(root)
    try:
        build.prefetch(lesson_ids)
        return {s: build.run(s) for s in lesson_ids}
    finally:
        build.close()


@pytest.mark.engine
def test_each_file_runs_whole_once_and_its_output_is_kept_by_statement(shared):
    run = shared.run(A)
    assert run.error is None and run.executed
    first, second = run.files
    assert first.output() == "x = 6\n" and second.output() == "y = 7\n"
    assert first.output((3, 3)) == "x = 6\n" and first.output((1, 2)) == ""


@pytest.mark.engine
def test_a_later_lesson_imports_an_earlier_one_without_printing_its_output(shared):
    run = shared.run(B)
    assert run.error is None and run.files[0].output() == "z = 70\n"


@pytest.mark.engine
def test_results_are_cached_by_what_they_depend_on(root):
    assert all(r.executed for r in runs(root).values())
    assert not any(r.executed for r in runs(root).values())  # nothing changed
    extra = root / "tinylm/extra.py"
    extra.write_text("# 一个常数（注释改了）\nTWO = 2\n", encoding="utf-8")
    assert not any(r.executed for r in runs(root).values())  # a comment in an imported module
    extra.write_text("TWO = 3\n", encoding="utf-8")
    again = runs(root)
    assert again[A].executed and again[B].executed and not again[C].executed
    assert again[B].files[0].output() == "z = 100\n"
    second = root / f"lessons/{A}/second.py"
    second.write_text(second.read_text(encoding="utf-8") + "# 只是注释\n", encoding="utf-8")
    after = runs(root)  # a lesson's own file counts to the letter (its page shows it), for others its code
    assert after[A].executed and not after[B].executed and not after[C].executed
    second.write_text(second.read_text(encoding="utf-8").replace("x + 1", "x + 2"), encoding="utf-8")
    last = runs(root)
    assert last[A].executed and last[B].executed and not last[C].executed
    assert last[B].files[0].output() == "z = 110\n"


@pytest.mark.engine
def test_a_run_depends_on_the_runner_it_ran_through(root):
    """The runner is the kit's (coursekit/core/runner.py), not a lessons module the worker reports
    having imported: its code is in every run's key all the same, its comments are not."""
    assert all(r.executed for r in runs(root).values())
    runner = root / "coursekit/core/runner.py"
    runner.write_text(runner.read_text(encoding="utf-8") + "# 只是注释\n", encoding="utf-8")
    assert not any(r.executed for r in runs(root).values())
    runner.write_text(runner.read_text(encoding="utf-8") + "EDITED = True\n", encoding="utf-8")
    assert all(r.executed for r in runs(root).values())


@pytest.mark.engine
def test_independent_lessons_run_at_the_same_time(root, tmp_path):
    """Each lesson leaves a mark and waits for the other's: both finish only if they ran together."""
    wait = ("import pathlib, time\npathlib.Path({mine!r}).touch()\nfor _ in range(600):\n"
            "    if pathlib.Path({other!r}).exists():\n        break\n    time.sleep(0.05)\nelse:\n"
            "    raise SystemExit('alone')\nprint('together')\n")
    marks = {D: str(tmp_path / "d"), E: str(tmp_path / "e")}
    lesson(root, D, {"wait": wait.format(mine=marks[D], other=marks[E])})
    lesson(root, E, {"wait": wait.format(mine=marks[E], other=marks[D])})
    both = runs(root, [D, E])
    assert [both[s].error for s in (D, E)] == [None, None]
    assert both[D].files[0].output() == both[E].files[0].output() == "together\n"


@pytest.mark.engine
@pytest.mark.parametrize("code, message, line", [
    ("import sys\nsys.exit(0)\n", "sys.exit(0)", 2),
    ("raise SystemExit(3)\n", "sys.exit(3)", 1),
    ("x = 1\nraise KeyboardInterrupt\n", "KeyboardInterrupt", 2),
    ("import os\nprint('before')\nos._exit(7)\n", "意外退出（退出码 7）", None),
    ("print('x' * 200_000)\n", "打印超过 100000 个字符的上限", 1),
    ("open('docs/made-by-a-lesson.md', 'w').write('x')\n", "不能写入受监视的源文件夹", 1),
    ("x = 1\nopen('.cache/coursekit/runs/lessons.other.json', 'w').write('{}')\n", "不能读写构建自己的缓存", 2),
    ("x = open('.cache/coursekit/seal.key', 'rb').read()\n", "不能读写构建自己的缓存", 1),
    ("import subprocess\nsubprocess.run(['true'])\n", "不能启动别的程序", 2),
    ("import os\nos.system('true')\n", "不能启动别的程序", 2),
    ("x = 1\nraise ValueError('坏\\ud800')\n", "ValueError: 坏\\ud800", 2),  # no UTF-8: shown escaped
    ("x = 1\nwhile True: x += 1\n", "超过时间上限 2 秒", 2),  # a loop on one line: stopped on it, whichever statement
    ("x = 2 / 3\nprint('约', round(x, 4), '（即 2/3）')\n", "打印的 2/3 是写死的（「约 … （即 2/3）」）", 2),
])
def test_every_failure_is_one_error_naming_file_and_line(root, code, message, line):
    lesson(root, D, {"bad": code}, TIME_LIMIT=2)
    start = time.monotonic()
    run = runs(root, [D])[D]
    assert run.error is not None and message in str(run.error), run.error
    if line:
        assert run.error.where == (f"lessons/{D}/bad.py", line)
    assert time.monotonic() - start < 30
    assert not (root / "docs/made-by-a-lesson.md").exists()


@pytest.mark.engine
def test_a_page_block_cannot_leak_into_the_next_build(tree):
    patch = "import torch\ntorch.softmax = lambda *a, **k: 'patched'\nprint('patched it')\n"
    probe = "import torch\nprint(torch.softmax(torch.zeros(2), dim=0))\n"
    build = engine.Build(tree)
    try:
        assert build.execute(C, "p", digests.chain("", patch), patch, "docs/p.md:3") == {"output": "patched it\n"}
        assert build.execute(C, "p", digests.chain("x", probe), probe, "docs/p.md:9")["output"] == "patched\n"
    finally:
        build.close()
    build = engine.Build(tree)
    try:
        clean = build.execute(C, "p", digests.chain("", probe), probe, "docs/p.md:3")
        assert clean == {"output": "tensor([0.5000, 0.5000])\n"}
    finally:
        build.close()


@pytest.mark.engine
def test_typed_numbers_in_several_places_name_the_first_and_count_the_rest_without_running(root):
    lesson(root, D, {"a": "print('约 0.5，即 1/2')\nprint('ok')\n", "b": "print('又是 0.25')\n"})
    run = runs(root, [D])[D]
    assert run.error is not None and not run.error.ran and not run.executed
    assert run.error.where == (f"lessons/{D}/a.py", 1)
    assert str(run.error).startswith("打印的 0.5、1/2 是写死的（「约 0.5，即 1/2」）")
    assert str(run.error).endswith(f"（另有 1 行：lessons/{D}/b.py:1）")


# ---- a failing experiment says what failed, where, and keeps what ran before it -------------------


@pytest.mark.engine
@pytest.mark.parametrize("code, message, line", [
    ("x = 1\nassert x == 2, f'x 应是 2，实为 {x}'\n", "核对失败：x 应是 2，实为 1", 2),
    ("x = 1\nassert x == 2\n", "核对失败：assert x == 2", 2),
    ("x = 1\nif x:\n    assert (x ==\n            2)  # 注释不算\n", "核对失败：assert x == 2", 3),
    ("def check(v):\n    assert v > 0\n\ncheck(-1)\n", "核对失败：assert v > 0", 2),
    ("x = 1\nraise AssertionError\n", "核对失败", 2),
    ("x = 1 / 0\n", "运行 lessons/lNN/bad.py 出错：ZeroDivisionError: division by zero", 1),
])
def test_a_failing_experiment_says_what_failed_at_its_file_and_line(root, code, message, line):
    lesson(root, D, {"bad": code})
    run = runs(root, [D])[D]
    assert str(run.error) == message.replace("lNN", D), run.error
    assert "AssertionError" not in str(run.error)
    assert run.error.where == (f"lessons/{D}/bad.py", line) and run.error.file == f"lessons/{D}/bad.py"


@pytest.mark.engine
def test_the_experiments_before_a_failing_one_keep_their_output(root):
    lesson(root, D, {"fine": "print('算好了')\n", "bad": "print('一半')\nassert 1 > 2, '不成立'\n", "later": "print('没跑')\n"})
    run = runs(root, [D])[D]
    assert str(run.error) == "核对失败：不成立" and run.error.file == f"lessons/{D}/bad.py"
    assert [f.name for f in run.files] == ["fine"] and run.file(f"lessons/{D}/fine.py").output() == "算好了\n"


@pytest.mark.engine
def test_a_failing_block_assert_quotes_its_own_source(shared):
    code = "x = 3\nassert x < 2\n"
    answer = shared.execute(C, "docs/p.md", digests.chain("", code), code, "docs/p.md:7")
    error = answer["error"]
    assert (error["type"], error["message"], tuple(error["where"])) == ("AssertionError", "assert x < 2", ("docs/p.md", 9))


@pytest.mark.engine
def test_the_command_line_says_what_a_failing_check_checked(root):
    import subprocess
    import sys

    lesson(root, D, {"fine": "print('算好了')\n", "bad": "x = 3\nassert x < 2\n"})
    result = subprocess.run([sys.executable, "-m", f"lessons.{D}"], cwd=root, capture_output=True, text=True)
    assert result.returncode == 1 and "算好了" in result.stdout
    assert f"核对失败：lessons/{D}/bad.py:2：assert x < 2" in result.stderr, result.stderr


@pytest.mark.engine
def test_the_build_names_the_lessons_it_ran(root):
    runs(root)  # A, B and C recorded
    (root / "tinylm/extra.py").write_text("TWO = 3\n", encoding="utf-8")
    build = engine.Build(root)
    try:
        build.prefetch([A, B, C])
        [build.run(s) for s in (A, B, C)]
        ran = build.executed()
    finally:
        build.close()
    assert [lesson.id for lesson in ran] == [A, B]
    line = report.executed(ran, 1.5, 0)
    assert f"重新运行第 {int(A[1:])}、{int(B[1:])} 讲（lessons.{A}, lessons.{B}）" in line
    assert "没有一讲重新运行" in report.executed([], 0, 0)


# ---- the page line a failing experiment is reported at ---------------------------------------------

PAGE = '''# 99｜标题

第一段正文。

```python exec="1" file="lessons/lX/one.py:top" source="above" result="output"
```

```python exec="1" file="lessons/lX/two.py" source="above" result="output"
```

```python exec="1" file="lessons/lX/one.py:bottom" source="above" result="output"
```
'''
ONE = "a = 1\n# --8<-- [start:top]\nb = 2\n# --8<-- [end:top]\nc = 3\n# --8<-- [start:bottom]\nd = 4\n# --8<-- [end:bottom]\n"


@pytest.mark.parametrize("where, file, line", [
    (("lessons/lX/one.py", 3), "lessons/lX/one.py", 24),  # the block whose section holds the line
    (("lessons/lX/one.py", 7), "lessons/lX/one.py", 30),
    (("lessons/lX/one.py", 5), "lessons/lX/one.py", 24),  # between sections: the file's first block
    (("lessons/lX/two.py", 1), "lessons/lX/two.py", 27),  # a whole file
    (("tinylm/model.py", 9), "lessons/lX/two.py", 27),  # elsewhere: the block of the experiment that ran
    (("tinylm/model.py", 9), "lessons/lX/three.py", 24),  # not shown either: the page's first block
    (None, None, 24),
])
def test_a_failing_experiment_is_reported_at_the_block_that_shows_it(tmp_path, where, file, line):
    (tmp_path / "lessons/lX").mkdir(parents=True)
    (tmp_path / "lessons/lX/one.py").write_text(ONE, encoding="utf-8")
    (tmp_path / "lessons/lX/two.py").write_text("e = 5\n", encoding="utf-8")
    err = engine.LessonError("核对失败", where, file=file)
    assert checks.failure_line(tmp_path, PAGE, 20, err) == line


def test_a_page_without_blocks_reports_a_failing_experiment_below_its_title(tmp_path):
    err = engine.LessonError("核对失败", ("lessons/lX/one.py", 3))
    assert checks.failure_line(tmp_path, "# 99｜标题\n\n第一段正文。\n", 5, err) == 7
    assert checks.failure_line(tmp_path, "\n# 99｜标题\n", 5, err) == 6  # nothing below it: the title it is


@pytest.mark.engine
def test_a_file_edited_and_put_back_finds_its_earlier_run(root):
    first = root / f"lessons/{A}/first.py"
    original = first.read_text(encoding="utf-8")
    before = runs(root, [A])[A]
    first.write_text(original.replace("TWO * 3", "TWO * 4"), encoding="utf-8")
    changed = runs(root, [A])[A]
    assert changed.executed and changed.files[0].output() == "x = 8\n"
    first.write_text(original, encoding="utf-8")
    back = runs(root, [A])[A]
    assert not back.executed and back.key == before.key and back.files[0].output() == "x = 6\n"
    assert len(list((root / f".cache/coursekit/runs/lessons.{A}").glob("*.json"))) == 2


@pytest.mark.engine
def test_the_run_cache_keeps_a_few_runs_per_lesson_and_stays_under_its_size(root, monkeypatch):
    first, cache = root / f"lessons/{A}/first.py", root / ".cache/coursekit"
    original = first.read_text(encoding="utf-8")
    monkeypatch.setattr(store, "HISTORY", 2)
    keys = []
    for n in (3, 4, 5):  # three versions of the file: the oldest run goes, with its evaluations
        first.write_text(original.replace("TWO * 3", f"TWO * {n}"), encoding="utf-8")
        build = engine.Build(root)
        try:
            assert build.evaluate(A, ["x"])[0]["numbers"] == [2.0 * n]
            keys.append(build.run(A).key)
        finally:
            build.close()
    kept = {p.stem for p in (cache / f"runs/lessons.{A}").glob("*.json")}
    assert kept == set(keys[1:]) and not (cache / f"evals/{keys[0]}.json").exists()
    assert (cache / f"evals/{keys[2]}.json").exists()
    first.write_text(original, encoding="utf-8")

    runs(root, [A, C])  # another lesson's runs are pruned when the cache is over its size ...
    monkeypatch.setattr(store, "CACHE_BYTES", 1)
    first.write_text(original.replace("TWO * 3", "TWO * 6"), encoding="utf-8")
    build = engine.Build(root)
    try:
        build.run(C)  # ... but never a run this build uses
        assert build.run(A).executed
    finally:
        build.close()
    assert {p.parent.name for p in (cache / "runs").glob("*/*.json")} == {f"lessons.{A}", f"lessons.{C}"}
    assert len(list((cache / "runs").glob("*/*.json"))) == 2


@pytest.mark.engine
def test_a_record_rewritten_outside_the_build_is_run_again_never_shown(root):
    """The poisoning a probe found: a lesson's recorded run rewritten (here by the test, as any
    process outside the build could) to show 9.9999 where the code computes 6. The record no longer
    verifies, so the lesson runs again and the true output is shown; so for one cut short, or copied
    over another lesson's record."""
    assert runs(root, [A, C])[A].files[0].output() == "x = 6\n"
    (record,) = (root / f".cache/coursekit/runs/lessons.{A}").glob("*.json")
    seal, _, body = record.read_text(encoding="utf-8").partition("\n")
    record.write_text(seal + "\n" + body.replace("x = 6", "x = 9.9999"), encoding="utf-8")
    again = runs(root, [A])[A]
    assert again.executed and again.files[0].output() == "x = 6\n"
    for tamper in (lambda text: text[: len(text) // 2],
                   lambda text: next((root / f".cache/coursekit/runs/lessons.{C}").glob("*.json")).read_text(encoding="utf-8")):
        record.write_text(tamper(record.read_text(encoding="utf-8")), encoding="utf-8")
        run = runs(root, [A])[A]
        assert run.executed and run.files[0].output() == "x = 6\n"
    assert not runs(root, [A])[A].executed  # what the build wrote itself is used


@pytest.mark.engine
def test_a_page_block_that_reads_what_its_lessons_run_did_not_runs_again_when_that_changes(root):
    """A red-team finding: a block importing a module its lesson's experiments never import was kept
    under the run's key alone, so editing that module left the page showing the old output. So for
    a data file it opens by a relative path (the worker works in the repository's folder)."""
    other, data = root / "tinylm/other.py", root / "lessons/data.txt"
    code = "from tinylm.other import N\nprint('N =', N, open('lessons/data.txt').read())\n"
    outputs = []
    for n, word in ((2, "a"), (3, "a"), (3, "b")):
        other.write_text(f"N = {n}\n", encoding="utf-8")
        data.write_text(word, encoding="utf-8")
        build = engine.Build(root)
        try:
            outputs.append(build.execute(A, "docs/x.md", "", code, "docs/x.md:1")["output"])
        finally:
            build.close()
    assert outputs == ["N = 2 a\n", "N = 3 a\n", "N = 3 b\n"]


@pytest.mark.engine
def test_a_page_block_is_kept_while_the_files_it_read_are_unchanged(root):
    """A block is kept under what its worker had imported and read, not under every file of tinylm
    and lessons: editing a module no block and no run reads keeps it; editing one it imports does not."""
    (root / "tinylm/unread.py").write_text("M = 1\n", encoding="utf-8")
    code = "from tinylm.extra import TWO\nprint(TWO)\n"

    def reran() -> int:
        build = engine.Build(root)
        try:
            assert build.execute(A, "docs/x.md", "", code, "docs/x.md:1")["output"] == "2\n"
            return build.reruns
        finally:
            build.close()

    assert reran() == 1
    (root / "tinylm/unread.py").write_text("M = 2\n", encoding="utf-8")
    assert reran() == 0
    (root / "tinylm/extra.py").write_text("# 一个常数\nTWO = 2  # 改了注释\nONE = 1\n", encoding="utf-8")
    assert reran() == 1


@pytest.mark.engine
def test_a_changed_block_after_kept_ones_sees_what_they_defined(tree):
    """Only the second block changed: the first comes from the cache, so the worker that runs the
    second runs the first before it (a NameError otherwise), and shows only the second's output."""
    first = "q = 5\nprint('first')\n"
    outputs = []
    for second in ("print('q', q)\n", "print('q + 1', q + 1)\n"):
        build = engine.Build(tree)
        try:
            outputs.append(build.execute(A, "docs/x.md", "", first, "docs/x.md:1")["output"])
            outputs.append(build.execute(A, "docs/x.md", digests.chain("", first), second, "docs/x.md:4")["output"])
        finally:
            build.close()
    assert outputs == ["first\n", "q 5\n", "first\n", "q + 1 6\n"]


@pytest.mark.engine
def test_every_failing_block_runs_and_the_blocks_after_it_run_after_it(tree):
    """Like notebook cells: what a failing block defined before it failed stays, and the later
    blocks run after it; a later block run again (its code changed) has the earlier ones, failing
    ones too, run first in its new worker, and shows what it printed, not their errors."""
    codes = ["print('w', w)\n", "r = w + 1\nraise ValueError('one')\n", "print('r', r)\n", "1 / 0\n"]
    answers = []
    for last in ("print('after', r)\n", "print('after', r + 1)\n"):
        build = engine.Build(tree)
        try:
            previous = ""
            for n, code in enumerate([*codes, last]):
                answers.append(build.execute(C, "docs/f.md", previous, code, f"docs/f.md:{1 + 4 * n}"))
                previous = digests.chain(previous, code)
        finally:
            build.close()
    shown = [a.get("output") or (a["error"]["type"], tuple(a["error"]["where"])) for a in answers]
    assert shown == ["w 5\n", ("ValueError", ("docs/f.md", 7)), "r 6\n", ("ZeroDivisionError", ("docs/f.md", 14)),
                     "after 6\n", "w 5\n", ("ValueError", ("docs/f.md", 7)), "r 6\n",
                     ("ZeroDivisionError", ("docs/f.md", 14)), "after 7\n"]


@pytest.mark.engine
def test_a_block_that_stops_its_worker_is_not_run_again_for_the_blocks_after_it(tree):
    """The block after it runs in a new worker, after the earlier blocks but not that one (it
    would stop that worker too, and the later block would report its failure)."""
    first, stops, after = "q = 'kept'\n", "import os\nos._exit(3)\n", "print('q', q)\n"
    build = engine.Build(tree)
    try:
        assert build.execute(C, "docs/s.md", "", first, "docs/s.md:1") == {"output": ""}
        with pytest.raises(engine.LessonError, match="工作进程意外退出（退出码 3）"):
            build.execute(C, "docs/s.md", digests.chain("", first), stops, "docs/s.md:4")
        previous = digests.chain(digests.chain("", first), stops)
        assert build.execute(C, "docs/s.md", previous, after, "docs/s.md:8") == {"output": "q kept\n"}
    finally:
        build.close()


@pytest.mark.engine
def test_a_block_runs_as_a_module_of_markdown_exec_s_name_without_the_kit_s_future_imports(shared):
    code = "class Int:\n    pass\n\nclass Box:\n    value: Int\n\nprint(Box.__module__, Box.__annotations__['value'] is Int)\n"
    answer = shared.execute(C, "docs/m.md", "", code, "docs/m.md:3")
    assert answer["output"] == "_code_block_n1_ True\n"


PROBE = """# 试验

```python exec="1" result="text"
from dataclasses import dataclass

class Int:
    pass

@dataclass
class Box:
    value: Int

print("模块", Box.__module__, "注解是类", Box.__annotations__["value"] is Int, Box(Int()).value.__class__.__name__)
```

```python exec="1"
print("没有", globals().get("Box", "看不到前一块"))
```

```python exec="1" session="s"
v = "同一个会话"
```

```python exec="1" session="s"
print("会话", v)
```

```python exec="1" workdir="docs" width="57"
import os
import shutil

print("目录", os.path.basename(os.getcwd()), "宽度", shutil.get_terminal_size().columns == 57)
```
"""


@pytest.mark.engine
def test_a_page_of_no_lesson_runs_its_blocks_as_markdown_exec_does(root, monkeypatch):
    """Blocks without a session isolated, one session's blocks in one namespace, the module named
    as markdown-exec names it (a dataclass needs it in sys.modules), annotations evaluated (the
    worker's own `from __future__ import annotations` is not the page's), workdir and width."""
    from tests.test_extension import convert

    build = engine.Build(root)
    monkeypatch.setattr(engine, "current", engine.Current(build=build, root=root, collects=True))
    try:
        html = convert(root, "probe.md", PROBE, folder="docs")
    finally:
        build.close()
    assert engine.current.problems["docs/probe.md"] == []
    for said in ("模块 _code_block_n1_ 注解是类 True Int", "没有 看不到前一块", "会话 同一个会话", "目录 docs 宽度 True"):
        assert said in html, said


def test_page_blocks_are_kept_under_every_file_of_the_kit(root, monkeypatch):
    """The authoring page's blocks read the kit's example lesson (Markdown, not Python): editing it
    must not leave them kept under the same key."""
    import coursekit

    monkeypatch.setattr(coursekit, "KIT", root / "coursekit")  # the copy's kit
    before = engine.Build(root).blocks.tooling
    page = root / "coursekit/example/lesson.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n多了一句。\n", encoding="utf-8")
    assert engine.Build(root).blocks.tooling != before


@pytest.mark.engine
def test_a_lessons_comment_bindings_are_evaluated_by_its_run_so_its_page_starts_no_worker(root):
    """What comment_problems asks (the expressions its data file binds its comments and docstrings
    to) is evaluated while the lesson's own run still holds its worker. Asked at the page instead,
    each lesson page ran its lesson again in a worker of its own, one page after another (about
    0.6 s a lesson on a cold build, most of a 30-lesson build's serial time). An edit of the data
    file is seen as an edit of the lesson's own files is."""
    lesson(root, D, {"bound": '"""三个数。"""\nxs = [1, 2, 3]\n# 和是 6\nprint(sum(xs))\n'})
    data = root / f"lessons/{D}/comment_numbers.toml"
    data.write_text(f'["lessons/{D}/bound.py"]\n"三个" = "len(xs)"\n"和是 6" = "sum(xs)"\n', encoding="utf-8")

    def problems() -> list:
        build = engine.Build(root)
        try:
            build.prefetch([D])
            found = build.comment_problems(D)
            assert build.reruns == 0
            return found
        finally:
            build.close()

    assert problems() == []
    bound = root / f"lessons/{D}/bound.py"
    bound.write_text(bound.read_text(encoding="utf-8").replace("和是 6", "和是 7"), encoding="utf-8")
    [problem] = problems()
    assert problem.format().startswith(f"lessons/{D}/bound.py:3: 数字漂移：注释写 7，代码现算 6")
    bound.write_text(bound.read_text(encoding="utf-8").replace("和是 7", "和是 6"), encoding="utf-8")
    data.write_text(data.read_text(encoding="utf-8").replace('"sum(xs)"', '"sum(xs) + 1"'), encoding="utf-8")
    [problem] = problems()
    assert problem.format().startswith(f"lessons/{D}/bound.py:3: 数字漂移：注释写 6，代码现算 7")


@pytest.mark.engine
def test_the_pages_of_no_lesson_need_not_wait_for_the_lessons_runs(root, tmp_path):
    """The pages of no lesson (SITE) come first in the navigation; their run is empty and starts
    first, so those pages convert while every worker is busy with a lesson. Queued behind the
    lessons, as it was, it waited for all of them (15 s of a 30-lesson cold build here)."""
    go = tmp_path / "go"
    wait = f"import pathlib, time\nwhile not pathlib.Path({str(go)!r}).exists():\n    time.sleep(0.05)\nprint('ok')\n"
    waiting = [D, E, F]  # more than the pool has threads on a 2-core machine
    for lesson_id in waiting:
        lesson(root, lesson_id, {"wait": wait})
    build = engine.Build(root)
    try:
        build.prefetch()
        site = build._future(engine.SITE).result(timeout=30)  # the lessons are all still waiting
        assert site.error is None and not site.files
        assert not any(build._future(s).done() for s in waiting)
        go.write_text("", encoding="utf-8")
        assert all(build.run(s).files[0].output() == "ok\n" for s in waiting)
    finally:
        go.write_text("", encoding="utf-8")
        build.close()


def test_a_worker_its_process_never_closed_leaves_no_log(root, tmp_path):
    """A worker's log only explains its death: one closed, or one whose process exits without closing
    it (a script, a stopped serve), takes its log with it."""
    import os
    import subprocess
    import sys

    temp = tmp_path / "tmp"
    temp.mkdir()
    code = ("import glob, sys, tempfile; from pathlib import Path; from coursekit.core import engine; "
            "root = Path(sys.argv[1]); w = engine.Worker(root, engine.find_lessons(root)[sys.argv[2]]); "
            "print(len(glob.glob(tempfile.gettempdir() + '/coursekit-*.log')))")
    ran = subprocess.run([sys.executable, "-c", code, str(root), A], cwd=tmp_path,
                         env={**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
                         capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split()[-1] == "1"  # while it ran, its worker had a log
    assert list(temp.glob("coursekit-*.log")) == []


# ---- a run is kept by what it read; what nothing can key is refused at its line ----------------------


@pytest.mark.engine
def test_a_run_is_kept_by_the_environment_variables_it_read(root, monkeypatch):
    """A red-team finding: a run reading an environment variable kept its cached result after the
    variable changed (and the next cold build drifted). The worker reads the build's environment
    and the run is kept by the names and values its code read: by nothing it did not read."""
    lesson(root, D, {"env": "import os\nprint('mode', os.environ.get('COURSEKIT_TEST_MODE', 'none'), os.getenv('COURSEKIT_TEST_N'))\n"})
    monkeypatch.setenv("COURSEKIT_TEST_MODE", "a")
    monkeypatch.setenv("COURSEKIT_TEST_OTHER", "1")
    first = runs(root, [D, C])
    assert first[D].executed and first[D].files[0].output() == "mode a None\n"
    monkeypatch.setenv("COURSEKIT_TEST_OTHER", "2")  # read by nothing
    assert not any(r.executed for r in runs(root, [D, C]).values())
    monkeypatch.setenv("COURSEKIT_TEST_MODE", "b")
    again = runs(root, [D, C])
    assert again[D].executed and again[D].files[0].output() == "mode b None\n" and not again[C].executed
    monkeypatch.setenv("COURSEKIT_TEST_N", "3")  # unset before: its absence was read
    last = runs(root, [D])[D]
    assert last.files[0].output() == "mode b 3\n"
    record = (root / f".cache/coursekit/runs/lessons.{D}/{last.key}.json").read_text(encoding="utf-8")
    assert '"env:COURSEKIT_TEST_N": "' in record and '"3"' not in record  # values as digests


@pytest.mark.engine
def test_a_run_that_asked_for_the_date_runs_again_on_another_day(root, monkeypatch):
    lesson(root, D, {"day": "from datetime import date\nprint(date.today().year > 2000)\n"})
    assert runs(root, [D, C])[D].executed
    assert not any(r.executed for r in runs(root, [D, C]).values())
    monkeypatch.setattr(reads, "today", lambda: "2000-01-01")  # the build's day, as the cache checks it
    later = runs(root, [D, C])
    assert later[D].executed and later[D].error is None and not later[C].executed


@pytest.mark.engine
@pytest.mark.parametrize("load", [
    "import importlib.util\nspec = importlib.util.spec_from_file_location('scale', 'helpers/scale.py')\n"
    "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\n",
    "from helpers import scale as m\n",
])
def test_a_helper_however_imported_is_part_of_the_run(root, load):
    """A red-team finding: a module outside tinylm/ and lessons/, or one loaded through importlib
    (so not in sys.modules), was not part of the run's key: editing it changed nothing on a warm build."""
    (root / "helpers").mkdir()
    helper = root / "helpers/scale.py"
    helper.write_text("K = 2\n", encoding="utf-8")
    lesson(root, D, {"uses": load + "print('K', m.K)\n"})
    assert runs(root, [D])[D].files[0].output() == "K 2\n"
    assert not runs(root, [D])[D].executed
    helper.write_text("K = 3\n", encoding="utf-8")
    again = runs(root, [D])[D]
    assert again.executed and again.files[0].output() == "K 3\n"


@pytest.mark.engine
@pytest.mark.parametrize("code, message, line", [
    ("import time\nx = 1\nt = time.time()\n", "time.time() 读的是钟表时间", 3),
    ("from datetime import datetime\nnow = datetime.now()\n", "datetime.datetime.now() 读的是钟表时间", 2),
    ("import datetime\nd = datetime.datetime.today()\n", "datetime.datetime.today() 读的是钟表时间", 2),
    ("import time\nstamp = time.strftime('%Y')\n", "time.strftime() 读的是钟表时间", 2),
    ("import time\ntry:\n    time.time()\nexcept Exception:\n    pass\nprint('接着算')\n", "time.time()", 3),  # caught: refused all the same
    ("from tinylm.clock import stamp\nx = 1\ny = stamp()\n", "time.time() 读的是钟表时间", ("tinylm/clock.py", 4)),
    ("import socket\nsocket.getaddrinfo('example.org', 80)\n", "socket.getaddrinfo 连接了网络", 2),
    ("import random\nxs = list(range(10))\npick = random.sample(xs, 3)\n", "用了没有种子的随机数（Python 的 random）", 3),
    ("import torch\nw = torch.randn(3)\n", "先写 torch.manual_seed(0)", 2),
    ("import numpy\nv = numpy.random.rand(2)\n", "用了没有种子的随机数（numpy 的全局生成器）", 2),
    ("import torch\nfrom tinylm.extra import TWO\nlayer = torch.nn.Linear(TWO,\n                        TWO)\n", "torch 的默认生成器", 3),
    ("import random\nrandom.seed()\nx = random.random()\n", "Python 的 random", 2),  # no seed given: the system's
])
def test_a_read_nothing_can_key_is_refused_at_its_line(root, code, message, line):
    """A run depending on something the kit can't key (the wall clock, the network, a random draw
    with no seed set in this run) is refused at the line of the lesson's own code that read it,
    and nothing of it is kept: each cold build would print other numbers."""
    (root / "tinylm/clock.py").write_text("import time\n\ndef stamp():\n    return time.time()\n", encoding="utf-8")
    lesson(root, D, {"bad": code})
    run = runs(root, [D])[D]
    assert run.error is not None and message in str(run.error), run.error
    assert run.error.where == (line if isinstance(line, tuple) else (f"lessons/{D}/bad.py", line))
    assert not list((root / ".cache/coursekit/runs").glob(f"lessons.{D}/*.json"))


@pytest.mark.engine
def test_seeded_draws_the_calendar_and_the_clock_inside_libraries_are_allowed(root):
    """Only the lesson's own reads count (torch and the kit read the clock themselves), a clock read
    given its time reads no clock, and a generator seeded in this run (here by an earlier file, or
    inside a function) repeats."""
    lesson(root, D, {
        "seeds": "import random, torch\n\ndef fresh():\n    torch.manual_seed(0)\n\nrandom.seed(1)\nfresh()\n",
        "draws": "import random, time, torch, numpy\nfrom lessons.lD.seeds import fresh\nw = torch.randn(2)\n"
                 "pick = random.choice('abc')\nyear = time.gmtime(0).tm_year\nspent = time.perf_counter() >= 0\n"
                 "numpy.random.seed(2)\nv = numpy.random.rand()\nprint(year, spent, round(float(w.sum()), 4))\n".replace("lD", D),
    })
    first, second = runs(root, [D])[D], None
    assert first.error is None, first.error
    reset_cache = root / ".cache"
    shutil.rmtree(reset_cache)
    second = runs(root, [D])[D]
    assert second.executed and second.files[1].output() == first.files[1].output()


@pytest.mark.engine
def test_an_unseeded_draw_in_a_page_block_is_refused_at_the_block(shared):
    code = "import random\nprint(random.random())\n"
    answer = shared.execute(C, "docs/p.md", digests.chain("", code), code, "docs/p.md:7")
    assert answer["error"]["message"].startswith("用了没有种子的随机数（Python 的 random）")
    assert tuple(answer["error"]["where"]) == ("docs/p.md", 8)


@pytest.mark.engine
def test_under_the_flag_a_lesson_runs_twice_and_what_prints_otherwise_is_named(root, monkeypatch):
    """What no table names (a generator of its own without a seed) still can't pass as checked
    where CI builds: under engine.TWICE each lesson that runs runs twice, in fresh workers, and the
    first statement printing otherwise fails it at its line, with both lines; a run kept without the
    flag runs again under it, once."""
    lesson(root, D, {"own": "import random\nrng = random.Random()\nx = 1\nprint('抽到', rng.random())\n"})
    assert runs(root, [D, C])[D].error is None  # one run can't tell
    monkeypatch.setenv(engine.TWICE, "1")
    twice = runs(root, [D, C])
    error = twice[D].error
    assert error is not None and error.where == (f"lessons/{D}/own.py", 4), error
    assert str(error).startswith("同一份代码运行两次，这条语句打印的不一样：第一次「抽到 0.") and "第二次「抽到 0." in str(error)
    assert twice[C].executed and twice[C].error is None  # kept without the flag: run again, twice
    assert not runs(root, [C])[C].executed
    names = ", ".join(repr(f"词{n}") for n in range(20))  # a set's order follows the strings' hashes
    lesson(root, E, {"order": f"words = {{{names}}}\nprint('、'.join(words))\n"})
    ordered = runs(root, [E])[E]
    assert ordered.error is not None and ordered.error.where == (f"lessons/{E}/order.py", 2), ordered.error
