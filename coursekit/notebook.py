"""Each lesson's notebook, made from the same experiment files that `python -m lessons.lNN` runs.

A lesson package `lessons/lNN` lists its experiments in `EXPERIMENTS`. The notebook has one
markdown cell (the experiment's title and docstring) and one code cell (the file's code) per
experiment, in that order, after a setup cell. Code cells share one namespace, as the lesson
page's blocks do, so a file's own `from lessons... import` lines (needed when it runs alone) are
left out, and so are snippet markers. Execution is cached, keyed by the notebook and by every
source file of tinylm and lessons, so an unchanged notebook is never run twice.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import re
import tempfile
from importlib import metadata
from pathlib import Path

import nbformat

SETUP = '''\
# 准备：从仓库根目录（或它的子目录）启动 Jupyter，这一格让 tinylm 与 lessons 可以导入。
import pathlib
import sys

here = pathlib.Path.cwd()
root = next((p for p in [here, *here.parents] if (p / "tinylm").is_dir()), None)
if root is None:
    raise RuntimeError("找不到 tinylm/：请在课程仓库的目录里启动 Jupyter")
sys.path.insert(0, str(root))
import lessons  # 固定打印格式，与页面一致'''


class NotebookError(Exception):
    """A cell of a lesson notebook raised; the message names the notebook, the cell and the file."""


def lesson_packages(root: Path) -> dict[str, str]:
    """{'10': 'lessons.l10', …} for every lesson package that lists EXPERIMENTS."""
    found = {}
    for init in sorted((root / "lessons").glob("l[0-9]*/__init__.py")):
        if "EXPERIMENTS" in init.read_text(encoding="utf-8"):
            found[init.parent.name[1:]] = f"lessons.{init.parent.name}"
    return found


def _cell_code(path: Path) -> tuple[str, str]:
    """(docstring, code) of an experiment file, as a notebook cell shows it."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    doc = ast.get_docstring(tree) or ""
    lines = source.split("\n")
    if doc:
        lines = lines[tree.body[0].end_lineno :]
    keep = [
        line for line in lines
        if "--8<--" not in line and not re.match(r"\s*from lessons[.\w]* import ", line)
    ]
    return doc, "\n".join(keep).strip("\n")


def build(root: Path, package: str) -> nbformat.NotebookNode:
    """The notebook of one lesson package, not yet executed."""
    module = importlib.import_module(package)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    title = (module.__doc__ or package).strip().split("\n")[0]
    add = nb.cells.append
    add(nbformat.v4.new_markdown_cell(
        f"# {title}：笔记本\n\n本讲的配套代码，与 `python -m {package}` 运行的是同一批文件。"))
    add(nbformat.v4.new_code_cell(SETUP))
    for name, heading in module.EXPERIMENTS:
        file = f"{package.replace('.', '/')}/{name}.py"
        doc, code = _cell_code(root / file)
        add(nbformat.v4.new_markdown_cell(f"## {heading}\n\n`{file}`：{doc}"))
        add(nbformat.v4.new_code_cell(code, metadata={"source_file": file}))
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"  # stable ids: the same sources give the same notebook, byte for byte
    return nb


def _key(nb: nbformat.NotebookNode, root: Path) -> str:
    """The notebook as shown, torch's version, and what every tinylm/lessons file *does*.

    The cells show the lesson files in full, so those count to the letter (through `nb`); for the
    imported code only its syntax tree counts, so editing a comment in tinylm reruns nothing.
    """
    h = hashlib.sha256(json.dumps(nb, sort_keys=True).encode())
    h.update(metadata.version("torch").encode())
    for path in sorted([*root.glob("tinylm/**/*.py"), *root.glob("lessons/**/*.py")]):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(_behaviour(path).encode())
    return h.hexdigest()[:20]


def _behaviour(path: Path) -> str:
    """The file's syntax tree without docstrings: equal for two files that differ only in words."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(
            getattr(body[0], "value", None), ast.Constant
        ) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def executed(nb: nbformat.NotebookNode, root: Path, cache: Path, label: str) -> tuple[nbformat.NotebookNode, bool]:
    """The notebook with outputs, from the cache when nothing it depends on changed; (nb, cache hit)."""
    path = cache / f"{_key(nb, root)}.ipynb"
    if path.exists():
        return nbformat.read(path, as_version=4), True
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.from_dict(json.loads(json.dumps(nb)))  # run a copy: the key stays the source's
    sockets = tempfile.TemporaryDirectory()
    kernel = KernelManager(kernel_name="python3", transport="ipc", ip=f"{sockets.name}/kernel")  # no TCP port
    client = NotebookClient(nb, km=kernel, timeout=120, resources={"metadata": {"path": str(root)}})
    try:
        client.execute()
    except CellExecutionError as err:
        cell = next((c for c in nb.cells if c.get("outputs") and any(o.get("output_type") == "error" for o in c.outputs)), None)
        where = cell.metadata.get("source_file", "准备格") if cell else "?"
        raise NotebookError(f"{label}：笔记本执行出错（{where}）：{err.ename}: {err.evalue}") from None
    finally:
        if kernel.has_kernel:  # a kernel handed to nbclient is not shut down by it
            kernel.shutdown_kernel(now=True)
        sockets.cleanup()
    cache.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return nb, False

