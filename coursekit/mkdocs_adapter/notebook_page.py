"""How a lesson's notebook looks on the site: rendered like every other page, not like Jupyter.

mkdocs-jupyter would turn a notebook into nbconvert's HTML (the hooks' on_pre_page puts `render`
in its place, so nbconvert never runs): Jupyter's own 570 KB stylesheet and code
colours, `In [1]:` prompts, wrapped output lines, headings without usable ids, and loaders for
MathJax and mermaid from CDNs. `render` replaces that page body: it writes the notebook out as
Markdown (markdown cells as they are, code cells as fenced code titled with their file, outputs as
the site's "运行输出" blocks) and lets MkDocs render it with the site's own Markdown extensions, so
headings get the same ids, permalinks and table of contents as the article pages, code the same
highlighting and copy button, and Chinese the same line joining. It also gives the page its title
(`第 10 讲 · 笔记本`), keeps it out of the search index (its cells are the lesson's experiment
files, already indexed through the lesson and its source pages), and adds the download link.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

from mkdocs.structure.pages import Page

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


def _number(page) -> str:
    match = re.match(r"0*(\d+)", Path(page.file.src_uri).name)
    return match.group(1) if match else ""


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


def render(page, config, files) -> str:
    """The notebook page's body, rendered as the site renders Markdown; sets its toc, title and search."""
    path = Path(page.file.abs_src_path)
    nb = json.loads(path.read_text(encoding="utf-8"))
    number = _number(page)
    page.markdown, _ = to_markdown(nb, number, path.name)
    Page.render(page, config, files)  # MkDocs' own rendering (the page's own `render` is this function)
    page.meta["title"] = f"第 {number} 讲 · 笔记本" if number else "笔记本"
    page.meta["search"] = {"exclude": True}
    return page.content
