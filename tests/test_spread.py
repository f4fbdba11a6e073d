"""Lessons' runs spread over machines (coursekit/core/spread.py, `python -m coursekit`): the plan CI's
matrix is made of, lessons run into folders of their own in separate trees, and those folders merged
into another tree's cache, which then runs nothing; a record that does not verify is refused.

Fast: the jobs a plan makes of what lessons ask (a runner label, attached or not), a bad label, and
the merge of sealed records (store records, no lesson runs). Engine: the commands on small fixture
trees (tests/test_engine.py's), their plan after an edit, and a forged record in a merged folder
that the build does not use. Build: the course's lessons run in two copies of the repository,
merged into a third, which builds with no lesson run and writes a cold build's bytes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from coursekit.core import CourseError, engine, spread, store
from scripts.drive import copy_repo, course_lessons, mkdocs_build
from tests.conftest import ROOT
from tests.scratch_lesson import free_numbers
from tests.test_warm import EPOCH, differences

LESSONS = course_lessons(ROOT)


def command(tree: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coursekit", *args], cwd=tree, capture_output=True,
                          text=True, timeout=600, env={**os.environ, **(env or {})})


# ---- fast: the plan's jobs, a runner's label ---------------------------------------------------------
def test_a_few_plain_lessons_are_left_to_the_site_job_and_more_or_one_asking_for_a_runner_are_not():
    plain = [spread.Job(f"l{n}", spread.RUNS_ON, spread.TIMEOUT, 1.0) for n in (1, 2, 3)]
    on_gpu = spread.Job("l4", ("self-hosted", "gpu"), spread.TIMEOUT, 1.0, "cu126")
    slowed = spread.Job("l5", spread.RUNS_ON, spread.TIMEOUT * spread.SLOWER, float(spread.SLOWER), note="…")
    assert spread.matrix(plain, 3) == [] and spread.matrix([], 3) == []
    assert spread.matrix(plain, 2) == plain and spread.matrix(plain, 0) == plain
    assert spread.matrix(plain[:1] + [on_gpu], 3) == plain[:1] + [on_gpu]
    assert spread.matrix([slowed], 3) == [slowed]  # a GPU lesson on CPU needs its longer limits


def a_lesson(tmp_path: Path, runner_line: str) -> Path:
    """A tree holding one lesson package (never run) whose __init__.py has `runner_line` as line 3."""
    number = free_numbers(ROOT, 1)[0]
    package = tmp_path / f"lessons/l{number}"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f'"""第 {number} 讲 · 测试"""\nEXPERIMENTS = [("a", "a")]\n{runner_line}\n',
                                         encoding="utf-8")
    return tmp_path


def test_a_lesson_asking_for_an_attached_runner_gets_it_and_otherwise_cpu_with_longer_limits(tmp_path):
    tree = a_lesson(tmp_path, 'RUNNER = "gpu"')
    (lesson,) = engine.find_lessons(tree).values()
    assert lesson.runner == "gpu"
    on_gpu = spread._job(lesson, {"gpu", "big"})
    assert on_gpu.runs_on == ("self-hosted", "gpu") and on_gpu.time_scale == 1 and not on_gpu.note
    assert on_gpu.torch == spread.TORCH["gpu"] != spread.TORCH[""]
    on_cpu = spread._job(lesson, set())
    assert on_cpu.runs_on == spread.RUNS_ON and on_cpu.time_scale == spread.SLOWER > 1 and on_cpu.torch == "cpu"
    assert spread.TIMEOUT < on_cpu.timeout <= spread.MAX_TIMEOUT
    assert "gpu" in on_cpu.note and "COURSEKIT_RUNNERS" in on_cpu.note and f"{lesson.folder}/__init__.py" in on_cpu.note
    assert json.loads(json.dumps(on_cpu.matrix()))["runs_on"] == list(spread.RUNS_ON)
    assert spread._job(replace(lesson, runner=""), {"gpu"}).runs_on == spread.RUNS_ON


def test_a_run_is_keyed_by_torch_s_version_without_its_build_tag():
    """A GPU runner's CUDA build of torch (2.13.0+cu126) makes records the CPU build's site (2.13.0+cpu) uses."""
    from importlib import metadata

    assert engine.versions()["torch"] == metadata.version("torch").split("+")[0]
    assert "+" not in "".join(engine.versions().values())


def test_a_scaled_build_gives_each_lesson_longer_time_limits(tmp_path):
    tree = a_lesson(tmp_path, "TIME_LIMIT = 7")
    build = engine.Build(tree, time_scale=10)
    try:
        assert [lesson.time_limit for lesson in build.lessons.values()] == [70]
    finally:
        build.close()


@pytest.mark.parametrize("value", ["5", '"gpu; rm -rf /"', '"-gpu"', '["gpu"]'])
def test_a_runner_label_that_is_not_one_fails_at_its_line(tmp_path, value):
    tree = a_lesson(tmp_path, f"RUNNER = {value}")
    with pytest.raises(CourseError, match=r"lessons/l\d+/__init__\.py:3: RUNNER "):
        engine.find_lessons(tree)


# ---- fast: merging sealed records ----------------------------------------------------------------------
def folder_of_runs(folder: Path) -> dict[str, dict]:
    """A folder as run-lessons writes it: two lessons' runs, an evaluation and a block, sealed under
    its own key."""
    records = {"runs/lessons.l1/k1.json": {"key": "k1", "files": ["one"]},
               "runs/lessons.l2/k2.json": {"key": "k2", "files": ["two"]},
               "evals/k1.json": {"x": {"numbers": [1]}},
               "blocks/k1-kit/chain.json": {"answer": {"output": "1"}, "deps": {}}}
    kept = store.Store(folder)
    for rel, data in records.items():
        kept.write(folder / rel, data)
    return records


def test_merged_records_verify_under_the_cache_s_own_key(tmp_path):
    a, b, cache = tmp_path / "a", tmp_path / "b", tmp_path / "cache"
    records = folder_of_runs(a)
    store.Store(b).write(b / "runs/lessons.l3/k3.json", {"key": "k3"})
    merged = spread.merge([a, b], cache)
    assert merged.refused == [] and merged.kept == len(records) + 1
    assert (cache / "seal.key").read_bytes() != (a / "seal.key").read_bytes()
    mine = store.Store(cache)
    for rel, data in {**records, "runs/lessons.l3/k3.json": {"key": "k3"}}.items():
        assert mine.read(cache / rel) == data, rel
    assert [p.name for p in mine.runs("lessons.l1")] == ["k1.json"]


def test_a_record_forged_or_copied_from_another_lesson_or_folder_is_refused_and_named(tmp_path):
    a, b, cache = tmp_path / "a", tmp_path / "b", tmp_path / "cache"
    folder_of_runs(a)
    folder_of_runs(b)
    forged = a / "runs/lessons.l1/k1.json"
    seal, body = forged.read_text(encoding="utf-8").split("\n", 1)
    forged.write_text(seal + "\n" + body.replace('"one"', '"forged"'), encoding="utf-8")
    shutil.copy(a / "runs/lessons.l2/k2.json", a / "runs/lessons.l1/k2.json")  # another lesson's record
    shutil.copy(a / "evals/k1.json", b / "evals/k2.json")  # another folder's
    (b / "converted").mkdir()
    (b / "converted/page.json").write_text("{}", encoding="utf-8")  # not a run's
    merged = spread.merge([a, b], cache)
    refused = sorted(line.split(":")[0] for line in merged.refused)
    assert refused == sorted(str(p) for p in (forged, a / "runs/lessons.l1/k2.json", b / "evals/k2.json",
                                              b / "converted/page.json"))
    assert all("不收" in line for line in merged.refused)
    mine = store.Store(cache)
    assert mine.read(cache / "runs/lessons.l1/k1.json") == {"key": "k1", "files": ["one"]}  # b's, the true one
    assert not (cache / "runs/lessons.l1/k2.json").exists() and not (cache / "converted").exists()
    assert mine.read(cache / "evals/k2.json") == {}


def test_merging_a_folder_with_no_key_or_running_into_a_full_folder_says_so(tmp_path):
    (tmp_path / "stray").mkdir()
    with pytest.raises(spread.SpreadError, match=r"stray: 没有 seal\.key"):
        spread.merge([tmp_path / "stray"], tmp_path / "cache")
    (tmp_path / "full").mkdir()
    (tmp_path / "full/x").write_text("", encoding="utf-8")
    with pytest.raises(spread.SpreadError, match="full: 不是空文件夹"):
        spread.run(ROOT, ["any"], tmp_path / "full", planner=None)  # before it looks at the lesson


def test_a_lesson_no_tree_has_is_named_with_those_it_has(tmp_path):
    number = free_numbers(ROOT, 1)[0]
    with pytest.raises(spread.SpreadError, match=rf"没有第 {number} 讲.*现有 l"):
        spread.run(ROOT, [str(number)], tmp_path / "new", planner=None)


# ---- engine: the commands on small trees ---------------------------------------------------------------
@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """Three copies of tests/test_engine.py's small tree (lessons A, B importing A, C) at three paths."""
    from tests.test_engine import small_tree

    base = tmp_path_factory.mktemp("spread")
    made = small_tree(base / "made")
    return [Path(shutil.copytree(made, base / name)) for name in ("one", "two", "three")]


def lesson_ids(tree: Path) -> list[str]:
    return sorted(engine.find_lessons(tree))


def plan(tree: Path, env: dict | None = None) -> list[str]:
    result = command(tree, "plan", env=env)
    assert result.returncode == 0, result.stderr
    return [job["lesson"] for job in json.loads(result.stdout)["include"]]


@pytest.mark.engine
def test_lessons_run_in_two_trees_and_merged_into_a_third_run_nothing_there(trees, tmp_path):
    one, two, three = trees
    a, b, c = lesson_ids(one)
    assert plan(three) == [a, b, c]  # no cache: every lesson
    first = command(one, "run-lessons", "--into", str(tmp_path / "one"), a, b)
    second = command(two, "run-lessons", "--into", str(tmp_path / "two"), c[1:])  # a number will do
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    merged = command(three, "merge-runs", str(tmp_path / "one"), str(tmp_path / "two"))
    assert merged.returncode == 0 and "拒收 0 条" in merged.stderr, merged.stderr
    assert plan(three) == []
    build = engine.Build(three)
    try:
        build.prefetch()
        assert [build.run(s).executed for s in (a, b, c)] == [False] * 3
        assert [f.output() for f in build.run(b).files] == ["z = 70\n"]
    finally:
        build.close()
    (three / f"lessons/{c}/alone.py").write_text("w = 6\nprint('w =', w)\n", encoding="utf-8")
    assert plan(three) == [c]  # one lesson's code: that lesson
    assert json.loads(command(three, "plan", "--site-takes", "1").stdout) == {"include": []}  # left to the site job
    (three / "tinylm/extra.py").write_text("TWO = 3\n", encoding="utf-8")
    assert plan(three) == [a, b, c]  # what A and B import, and C as before


@pytest.mark.engine
def test_a_plan_asking_for_repeated_runs_lists_the_lessons_whose_runs_were_not(trees, tmp_path):
    """CI's plan and lesson jobs run under engine.TWICE: main's cache then serves the tests' built site."""
    _, two, _ = trees
    a, _, c = lesson_ids(two)
    twice = {engine.TWICE: "1"}
    assert command(two, "run-lessons", "--into", str(tmp_path / "once"), c).returncode == 0
    assert c not in plan(two) and c in plan(two, twice)
    made = command(two, "run-lessons", "--into", str(tmp_path / "twice"), a, c, env=twice)
    assert made.returncode == 0, made.stderr
    assert command(two, "merge-runs", str(tmp_path / "twice"), "--into", str(tmp_path / "cache")).returncode == 0
    result = command(two, "plan", "--cache", str(tmp_path / "cache"), env=twice)
    assert [job["lesson"] for job in json.loads(result.stdout)["include"]] == [s for s in lesson_ids(two) if s not in (a, c)]


@pytest.mark.engine
def test_a_forged_record_in_a_merged_folder_is_not_used_the_build_runs_the_lesson(trees, tmp_path):
    one, two, _ = trees
    a, b, _ = lesson_ids(one)
    cache = tmp_path / "cache"
    assert command(one, "run-lessons", "--into", str(tmp_path / "runs"), a, b).returncode == 0
    (record,) = (tmp_path / "runs/runs").glob(f"lessons.{b}/*.json")
    seal, body = record.read_text(encoding="utf-8").split("\n", 1)
    record.write_text(seal + "\n" + body.replace("z = 70", "z = 71"), encoding="utf-8")
    merged = command(two, "merge-runs", str(tmp_path / "runs"), "--into", str(cache))
    assert merged.returncode == 0 and f"{record}: 封印不符" in merged.stderr and "拒收 1 条" in merged.stderr
    build = engine.Build(two, cache)
    try:
        build.prefetch([a, b])
        assert build.has_run(a) and not build.run(a).executed
        assert build.run(b).executed and build.run(b).files[0].output() == "z = 70\n"  # its own run, not the forgery
    finally:
        build.close()


@pytest.mark.engine
def test_a_failing_lesson_fails_run_lessons_at_its_line_and_writes_nothing_of_it(trees, tmp_path):
    one, _, _ = trees
    _, _, c = lesson_ids(one)
    path = one / f"lessons/{c}/alone.py"
    kept = path.read_text(encoding="utf-8")
    try:
        path.write_text("w = 5\nassert w == 4, 'w 应是 4'\n", encoding="utf-8")
        result = command(one, "run-lessons", "--into", str(tmp_path / "runs"), c)
    finally:
        path.write_text(kept, encoding="utf-8")
    assert result.returncode == 1
    assert re.search(rf"lessons/{c}/alone\.py:2: 核对失败：w 应是 4", result.stderr), result.stderr
    assert not list((tmp_path / "runs").glob("runs/*/*.json"))


# ---- build: the course ---------------------------------------------------------------------------------


def workers(log: str) -> str:
    found = re.search(r"代码执行：(.*)", log)
    assert found, log[-2000:]
    return found.group(1)


@pytest.mark.build
@pytest.mark.skipif(len(LESSONS) < 2, reason="two lessons to spread over two copies")
def test_the_course_s_lessons_run_in_two_copies_merged_into_a_third_build_as_a_cold_build(tmp_path):
    """Every other lesson in each of two copies (two lessons: one each), merged into a third copy of
    the same tree: its build runs no lesson, starts no more workers than a cold build (the pages of
    no lesson start theirs) and writes the same bytes."""
    one, two, three = (copy_repo(tmp_path / name) for name in ("one", "two", "three"))
    halves = [[lesson.number for lesson in LESSONS[::2]], [lesson.number for lesson in LESSONS[1::2]]]
    for tree, half, into in zip((one, two), halves, ("runs-one", "runs-two")):
        result = command(tree, "run-lessons", "--into", str(tmp_path / into), *half)
        assert result.returncode == 0, result.stderr[-3000:]
    merged = command(three, "merge-runs", str(tmp_path / "runs-one"), str(tmp_path / "runs-two"))
    assert merged.returncode == 0 and "拒收 0 条" in merged.stderr, merged.stderr
    assert json.loads(command(three, "plan").stdout) == {"include": []}
    built = mkdocs_build(three, tmp_path / "merged", **EPOCH)
    assert built.returncode == 0, built.stderr[-3000:]
    cold = mkdocs_build(copy_repo(tmp_path / "cold"), tmp_path / "cold-site", **EPOCH)
    assert cold.returncode == 0, cold.stderr[-3000:]
    assert workers(built.stderr).startswith("没有一讲重新运行")
    assert "重新运行第" in workers(cold.stderr)
    started = lambda log: re.search(r"页面另起 (\d+) 个工作进程", workers(log)).group(1)  # noqa: E731
    assert started(built.stderr) == started(cold.stderr)
    assert differences(tmp_path / "merged", tmp_path / "cold-site") == []
