"""Each lesson's notebook: its experiment files as cells, with the outputs of the build's own run.

Nothing is executed for the notebook: the engine ran each file once (coursekit.core.runner), and a cell
holds that file and what it printed. The first cell makes `tinylm` and `lessons` importable from
a checkout and keeps imported experiments quiet, so the downloaded notebook runs on its own, cell
by cell, exactly as `python -m lessons.lNN` does. The same run gives the same bytes: no
timestamps, stable cell ids.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
from html import escape
from pathlib import Path

import nbformat

from coursekit import KIT
from coursekit.core import pagetext, stamps, syntax
from coursekit.core.engine import Run

SETUP = '''\
# 准备：从课程仓库（或它的子目录）启动 Jupyter，这一格让 tinylm 与 lessons 可以导入。
import pathlib
import sys

here = pathlib.Path.cwd()
root = next((p for p in [here, *here.parents] if (p / "tinylm").is_dir()), None)
if root is None:
    raise RuntimeError("找不到 tinylm/：请在课程仓库的目录里启动 Jupyter")
sys.path.insert(0, str(root))
from coursekit.core import runner  # 各讲共用的运行方式，与命令行、页面相同

runner.quiet_imports()  # 从别的实验导入时，不再重复打印它们的输出'''


def cell_code(text: str) -> tuple[str, str]:
    """(docstring, code) of an experiment file as a cell shows it: the docstring goes to the
    markdown cell above, and the page's section markers are left out (they are comments)."""
    tree = syntax.parse(text)
    doc = ast.get_docstring(tree) or ""
    doc = doc.split("：", 1)[-1] if re.match(r"\w+：", doc) else doc  # "attention_2d：…" names the file again
    lines = text.split("\n")
    if doc:  # the docstring leaves the cell; comments above it stay
        lines = lines[: tree.body[0].lineno - 1] + lines[tree.body[0].end_lineno :]
    return doc, "\n".join(line for line in lines if "--8<--" not in line).strip("\n")


def maker() -> str:
    """What a notebook is made with besides its run: this kit's code and nbformat's version (each
    file read again only when its stamp says it may have changed)."""
    h = hashlib.sha256(nbformat.__version__.encode())
    for path in sorted(KIT.rglob("*.py")):
        h.update(f"{path.relative_to(KIT).as_posix()} {stamps.digest(path)}\n".encode())
    return h.hexdigest()[:32]


def build_notebook(run: Run, root) -> nbformat.NotebookNode:
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
        doc, code = cell_code(pagetext.read(root / result.path))
        add(nbformat.v4.new_markdown_cell(f"## {result.title}\n\n`{result.path}`：{doc}"))
        outputs = [nbformat.v4.new_output("stream", name="stdout", text=result.output())] if result.output() else []
        add(nbformat.v4.new_code_cell(code, execution_count=count, outputs=outputs,
                                      metadata={"source_file": result.path}))
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    return nb


# ---- the notebook as a page of the site (a builder renders this Markdown with the site's extensions)
_LINT = re.compile(r"[ \t]*#[ \t]*(?:noqa|type:[ \t]*ignore|pragma:[ \t]*no cover|pylint:|fmt:)\b.*$", re.M)
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_H1 = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.M)
_SUFFIX = re.compile(r"[：:\s]*笔记本$")


def _fence(text: str, lang: str, title: str = "") -> str:
    """A fenced block that no run of backticks inside `text` can close."""
    ticks = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", text)), default=0))
    head = f'{ticks}{lang}' + (f' title="{title}"' if title else "")
    return f"{head}\n{text.rstrip()}\n{ticks}"


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value or "")


def _output(out: dict) -> str:
    """One output of a code cell as Markdown (raw HTML for rich outputs)."""
    kind = out.get("output_type")
    if kind == "stream":
        return _fence(_ANSI.sub("", _text(out.get("text"))), "output")
    if kind == "error":
        return _fence(_ANSI.sub("", "\n".join(out.get("traceback") or [f"{out.get('ename')}: {out.get('evalue')}"])), "output")
    data = out.get("data") or {}
    for mime in ("image/svg+xml", "image/png", "image/jpeg"):
        if mime in data:
            body = _text(data[mime])
            src = f"data:{mime};base64,{body.strip()}" if mime != "image/svg+xml" else None
            img = f'<img alt="运行输出的图" src="{src}">' if src else body
            return f'<div class="tl-nb-figure">{img}</div>'
    if "text/html" in data:
        return f'<div class="tl-nb-html">{_text(data["text/html"])}</div>'
    if "text/plain" in data:
        return _fence(_ANSI.sub("", _text(data["text/plain"])), "output")
    return ""


def to_markdown(nb: dict, number: str, download: str = "") -> tuple[str, str]:
    """(Markdown of the notebook, the lesson's title): no prompts, no lint comments, one H1.

    `download` names the .ipynb beside the page; a download button follows the title.
    """
    button = (f'<p class="tl-download"><a class="md-button" href="{escape(download)}" download>'
              f"下载笔记本（{escape(download)}）</a></p>") if download else ""
    parts, lesson = [], ""
    for cell in nb.get("cells", []):
        source = _text(cell.get("source"))
        if cell.get("cell_type") == "markdown":
            if not lesson and (h1 := _H1.search(source)):
                # "# 第 10 讲 · 注意力：…？：笔记本" reads badly; the page says 第 10 讲 · 笔记本 and names the lesson below it
                lesson = re.sub(rf"^第\s*0*{number}\s*讲\s*[·・]\s*", "", _SUFFIX.sub("", h1.group(1).strip()))
                kicker = f'<p class="tl-kicker">{escape(lesson)}</p>' if lesson else ""
                source = source[: h1.start()] + f"# 第 {number} 讲 · 笔记本\n\n{kicker}\n\n{button}\n" + source[h1.end():]
                button = ""
            parts.append(source)
        elif cell.get("cell_type") == "code":
            code = _LINT.sub("", source)
            title = (cell.get("metadata") or {}).get("source_file", "")
            parts.append(_fence(code, "python", title))
            parts.extend(filter(None, (_output(o) for o in cell.get("outputs", []))))
    return "\n\n".join([button, *parts]).lstrip() + "\n", lesson


def title_of(number: str) -> str:
    """The notebook page's title: 第 10 讲 · 笔记本."""
    return f"第 {number} 讲 · 笔记本" if number else "笔记本"


# ---- every lesson's notebook, made once per run ----------------------------------------------
MADE = "ipynb"  # the folder under .cache/coursekit the adapters have them written to, and render from

def uri(lesson) -> str:
    """Where a lesson's notebook sits, under the adapters' folder and in the site: lessons/NN-notebook.ipynb."""
    return f"lessons/{lesson.number}-notebook.ipynb"


def write(build, root: Path, folder: Path, lesson_id: str, made: str | None = None) -> str | None:
    """Write the lesson's notebook, made from its run, as `folder`/uri(lesson) (kept while its run
    and the kit are unchanged: `made`, maker() if not given); the lesson's message when its run
    failed. Waits for that lesson's run only. A lesson whose run failed gets a notebook too, its
    error as the first cell."""
    lesson = build.lessons[lesson_id]
    run, made = build.run(lesson_id), made or maker()
    target, record = folder / uri(lesson), build.cache / "notebooks" / f"{lesson.number}.json"
    if run.error is None and target.is_file() and build.store.read(record).get("key") == [run.key, made]:
        return None  # made from this run already, by this build or an earlier one
    nb, message = build_notebook(run, root), None
    if run.error:
        where = f"{run.error.where[0]}:{run.error.where[1]}: " if run.error.where else ""
        message = f"docs/{uri(lesson)}: {where}{run.error}"
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(f"!!! danger\n\n    {message}", id="build-error"))
    target.parent.mkdir(parents=True, exist_ok=True)
    text = nbformat.writes(nb) + "\n"
    if not target.is_file() or target.read_text(encoding="utf-8") != text:  # whole or not at all: another
        tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")  # build of the tree may be reading it
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)
    if run.error is None:
        build.store.write(record, {"key": [run.key, made]})
    else:
        record.unlink(missing_ok=True)
    return message


def write_all(build, root: Path, folder: Path) -> tuple[list[str], list[str]]:
    """Every lesson's notebook written (write); (their paths under `folder`, the failing lessons' messages)."""
    made = maker()
    errors = [write(build, root, folder, lesson_id, made) for lesson_id in build.lessons]
    return [uri(lesson) for lesson in build.lessons.values()], [e for e in errors if e]
