"""Driving the site the way an author, CI or a reader does, for the benchmarks and the tests:
the course's lessons as the tree has them, `mkdocs build --strict` of a tree, a throwaway copy of
the repository, `mkdocs serve` in a subprocess whose log is collected while it runs, the built site
on a local port, and Debian's Chromium driven by Playwright. What the tests ask of a lesson's page
is the test harness's (tests/harness.py)."""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ["docs", "tinylm", "lessons", "coursekit", "snippets", "overrides", "templates", "scripts",
          "mkdocs.yml", "pyproject.toml"]


@dataclass(frozen=True)
class CourseLesson:
    """One lesson as the tree has it: its page under docs/lessons/ and its package under lessons/."""

    number: str  # "10"
    page: str  # "docs/lessons/10-attention.md"
    experiments: tuple[tuple[str, str], ...]
    root: Path = ROOT

    @property
    def id(self) -> str:  # "l10": the package's name, and the id of a parametrized test
        return f"l{self.number}"

    @property
    def package(self) -> str:
        return f"lessons.{self.id}"

    @property
    def folder(self) -> str:
        return f"lessons/{self.id}"

    @property
    def url(self) -> str:  # "lessons/10-attention/"
        return f"lessons/{Path(self.page).stem}/"

    @property
    def notebook_url(self) -> str:  # "lessons/10-notebook/"
        return f"lessons/{self.number}-notebook/"

    @property
    def ipynb(self) -> str:  # the notebook in the built site
        return f"{self.notebook_url}{self.number}-notebook.ipynb"

    def markdown(self) -> str:
        return (self.root / self.page).read_text(encoding="utf-8")


def course_lessons(root: Path = ROOT) -> list[CourseLesson]:
    """Every lesson of the tree at `root`, in course order: a page docs/lessons/NN-slug.md with its
    package lessons/lNN (EXPERIMENTS listed)."""
    from coursekit.core.engine import find_lessons

    packages = find_lessons(root)
    found = []
    for page in sorted((root / "docs/lessons").glob("[0-9]*-*.md")):
        number = page.name.split("-", 1)[0]
        package = packages.get(f"l{number}")
        if package is not None:
            found.append(CourseLesson(number, page.relative_to(root).as_posix(),
                                      tuple(tuple(e) for e in package.experiments), root))
    return sorted(found, key=lambda lesson: int(lesson.number))


def mkdocs_build(root: Path, site: Path, *args: str, **env_vars: str) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of the tree at `root`."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env_vars}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site), *args],
                          cwd=root, env=env, capture_output=True, text=True, timeout=900)


def copy_repo(dest: Path, with_cache: bool = False) -> Path:
    """A copy of what the site is built from, to change on purpose (no caches unless asked)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules", "*.egg-info"))
        elif src.exists():
            shutil.copy2(src, dest / name)
    if with_cache and (ROOT / ".cache/coursekit/runs").is_dir():
        from coursekit.core.notebook import MADE  # made from the copy's own runs, not copied

        shutil.copytree(ROOT / ".cache/coursekit", dest / ".cache/coursekit", ignore=shutil.ignore_patterns(MADE))
    return dest


def remove_lessons(repo: Path, lessons: list[CourseLesson]) -> None:
    """Take lessons out of a repository copy: their page, their package and their nav entry."""
    config = (repo / "mkdocs.yml").read_text(encoding="utf-8")
    for lesson in lessons:
        (repo / lesson.page).unlink()
        shutil.rmtree(repo / lesson.folder)
        stem = re.escape(f"lessons/{lesson.number}-")
        config = re.sub(rf'\n  - "?第 {int(lesson.number)} 讲[^\n]*(?:\n      - [^\n]*{stem}[^\n]*)+', "", config)
    (repo / "mkdocs.yml").write_text(config, encoding="utf-8")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVE = {"mkdocs": ["-m", "mkdocs", "serve", "-a"], "zensical": ["-m", "coursekit.zensical_adapter", "serve", "-a"]}


class MkdocsServe:
    """`mkdocs serve` of the tree at `repo` on a free port, its log collected as it runs (`builder`
    "zensical": the kit's Zensical adapter's serve instead)."""


    def __init__(self, repo: Path, builder: str = "mkdocs"):
        self.repo = Path(repo)
        self.port, self.lines = free_port(), []
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.proc = subprocess.Popen([sys.executable, *SERVE[builder], f"127.0.0.1:{self.port}"],
                                     cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()

    @property
    def log(self) -> str:
        return "".join(self.lines)

    @property
    def first_lesson(self) -> str:
        """The address of the served course's first lesson page (the default of page and wait_for)."""
        lessons = course_lessons(self.repo)
        assert lessons, f"no lesson under {self.repo}"
        return lessons[0].url

    def page(self, path: str | None = None) -> str:
        path = self.first_lesson if path is None else path
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=10) as r:
                return r.read().decode("utf-8")
        except OSError:
            return ""

    def wait_for(self, text: str, seconds: float = 90, poll: float = 0.01, path: str | None = None) -> str:
        """The served page (the first lesson's unless `path` says) once it contains `text`."""
        path = self.first_lesson if path is None else path
        return self._until(lambda: self.page(path), text, seconds, poll, "not served")

    def wait_for_log(self, text: str, seconds: float = 30) -> str:
        """The log once it contains `text`: a build's last lines come after its pages are written."""
        return self._until(lambda: self.log, text, seconds, 0.05, "not logged")

    def _until(self, read, text: str, seconds: float, poll: float, failure: str) -> str:
        """What `read()` returns once it contains `text`; TimeoutError with the log's end when it never
        does or the server stopped."""
        deadline = time.monotonic() + seconds
        while text not in (got := read()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise TimeoutError(f"{failure}: {text} (exit {self.proc.poll()})\n" + "".join(self.lines[-20:]))
            time.sleep(poll)
        return got

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)  # and what it started (the adapter starts Zensical)
        self.proc.wait(timeout=30)


CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")  # GitHub's Ubuntu runners: google-chrome
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _Gzip(_Quiet):
    """Text files gzip-compressed when the browser accepts it, as static hosts (GitHub Pages) serve them."""

    TEXT = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".map")

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().do_GET()  # its redirect to the address with a slash
            path = path / "index.html"
        if path.suffix not in self.TEXT or not path.is_file() or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().do_GET()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve(directory: Path, port: int = 0, compress: bool = False):
    """The folder on http://127.0.0.1:<port>/ (a free port by default); `compress` gzips text files."""
    handler = functools.partial(_Gzip if compress else _Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
