"""Running the site the way an author, CI or a reader does, for the tests and the benchmarks:
`mkdocs build --strict` of a tree, a throwaway copy of the repository, `mkdocs serve` in a
subprocess whose log is collected while it runs, the built site on a local port, and Debian's
Chromium driven by Playwright."""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ["docs", "tinylm", "lessons", "coursekit", "snippets", "overrides", "templates", "scripts",
          "mkdocs.yml", "pyproject.toml"]


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
        shutil.copytree(ROOT / ".cache/coursekit", dest / ".cache/coursekit", ignore=shutil.ignore_patterns("pages"))
    return dest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MkdocsServe:
    """`mkdocs serve` of the tree at `repo` on a free port, its log collected as it runs."""

    def __init__(self, repo: Path):
        self.port, self.lines = free_port(), []
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{self.port}"],
                                     cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def page(self, path: str = "lessons/10-attention/") -> str:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}", timeout=10) as r:
                return r.read().decode("utf-8")
        except OSError:
            return ""

    def wait_for(self, text: str, seconds: float = 90, poll: float = 0.01, path: str = "lessons/10-attention/") -> str:
        """The served page once it contains `text`."""
        deadline = time.monotonic() + seconds
        while text not in (html := self.page(path)):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise TimeoutError(f"not served: {text} (exit {self.proc.poll()})\n" + "".join(self.lines[-20:]))
            time.sleep(poll)
        return html

    def stop(self) -> None:
        self.proc.terminate()
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
