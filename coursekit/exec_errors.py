"""Code blocks that raised while a page was built: collected from markdown-exec's log, and placed.

markdown-exec reports a failing block as a warning that quotes the block's code. The collector
keeps those reports; `problem()` finds the block in the page source by its first line of code
(snippet lines expanded as pymdownx.snippets would) so the error can name the page and line.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from coursekit import drift, scan


class Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())

    def take(self) -> list[str]:
        taken, self.records = self.records, []
        return taken


def listen(collector: Collector) -> None:
    # markdown-exec logs under its own name, or under mkdocs.plugins when loaded as a plugin.
    for name in ("markdown_exec", "mkdocs.plugins.markdown_exec"):
        logging.getLogger(name).addHandler(collector)


def problem(source: str, message: str, base: Path) -> drift.Problem:
    lines = [line.strip() for line in message.strip().split("\n") if line.strip()]
    return drift.Problem(_block_line(source, message, base), f"代码块执行出错：{lines[-1] if lines else message}")


def _block_line(source: str, message: str, base: Path) -> int:
    """The line of the executed block whose code the error report quotes."""
    code = message.split("Code block is:", 1)[-1].split("Output is:", 1)[0]
    for fence in scan.fences(source):
        if not fence.executed:
            continue
        first = next((line.strip() for line in _expanded(fence.lines, base) if line.strip()), None)
        if first and first in code:
            return fence.start
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
