"""How a lesson's notebook looks on the site: rendered like every other page, not like Jupyter.

mkdocs-jupyter would turn a notebook into nbconvert's HTML (the hooks' on_pre_page puts `render`
in its place, so nbconvert never runs): Jupyter's own 570 KB stylesheet and code
colours, `In [1]:` prompts, wrapped output lines, headings without usable ids, and loaders for
MathJax and mermaid from CDNs. `render` replaces that page body: it writes the notebook out as
Markdown (coursekit.core.notebook.to_markdown: markdown cells as they are, code cells as fenced code
titled with their file, outputs as the site's "运行输出" blocks) and lets MkDocs render it with the site's own Markdown extensions, so
headings get the same ids, permalinks and table of contents as the article pages, code the same
highlighting and copy button, and Chinese the same line joining. It also gives the page its title
(`第 10 讲 · 笔记本`), keeps it out of the search index (its cells are the lesson's experiment
files, already indexed through the lesson and its source pages), and adds the download link.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.structure.pages import Page

from coursekit.core import pagetext
from coursekit.core.notebook import title_of, to_markdown

def _number(page) -> str:
    match = re.match(r"0*(\d+)", Path(page.file.src_uri).name)
    return match.group(1) if match else ""


def render(page, config, files) -> str:
    """The notebook page's body, rendered as the site renders Markdown; sets its toc, title and search."""
    path = Path(page.file.abs_src_path)
    nb = json.loads(pagetext.read(path))
    number = _number(page)
    page.markdown, _ = to_markdown(nb, number, path.name)
    Page.render(page, config, files)  # MkDocs' own rendering (the page's own `render` is this function)
    page.meta["title"] = title_of(number)
    page.meta["search"] = {"exclude": True}
    return page.content
