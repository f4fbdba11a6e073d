"""The companion code: `python -m lessons.l10` prints what the page prints and fails loudly."""

import os
import re
import shutil
import subprocess
import sys

from bs4 import BeautifulSoup

from tests.conftest import ROOT


def run_lesson(cwd):
    script = (ROOT / "snippets/run-l10.sh").read_text(encoding="utf-8")
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}:{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_the_command_shown_on_the_page_runs_every_check_and_exits_zero():
    result = run_lesson(ROOT)
    assert result.returncode == 0, result.stderr
    assert "全部核对通过" in result.stdout


def test_every_output_printed_on_the_page_is_printed_by_the_command(lesson_html):
    stdout = run_lesson(ROOT).stdout
    soup = BeautifulSoup(lesson_html, "html.parser")
    outputs = [c.get_text() for c in soup.select("div.language-output pre code")]
    shown = (ROOT / "docs/lessons/10-attention.md").read_text(encoding="utf-8").count('result="output"')
    assert len(outputs) == shown, outputs  # every listing that shows its output, the answers included
    for block in outputs:
        assert block.strip() in stdout, block


def test_a_failing_check_makes_the_command_exit_non_zero(tmp_path):
    shutil.copytree(ROOT / "lessons", tmp_path / "lessons")
    shutil.copytree(ROOT / "tinylm", tmp_path / "tinylm")
    path = tmp_path / "lessons/l10/projections.py"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"\[\[0\., 2\.\], \[0\., 0\.\]\]", "[[0., 3.], [0., 0.]]", text), encoding="utf-8")
    result = run_lesson(tmp_path)
    assert result.returncode == 1
    assert "核对失败：lessons/l10/projections.py" in result.stderr
