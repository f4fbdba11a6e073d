"""Each lesson's companion code: `python -m lessons.lNN` prints what the page prints and fails loudly."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys

import pytest
import torch
from bs4 import BeautifulSoup

from coursekit.core import scan
from tests.conftest import LESSONS, ROOT, Lesson, kit_lesson_params, lesson_params


def test_the_course_has_lessons_each_with_a_page_and_a_package():
    assert LESSONS, "no lesson found: docs/lessons/NN-slug.md with lessons/lNN listing EXPERIMENTS"
    pages = sorted(p.name.split("-", 1)[0] for p in (ROOT / "docs/lessons").glob("[0-9]*-*.md"))
    packages = sorted(p.parent.name[1:] for p in (ROOT / "lessons").glob("l[0-9]*/__init__.py"))
    assert [lesson.number for lesson in LESSONS] == pages == packages


def command_of(lesson: Lesson) -> str:
    """The command the page gives the reader for running the lesson: a shell snippet it includes
    (`--8<-- "snippets/….sh"`), or `python -m lessons.lNN` written in the text."""
    markdown = lesson.markdown()
    for name in re.findall(r'--8<--\s*"(snippets/[^"]+\.sh)"', markdown):
        script = (ROOT / name).read_text(encoding="utf-8")
        if re.search(rf"^python -m {re.escape(lesson.package)}$", script, re.M):
            return script
    assert f"`python -m {lesson.package}`" in markdown, "the page never says how to run the lesson's code"
    return f"python -m {lesson.package}"


def run_lesson(lesson: Lesson, cwd=ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", command_of(lesson)], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


@functools.cache
def command_run(lesson: Lesson) -> subprocess.CompletedProcess:
    """The page's command run in the repository, once per test process."""
    return run_lesson(lesson)


def stdout_of(lesson: Lesson) -> str:
    """What the page's command prints in the repository."""
    result = command_run(lesson)
    assert result.returncode == 0, result.stderr
    return result.stdout


def printed_with_threads(lesson: Lesson, threads: int) -> str:
    code = "import sys, torch; torch.set_num_threads(int(sys.argv[1])); from coursekit.core.runner import main; main(sys.argv[2])"
    out = subprocess.run([sys.executable, "-c", code, str(threads), lesson.package], cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout


def printed_by_experiment(lesson: Lesson) -> dict[str, str]:
    """{experiment file: what it printed} from the command's output (the runner heads each file)."""
    stdout = stdout_of(lesson).rstrip()
    assert stdout.endswith("全部核对通过。")
    parts = re.split(r"^== (lessons/\S+\.py)：.* ==$", stdout.removesuffix("全部核对通过。"), flags=re.M)
    return {parts[i]: parts[i + 1].strip("\n") for i in range(1, len(parts) - 1, 2)}


@pytest.mark.engine
@pytest.mark.parametrize("lesson", lesson_params())
def test_the_command_shown_on_the_page_runs_every_experiment_in_order_and_exits_zero(lesson):
    result = command_run(lesson)
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith("全部核对通过。")
    headed = re.findall(r"^== (lessons/\S+)\.py：(.*) ==$", result.stdout, re.M)
    assert headed == [(f"{lesson.folder}/{name}", title) for name, title in lesson.experiments]


def output_fences(lesson: Lesson) -> list[scan.Fence]:
    """The page's executed blocks that show what they printed, in page order."""
    return [f for f in scan.fences(lesson.markdown()) if 'exec="1"' in f.info and 'result="output"' in f.info]


@pytest.mark.build
@pytest.mark.parametrize("lesson", lesson_params())
def test_every_output_a_listing_shows_on_the_page_is_printed_by_the_command(lesson, built_site):
    soup = BeautifulSoup(lesson.html(built_site), "html.parser")
    outputs = [c.get_text() for c in soup.select("article div.language-output pre code")]
    fences = output_fences(lesson)
    assert len(outputs) == len(fences), outputs  # every block that shows its output, the answers included
    stdout = stdout_of(lesson)
    from_files = [(f, out) for f, out in zip(fences, outputs) if re.search(r'\bfile="', f.info)]
    assert from_files, "no listing from the lesson's files shows its output"
    for fence, block in from_files:
        assert block.strip() in stdout, (fence.info, block)


@pytest.mark.engine
@pytest.mark.parametrize("lesson", lesson_params())
def test_each_lesson_prints_the_same_with_one_thread_as_with_more(lesson):
    """A reader's machine may use more cores than the build's workers (one thread each): the
    lesson's command prints the same, to the last digit shown. The command runs with torch's
    default threads, this process's (no test sets them); two where that default is one."""
    more = stdout_of(lesson) if torch.get_num_threads() > 1 else printed_with_threads(lesson, 2)
    one = printed_with_threads(lesson, 1)
    assert "全部核对通过" in one
    assert one == more


@pytest.mark.engine
@pytest.mark.parametrize("lesson", kit_lesson_params())  # the kit's runner, the same for every lesson
def test_a_failing_check_makes_the_command_exit_non_zero_naming_file_and_line(lesson, tmp_path):
    shutil.copytree(ROOT / "lessons", tmp_path / "lessons", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "tinylm", tmp_path / "tinylm", ignore=shutil.ignore_patterns("__pycache__"))
    first = f"{lesson.folder}/{lesson.experiments[0][0]}.py"
    path = tmp_path / first
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n"
    path.write_text(text + 'assert 1 + 1 == 3, "故意不成立的核对"\n', encoding="utf-8")
    result = run_lesson(lesson, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"核对失败：{first}:{text.count(chr(10)) + 1}" in result.stderr, result.stderr
    assert "全部核对通过" not in result.stdout
