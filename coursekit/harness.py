"""Running the site the way an author or CI does, for the tests and the benchmarks:
`mkdocs build --strict` of a tree, a throwaway copy of the repository, and `mkdocs serve`
in a subprocess whose log is collected while it runs."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
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
