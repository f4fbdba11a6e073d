"""MkDocs hooks: the glue between MkDocs and coursekit.

Every build runs the current tinylm and lesson code in fresh markdown-exec sessions, adds each
lesson's notebook (executed, or from the cache), and checks every lesson page with the drift
guard. `mkdocs build` fails on the first lesson page with a problem, after printing every problem
of that page as `file:line: message`; `mkdocs serve` prints the same lines and shows them on the
served page, with the drifted text highlighted, so the author sees them while writing.
"""

from __future__ import annotations

import logging
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

from coursekit import drift, exec_errors, footer, notebook, notebook_page, search_index, speed  # noqa: E402

log = logging.getLogger("mkdocs.hooks.coursekit")
LESSONS = "lessons/"  # Markdown pages under docs/lessons/ are checked
RELOADED = ("tinylm", "lessons")  # packages re-imported on every build
CACHE = ROOT / ".cache/coursekit"  # executed notebooks, keyed by their sources (not committed)

_state = {"serving": False, "notebook_errors": [], "exec_seconds": 0.0, "notebook_seconds": 0.0}
_failed_blocks = exec_errors.Collector()
exec_errors.listen(_failed_blocks)


def on_startup(command: str, dirty: bool) -> None:
    _state["serving"] = command == "serve"
    if _state["serving"]:
        speed.poll_sooner()


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
    _state["exec_seconds"] = 0.0
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


def on_env(env, config, files):
    speed.reuse_compiled_templates(env)
    return env


def on_page_markdown(markdown: str, page, config, files) -> str:
    drift.take_recorded()  # what this page's blocks record from here on is this page's
    _failed_blocks.take()
    return markdown


def on_page_content(html: str, page, config, files) -> str:
    path = page.file.src_uri
    bindings, errors = drift.take_recorded(), _failed_blocks.take()
    html = html.replace("<p></p>", "")  # left where a hidden block printed nothing
    if path.endswith(".ipynb"):
        return notebook_page.render(page, config, files)  # include_source puts the .ipynb beside it
    lesson = path.startswith(LESSONS) and path.endswith(".md")
    if not lesson and not errors:
        return html
    source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    base = Path(config["config_file_path"]).parent
    problems = [exec_errors.problem(source, e, base) for e in errors]
    if lesson:
        problems += drift.check_page(source, bindings)
        html += footer.html(_state["build"], page, config["extra"].get("repository", ""))
    if not problems:
        return html
    shown = f"docs/{path}"
    for p in problems:
        log.error(p.format(shown))
    if not _state["serving"]:
        raise PluginError(f"{shown}: {len(problems)} 处问题（见上），构建中止")
    return drift.banner(shown, problems) + drift.highlight(html, problems)


def on_post_build(config) -> None:
    search_index.compact(config["site_dir"])  # after the search plugin wrote it (hooks run after plugins)
    log.info(f"代码执行：页面代码块 {_state['exec_seconds']:.2f} s，笔记本 {_state['notebook_seconds']:.2f} s")
    if _state["notebook_errors"] and not _state["serving"]:
        raise PluginError(f"{len(_state['notebook_errors'])} 个笔记本执行出错（见上），构建中止")
