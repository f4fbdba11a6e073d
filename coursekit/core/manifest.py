"""What a reader sees that code computed, page by page: the record a build writes beside the site
(`coursekit-manifest.json`) so that two builds can be compared (scripts/changes.py).

Per page: its source file's digest (did the change edit it?), each bound number (line, as written,
its live value as the guard shows it, the expression and which of its values), each listing and
printed output (a digest, and the text when it is short), and a digest of the page's visible
text. Per lesson: the key of its run (a new key: the lesson ran again with other inputs). Nothing
in it depends on the time or the machine's paths, so one commit gives the same bytes.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from coursekit.core import numbers

NAME = "coursekit-manifest.json"
FORMAT = 1
SHORT = 400  # characters of a listing or output kept as text; longer ones by digest only


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()[:16]


def page_record(state) -> dict:
    """The numbers and code a converted page showed (the extension's state at the page's end)."""
    source = (state.root / state.path).read_bytes() if (state.root / state.path).is_file() else b""
    return {
        "source": hashlib.sha256(source).hexdigest()[:16],
        "numbers": [{"line": b.line, "written": b.written, "live": numbers.show(b.live), "expr": b.expr, "at": b.at,
                     **({"file": b.path} if b.path != state.path else {})} for b in state.bound],  # file: included
        "shown": [{"line": s.line, "block": s.block, "digest": digest(s.code + "\0" + s.output),
                   **({"output": s.output} if len(s.output) <= SHORT else {})} for s in state.shown],
    }


INLINE = re.compile(r"</?(a|abbr|b|code|em|i|kbd|mark|span|strong|sub|sup)\b[^>]*>", re.I)


def visible_text(page_html: str) -> str:
    """The text of a page's article as a reader has it: tags and scripts gone (inline ones without a
    trace), spaces collapsed."""
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page_html, flags=re.S | re.I)
    text = re.sub(INLINE, "", text)  # a word that became a link reads the same
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html.unescape(text).split())


def write(site: Path, pages: dict[str, dict], runs: dict[str, str]) -> Path:
    """The manifest of a whole build, at the site's root."""
    data = {"format": FORMAT, "pages": {p: pages[p] for p in sorted(pages)}, "lessons": dict(sorted(runs.items()))}
    path = site / NAME
    # compact: json writes indented text in Python, compact in C (0.1 s a build at 20 lessons)
    path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def load(path: Path) -> dict:
    """A manifest, from its file or from a built site's folder; a clear error for anything else."""
    file = path / NAME if path.is_dir() else path
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(f"{file}: 不是构建写出的清单（{err}）") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("pages"), dict):
        raise ValueError(f"{file}: 不是这一版构建写出的清单（format {FORMAT}）")
    return data
