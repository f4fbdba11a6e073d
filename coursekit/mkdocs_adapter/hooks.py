"""MkDocs hooks: the glue between MkDocs and coursekit's engine and guard.

The checking itself happens inside the Markdown conversion (coursekit.extensions.checks, coursekit.extensions.fence),
so other builders do it too. What only MkDocs gets from here:
- one engine build per MkDocs build: stale lessons start in parallel at the start of the build,
  and their workers are stopped at its end;
- each lesson's notebook page, made from that same run;
- problems reported the MkDocs way: `mkdocs build` checks every page, prints one `file:line: message`
  line per problem, page by page, and then fails once, naming every page that has one; `mkdocs
  serve` prints the same lines and shows them on the served page, with the drifted text
  highlighted, and keeps serving;
- the reproducibility footer, and a faster `mkdocs serve` (coursekit/mkdocs_adapter/speed.py).
"""

from __future__ import annotations

import logging
import os
import sys
import types
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # a checkout that was not pip-installed
    sys.path.insert(0, str(ROOT))

from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402

from coursekit.core import CourseError, engine, footer, manifest, notebook, pagetext, report  # noqa: E402
from coursekit.extensions import checks  # noqa: E402
from coursekit.mkdocs_adapter import confirm, incremental, notebook_page, pagecache, restart, search_index, segmenter, speed, watcher  # noqa: E402
from coursekit.core.shown import CONFIRMING  # noqa: E402

log = logging.getLogger("mkdocs.hooks.coursekit")
LESSONS = "lessons/"
CACHE = ROOT / ".cache/coursekit"

# Kept across rebuilds: `mkdocs serve` executes this file anew for each build, coursekit.core.engine stays.
_state = engine.current.adapter_state
for _key, _default in {"serving": False, "notebook_errors": [], "incremental": None, "run_keys": {},
                       "rebuilt": set(), "search_entries": [], "pagecache": None}.items():
    _state.setdefault(_key, _default)


def on_startup(command: str, dirty: bool) -> None:
    # Material's search segments Chinese with jieba, which logs four lines of its own on every build
    # ("Building prefix dict…"); an author should see only what concerns the course.
    logging.getLogger("jieba").setLevel(logging.WARNING)
    _state["serving"] = command == "serve"
    if _state["serving"]:
        speed.poll_sooner()
        watcher.watch_by_content()  # an edit that kept its time and size is seen
        confirm.serve_confirming(ROOT)  # the box's button confirms what a page shows (never in a built site)
        _state["read_once"] = restart.digest(ROOT)  # the glossary and the kit: an edit restarts serve


def on_config(config):
    engine.current.root = ROOT
    engine.current.collects = True
    speed.keep_theme_listing(config.theme, reuse=_dirty())
    return config


def on_pre_build(config) -> None:
    if _state.get("read_once"):
        restart.if_changed(ROOT, _state["read_once"], config["site_dir"])
    if engine.current.build is not None:
        engine.current.build.close()
    build = engine.current.build = engine.Build(ROOT, CACHE, planner=checks.plan)
    build.prefetch()
    _state["rebuilt"] = set()  # the URLs of the pages this build renders
    _state["page_problems"] = {}  # page -> how many problems it has; the build fails at its end
    _state["build"] = footer.build_info(ROOT)
    _state["manifest"] = {}  # page -> what it showed that code computed, for coursekit-manifest.json
    _state["pagecache"] = None  # made in on_files, when the files are known
    _state["made"] = None  # what the notebooks are made with (notebook.maker), read at the first
    segmenter.lazy()  # search indexes an edited page without loading jieba's whole dictionary
    search = config.plugins.get("material/search")  # private: its search_index (pagecache; tests/test_contracts.py)
    if search is not None and getattr(search, "search_index", None) is not None:
        _state["search_cache"] = search  # wrapped in on_files, with the build's cache


def _dirty() -> bool:
    """The build under way is a dirty one of `mkdocs serve` (coursekit/mkdocs_adapter/incremental.py)."""
    return _state["incremental"] is not None and _state["incremental"].dirty


@event_priority(50)  # before mkdocs-jupyter, which renders the notebooks this adds
def on_files(files, config):
    """Add each lesson's notebook, made from its run, as lessons/NN-notebook.ipynb. A full build
    writes each as its page comes (on_pre_page), so the pages before it convert while later
    lessons still run; a dirty serve build finds stale pages by every lesson's run, and MkDocs
    rebuilds a notebook page whose file is newer than its output, so it writes them all first."""
    build, dirty = engine.current.build, _dirty()
    _state["notebook_errors"] = []
    if dirty:
        _, _state["notebook_errors"] = notebook.write_all(build, ROOT, CACHE / notebook.MADE)
        _state["run_keys"] = {s: build.run(s).key for s in build.lessons}
    for lesson in build.lessons.values():
        files.append(File(notebook.uri(lesson), str(CACHE / notebook.MADE), config["site_dir"], config["use_directory_urls"]))
    if not os.environ.get(CONFIRMING):  # confirm_shown.py's build must convert every lesson page
        cache = _state["pagecache"] = pagecache.PageCache(build, ROOT, config, files)
        if _state.get("search_cache") is not None:
            cache.remember_search(_state.pop("search_cache"))
    if dirty:
        _state["incremental"].mark_stale(files, _state["run_keys"])
    return files


def on_serve(server, config, builder):
    """From the second build on, rebuild only what changed (coursekit/mkdocs_adapter/incremental.py)."""
    _state["incremental"] = server.builder = incremental.Builder(builder, config, ROOT, _state["run_keys"])
    return server


def on_env(env, config, files):
    speed.reuse_compiled_templates(env, CACHE / "templates")
    return env


def on_pre_page(page, config, files):
    """A notebook page renders as the site renders Markdown (coursekit/mkdocs_adapter/notebook_page.py), in place
    of mkdocs-jupyter's nbconvert HTML, which would only be thrown away (0.3 s a notebook)."""
    # Private, pinned (MkDocs 1.6.1, tests/test_contracts.py): MkDocs renders each page through its
    # own `render` attribute, so a page given another one renders that way. mkdocs-jupyter 0.26.3
    # sets a notebook page's `render` in its own on_pre_page, which runs first (plugins before hooks:
    # a notebook page is tested to show the site's rendering, tests/test_reader.py).
    if page.file.src_uri.endswith(".ipynb"):
        _write_notebook(page.file.src_uri)
        page.render = types.MethodType(notebook_page.render, page)
    else:
        _readable(page)
    _plain_errors(page)
    if _state["pagecache"] is not None:
        _state["pagecache"].wrap(page, files)  # unchanged inputs: the kept conversion (coursekit/mkdocs_adapter/pagecache.py)
    return page


def _write_notebook(uri: str) -> None:
    """A full build's notebook, written as its page comes (waiting for that lesson's run only);
    mkdocs-jupyter, its `cache` off in mkdocs.yml, reads no notebook before this."""
    build = engine.current.build
    if _dirty():
        return  # written in on_files
    lesson_id = next(s for s, lesson in build.lessons.items() if notebook.uri(lesson) == uri)
    if _state.get("made") is None:
        _state["made"] = notebook.maker()  # once a build
    message = notebook.write(build, ROOT, CACHE / notebook.MADE, lesson_id, _state["made"])
    if message:
        _state["notebook_errors"].append(message)


def _readable(page) -> None:
    """A page that is not UTF-8 fails the build at its file and the line of the first bad byte
    (coursekit.core.pagetext), before the page cache or MkDocs read it: MkDocs' own reading raises
    a UnicodeDecodeError with a traceback that names neither."""
    if page.file.abs_src_path is None:
        return
    try:
        pagetext.read(page.file.abs_src_path)
    except pagetext.UnreadableText as err:
        raise PluginError(str(err)) from None
    except OSError:
        pass  # gone: MkDocs says so


def _plain_errors(page) -> None:
    """The course's errors end the build with their message and no traceback, as MkDocs shows a
    PluginError (the extensions raise coursekit.core.CourseError, which knows no builder); the
    same private `render` attribute as on_pre_page's."""
    render = page.render

    def checked(config, files):
        try:
            return render(config, files)
        except CourseError as err:
            raise PluginError(str(err)) from err

    page.render = checked


def on_page_content(html: str, page, config, files) -> str:
    _state["rebuilt"].add(page.url)
    path = page.file.src_uri
    shown = f"docs/{path}"
    problems = engine.current.problems.pop(shown, [])
    html = html.replace("<p></p>", "")  # left where a hidden block printed nothing
    record = engine.current.records.pop(shown, {})
    _state["manifest"][shown] = {**record, "url": page.url, "text": manifest.digest(manifest.visible_text(html))}
    if path.endswith(".ipynb"):
        return html  # rendered by notebook_page (on_pre_page)
    if path.startswith(LESSONS):
        html += footer.html(_state["build"], page.meta.get("title") or page.title, page.url,
                            config["extra"].get("repository", ""))
    if not problems:
        return html
    for p in problems:
        log.error(p.format())
    _state["page_problems"][shown] = len(problems)
    if not _state["serving"]:
        return html  # the build goes on to check the other pages, and fails in on_post_build
    return report.banner(shown, problems, _confirm_button(shown, page, config, problems)) + report.highlight(html, problems)


def _confirm_button(shown: str, page, config, problems) -> str:
    """Under serve, the box of a lesson page whose problems are all changes of what it shows (kind
    "listing") confirms them with one click (coursekit/mkdocs_adapter/confirm.py); any other problem
    would fail the confirming build, so it is fixed first."""
    if engine.lesson_of(shown) is None or any(p.kind != "listing" for p in problems):
        return ""
    mount = urllib.parse.urlsplit(config["site_url"] or "/").path or "/"
    return confirm.button(shown, mount.rstrip("/") + "/" + page.url)


def on_post_build(config) -> None:
    # after the search plugin wrote the index (hooks run after plugins); under serve, made whole
    # after a dirty build and kept as the next one's previous index
    def whole(entries: list[dict]) -> list[dict]:
        _state["search_entries"] = incremental.merge_search_index(
            entries, _state["search_entries"] if _dirty() else None, _state["rebuilt"])
        return _state["search_entries"]

    search_index.compact(config["site_dir"], whole if _state["serving"] else None)
    segmenter.keep()  # a build that loaded jieba's dictionary leaves it as a table for the next ones
    build = engine.current.build
    if build is not None:
        _state["run_keys"] = {s: build.run(s).key for s in build.lessons}  # every run is done by now
        log.info(report.executed(build.executed(), build.executed_seconds, build.reruns))
        if _state["pagecache"] is not None:
            log.info(_state["pagecache"].summary())
        build.close()
        engine.current.build = None
    reported = _state.get("page_problems", {})
    # A lesson's failing run is one cause: its page said so already, its notebook needn't again.
    notebooks = [m for m in _state["notebook_errors"]
                 if not any(page.startswith(m.split("-notebook", 1)[0] + "-") for page in reported)]
    for message in notebooks:
        log.error(message)
    if _state["serving"]:
        return  # an incremental rebuild converts some pages only: no whole manifest to write
    manifest.write(Path(config["site_dir"]), _state["manifest"], _state.get("run_keys", {}))
    failed = [f"{page}（{n} 处）" for page, n in reported.items()]
    if notebooks:
        failed.append(f"{len(notebooks)} 个笔记本")
    if failed:
        raise PluginError(f"构建失败，问题见上：{'、'.join(failed)}")


def on_build_error(error) -> None:
    if engine.current.build is not None:
        engine.current.build.close()
        engine.current.build = None
