"""Each lesson's notebook: its experiment files as cells, with the outputs of the build's own run.

Nothing is executed for the notebook: the engine ran each file once (lessons.runner), and a cell
holds that file and what it printed. The first cell makes `tinylm` and `lessons` importable from
a checkout and keeps imported experiments quiet, so the downloaded notebook runs on its own, cell
by cell, exactly as `python -m lessons.lNN` does. The same run gives the same bytes: no
timestamps, stable cell ids.
"""

from __future__ import annotations

import ast
import hashlib
import re

import nbformat

from coursekit import KIT
from coursekit.core.engine import Run
from coursekit.core.guard import strip_annotations

SETUP = '''\
# 准备：从课程仓库（或它的子目录）启动 Jupyter，这一格让 tinylm 与 lessons 可以导入。
import pathlib
import sys

here = pathlib.Path.cwd()
root = next((p for p in [here, *here.parents] if (p / "tinylm").is_dir()), None)
if root is None:
    raise RuntimeError("找不到 tinylm/：请在课程仓库的目录里启动 Jupyter")
sys.path.insert(0, str(root))
from lessons import runner  # 也固定了打印格式，与页面一致

runner.quiet_imports()  # 从别的实验导入时，不再重复打印它们的输出'''


def cell_code(text: str) -> tuple[str, str]:
    """(docstring, code) of an experiment file as a cell shows it: the docstring goes to the
    markdown cell above, and the page's section markers are left out (they are comments)."""
    text = strip_annotations(text)  # a comment's bindings are the build's, not the reader's
    tree = ast.parse(text)
    doc = ast.get_docstring(tree) or ""
    doc = doc.split("：", 1)[-1] if re.match(r"\w+：", doc) else doc  # "attention_2d：…" names the file again
    lines = text.split("\n")
    if doc:  # the docstring leaves the cell; comments above it stay
        lines = lines[: tree.body[0].lineno - 1] + lines[tree.body[0].end_lineno :]
    return doc, "\n".join(line for line in lines if "--8<--" not in line).strip("\n")


def maker() -> str:
    """What a notebook is made with besides its run: this kit's code and nbformat's version."""
    h = hashlib.sha256(nbformat.__version__.encode())
    for path in sorted(KIT.rglob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


def build(run: Run, root) -> nbformat.NotebookNode:
    lesson = run.lesson
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    add = nb.cells.append
    add(nbformat.v4.new_markdown_cell(
        f"# {lesson.title}：笔记本\n\n"
        f"本讲的配套代码，与 `python -m {lesson.package}` 运行的是同一批文件；输出来自构建网站时的同一次运行。"))
    add(nbformat.v4.new_code_cell(SETUP, execution_count=1))
    for count, result in enumerate(run.files, start=2):
        doc, code = cell_code((root / result.path).read_text(encoding="utf-8"))
        add(nbformat.v4.new_markdown_cell(f"## {result.title}\n\n`{result.path}`：{doc}"))
        outputs = [nbformat.v4.new_output("stream", name="stdout", text=result.output())] if result.output() else []
        add(nbformat.v4.new_code_cell(code, execution_count=count, outputs=outputs,
                                      metadata={"source_file": result.path}))
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    return nb
