"""MkDocs hooks: fresh code for every build, and the drift guard on every lesson page.

`mkdocs build` fails on the first lesson page with a problem, after printing every problem of that
page as `file:line: message`. `mkdocs serve` prints the same lines and shows them on the served
page, with the drifted text highlighted, so the author sees them while writing.
"""

from __future__ import annotations

import html
import logging
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _importable() -> None:
    """The pages import tinylm, lessons and coursekit from this checkout."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


_importable()  # MkDocs restores sys.path after loading this file; on_config adds it again

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402

from coursekit import drift, footer, notebook, scan, speed  # noqa: E402

log = logging.getLogger("mkdocs.hooks.drift")
LESSONS = "lessons/"  # Markdown pages under docs/lessons/ are checked
RELOADED = ("tinylm", "lessons")  # packages re-imported on every build
CACHE = ROOT / ".cache/coursekit"  # executed notebooks, keyed by their sources (not committed)


class _ExecErrors(logging.Handler):
    """Collects markdown-exec's reports of code blocks that raised."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


_state = {"serving": False, "notebook_errors": [], "exec_seconds": 0.0, "notebook_seconds": 0.0}
_exec_errors = _ExecErrors()
for _name in ("markdown_exec", "mkdocs.plugins.markdown_exec"):
    logging.getLogger(_name).addHandler(_exec_errors)


def on_startup(command: str, dirty: bool) -> None:
    _state["serving"] = command == "serve"
    if _state["serving"]:
        speed.poll_sooner()


def on_env(env, config, files):
    speed.reuse_compiled_templates(env)
    return env


def on_config(config):
    _importable()
    _time_executed_blocks(config)
    return config


def _time_executed_blocks(config) -> None:
    """Wrap the executed-code fences so each build can say how long its code blocks ran."""
    for fence in config.mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", []):
        run = fence.get("format")
        if run is None or getattr(run, "_timed", False):
            continue

        def timed(*args, _run=run, **kwargs):
            start = time.perf_counter()
            try:
                return _run(*args, **kwargs)
            finally:
                _state["exec_seconds"] += time.perf_counter() - start

        timed._timed = True
        fence["format"] = timed


def on_pre_build(config) -> None:
    """Every build runs the current tinylm and lesson code in new sessions."""
    for name in list(sys.modules):
        if name.split(".")[0] in RELOADED:
            del sys.modules[name]
    _state["build"] = footer.build_info(ROOT)
    try:
        from markdown_exec._internal.formatters import python as exec_python
    except ImportError:  # a markdown-exec without these internals keeps its sessions
        return
    exec_python._sessions_globals.clear()
    exec_python._sessions_counter.clear()


@event_priority(50)  # before mkdocs-jupyter, which renders the notebooks this adds
def on_files(files, config):
    """Add each lesson's notebook, executed (or taken from the cache), as lessons/NN-notebook.ipynb."""
    pages = CACHE / "pages"
    _state["notebook_errors"] = []
    _state["exec_seconds"] = 0.0
    started = time.perf_counter()
    for number, package in notebook.lesson_packages(ROOT).items():
        uri = f"lessons/{number}-notebook.ipynb"
        nb = notebook.build(ROOT, package)
        try:
            nb, hit = notebook.executed(nb, ROOT, CACHE / "executed", f"docs/{uri}")
            log.info(f"{uri}: {'笔记本未变，取缓存' if hit else '笔记本已重新执行'}")
        except notebook.NotebookError as err:  # reported now; the build fails after the pages
            log.error(str(err))
            _state["notebook_errors"].append(str(err))
            nb.cells.insert(0, notebook.nbformat.v4.new_markdown_cell(f"!!! danger\n\n    {err}"))
        (pages / uri).parent.mkdir(parents=True, exist_ok=True)
        notebook.nbformat.write(nb, pages / uri)
        files.append(File(uri, str(pages), config["site_dir"], config["use_directory_urls"]))
    _state["notebook_seconds"] = time.perf_counter() - started
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    drift.take_recorded()
    _exec_errors.records.clear()
    return markdown


# What nbconvert's page template would fetch from CDNs (MathJax, mermaid): the notebooks use neither.
NOTEBOOK_CDN = [
    re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S),
    re.compile(r'<script type="module">(?:(?!</script>).)*?mermaid.*?</script>', re.S),
]


def on_page_content(html_text: str, page, config, files) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        for pattern in NOTEBOOK_CDN:
            html_text = pattern.sub("", html_text)
        name = Path(page.file.src_uri).name  # mkdocs-jupyter's include_source puts it beside the page
        html_text = (f'<p class="tl-download"><a class="md-button" href="{name}" download>'
                     f"下载笔记本（{name}）</a></p>") + html_text
    bindings = drift.take_recorded()
    errors = list(_exec_errors.records)
    _exec_errors.records.clear()
    html_text = html_text.replace("<p></p>", "")  # left where a hidden block printed nothing
    path = page.file.src_uri
    lesson = path.startswith(LESSONS) and path.endswith(".md")
    if not lesson and not errors:
        return html_text
    source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    problems = [drift.Problem(_failed_block_line(source, e, config), _exec_summary(e)) for e in errors]
    if lesson:
        problems += drift.check_page(source, bindings)
    if lesson:
        html_text += footer.html(_state["build"], page, config["extra"].get("repository", ""))
    if not problems:
        return html_text
    shown = f"docs/{path}"
    for p in problems:
        log.error(p.format(shown))
    if not _state["serving"]:
        raise PluginError(f"{shown}: {len(problems)} 处问题（见上），构建中止")
    return _banner(shown, problems) + _highlight(html_text, problems)


def _exec_summary(message: str) -> str:
    lines = [line.strip() for line in message.strip().split("\n") if line.strip()]
    return f"代码块执行出错：{lines[-1] if lines else message}"


def _failed_block_line(source: str, message: str, config) -> int:
    """The line of the executed block whose code the error report quotes."""
    code = message.split("Code block is:", 1)[-1].split("Output is:", 1)[0]
    base = Path(config["config_file_path"]).parent
    for fence in scan.fences(source):
        if not fence.executed:
            continue
        for line in _expanded(fence.lines, base):
            if line.strip():
                if line.strip() in code:
                    return fence.start
                break
    return 1


def _expanded(lines: list[str], base: Path) -> list[str]:
    """Block lines with `--8<-- "file[:section]"` replaced by what snippets would include."""
    out = []
    for line in lines:
        m = re.match(r'\s*-+8<-+\s*"([^":]+)(?::([^"]*))?"', line)
        path = base / m.group(1) if m else None
        if not (path and path.is_file()):
            out.append(line)
            continue
        text = path.read_text(encoding="utf-8")
        if m.group(2):
            start, end = f"--8<-- [start:{m.group(2)}]", f"--8<-- [end:{m.group(2)}]"
            text = text.split(start, 1)[-1].split("\n", 1)[-1].split(end, 1)[0]
        out += [s for s in text.split("\n") if "--8<--" not in s]
    return out


def _banner(path: str, problems: list[drift.Problem]) -> str:
    items = "".join(f"<li><code>{html.escape(p.format(path))}</code></li>" for p in problems)
    return (
        '<div class="admonition danger drift-report" role="alert">'
        f'<p class="admonition-title">本页有 {len(problems)} 处数字或代码与现算结果不符</p>'
        f"<ul>{items}</ul></div>"
    )


def _highlight(html_text: str, problems: list[drift.Problem]) -> str:
    """Mark the prose a problem names, where it stands verbatim in the HTML."""
    for text in {p.text for p in problems if p.text}:
        escaped = html.escape(text, quote=False)
        html_text = html_text.replace(escaped, f'<mark class="drift">{escaped}</mark>', 1)
    return html_text


def on_post_build(config) -> None:
    log.info(f"代码执行：页面代码块 {_state['exec_seconds']:.2f} s，笔记本 {_state['notebook_seconds']:.2f} s")
    if _state["notebook_errors"] and not _state["serving"]:
        raise PluginError(f"{len(_state['notebook_errors'])} 个笔记本执行出错（见上），构建中止")
