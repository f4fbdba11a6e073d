"""The reproducibility footer of every lesson page: what it was built from, and where to report it."""

from __future__ import annotations

import ast
import subprocess
from html import escape
from importlib import metadata
from pathlib import Path
from urllib.parse import urlencode
from coursekit.core import syntax


def _git(root: Path, *args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def _tinylm_version(root: Path) -> str:
    """tinylm.__version__, read from the source: importing tinylm would import torch (about a second)."""
    tree = syntax.parse((root / "tinylm/__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__version__" for t in node.targets):
            return ast.literal_eval(node.value)
    return "?"


def build_info(root: Path) -> dict[str, str]:
    commit = _git(root, "rev-parse", "HEAD")
    dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no")) if commit else False
    return {
        "commit": commit or "未知",
        "dirty": "（另有未提交的改动）" if dirty else "",
        "tinylm": _tinylm_version(root),
        "torch": metadata.version("torch"),
    }


def html(info: dict[str, str], title: str, url: str, repository: str) -> str:
    """The footer of the page `title` at `url`; the report link pre-fills the issue form's lesson,
    section and commit."""
    lesson = f"{title} {url}"
    query = urlencode({"template": "lesson-error.yml", "title": f"[讲义] {title}",
                       "lesson": lesson, "section": "", "commit": info["commit"]})
    report = (f' · <a class="tl-report" href="{escape(repository.rstrip("/"))}/issues/new?{escape(query)}" '
              f'target="_blank" rel="noopener">报告此页问题</a>') if repository else ""
    return (
        '<aside class="tl-repro" aria-label="构建信息">'
        f'本页构建自提交 <code>{escape(info["commit"][:12])}</code>{escape(info["dirty"])}'
        f' · tinylm {escape(info["tinylm"])} · torch {escape(info["torch"])}{report}</aside>'
    )
