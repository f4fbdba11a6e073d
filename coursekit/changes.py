"""What a change did to what readers see: two build manifests (coursekit.manifest) compared, and
the comparison as Markdown a reviewer reads in a minute (scripts/changes.py).

Numbers are matched by their expression and which of its values they are (the n-th such binding
on the page), so a paragraph moved by an edit above it is no change; a number whose live value
differs is. Pages whose source the change did not edit come first and are marked: a change there
is one the author may not have meant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MOST = 40  # number rows in the short report; the rest are counted, with a link to the full one


@dataclass
class PageChange:
    page: str
    url: str
    edited: bool  # the change edited the page's own source
    numbers: list[tuple[dict, dict]] = field(default_factory=list)  # (base, head) of each changed number
    shown: list[tuple[dict | None, dict | None]] = field(default_factory=list)  # listings, outputs changed
    text: bool = False  # its visible text changed


@dataclass
class Changes:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    pages: list[PageChange] = field(default_factory=list)  # changed pages: not edited first
    reran: list[str] = field(default_factory=list)  # lessons whose run is a new one

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.pages or self.reran)


def _keyed(items: list[dict], key) -> dict:
    seen: dict = {}
    out = {}
    for item in items:
        k = key(item)
        seen[k] = seen.get(k, -1) + 1
        out[(k, seen[k])] = item
    return out


def compare(base: dict, head: dict) -> Changes:
    b, h = base["pages"], head["pages"]
    out = Changes(added=sorted(set(h) - set(b)), removed=sorted(set(b) - set(h)))
    for page in sorted(set(b) & set(h)):
        old, new = b[page], h[page]
        change = PageChange(page, new.get("url", ""), old.get("source") != new.get("source"))
        bn = _keyed(old.get("numbers", []), lambda n: (n["expr"], n["at"]))
        hn = _keyed(new.get("numbers", []), lambda n: (n["expr"], n["at"]))
        change.numbers = [(bn[k], hn[k]) for k in hn if k in bn and bn[k]["live"] != hn[k]["live"]]
        bs = _keyed(old.get("shown", []), lambda s: s["block"])
        hs = _keyed(new.get("shown", []), lambda s: s["block"])
        change.shown = [(bs.get(k), hs.get(k)) for k in sorted(set(bs) | set(hs), key=str)
                        if (bs.get(k) or {}).get("digest") != (hs.get(k) or {}).get("digest")]
        change.text = old.get("text") != new.get("text")
        if change.numbers or change.shown or change.text or change.edited:
            out.pages.append(change)
    out.pages.sort(key=lambda c: (c.edited, c.page))
    lessons_b, lessons_h = base.get("lessons", {}), head.get("lessons", {})
    out.reran = sorted(s for s in lessons_h if lessons_b.get(s) != lessons_h[s])
    return out


def _cell(text: str) -> str:
    """Text from a manifest (hostile in a pull request) as a table cell: inline code, no markup."""
    text = str(text).replace("\n", " ")[:120]
    return "`` " + text.replace("`", "ˋ").replace("|", "¦") + " ``"


SAFE = re.compile(r"[\w./-]{1,200}")  # a page path or URL a link may carry; anything else is shown, not linked


def _link(page: str, url: str, preview: str) -> str:
    if preview and SAFE.fullmatch(str(page)) and SAFE.fullmatch(str(url) or ".") and ".." not in str(url):
        return f"[{page}]({preview.rstrip('/')}/{url})"
    return _cell(page)


def markdown(changes: Changes, preview: str = "", full: str = "", most: int = MOST) -> str:
    """The report, in Chinese: changed numbers by page (pages the change did not edit first),
    listings and outputs changed on pages it did not edit, pages added and removed, lessons rerun.
    At most `most` number rows; `full` links the whole report."""
    if changes.empty:
        return "## 读者看到的变化\n\n没有：每一页的数、清单、输出和文字都与基准相同。\n"
    out = ["## 读者看到的变化", ""]
    moved = sum(len(c.numbers) for c in changes.pages)
    untouched = [c for c in changes.pages if not c.edited and (c.numbers or c.shown)]
    out.append(f"- 数变了：{moved} 个，在 {sum(1 for c in changes.pages if c.numbers)} 页"
               + (f"；其中 {len(untouched)} 页这次没有改动，却显示了不同的数或输出" if untouched else ""))
    if changes.added:
        out.append("- 新增页面：" + "、".join(_cell(p) for p in changes.added))
    if changes.removed:
        out.append("- 删除页面：" + "、".join(_cell(p) for p in changes.removed))
    edited = [c for c in changes.pages if c.edited]
    if edited:
        out.append("- 改动的页面：" + "、".join(_link(c.page, c.url, preview) for c in edited))
    if changes.reran:
        out.append("- 重新运行的讲：" + "、".join(_cell(s) for s in changes.reran))
    rows = 0
    for c in changes.pages:
        if not (c.numbers or (c.shown and not c.edited)):
            continue
        mark = "（这次没有改动这一页）" if not c.edited else ""
        out += ["", f"### {_link(c.page, c.url, preview)}{mark}", ""]
        if c.numbers:
            out += ["| 行 | 正文写 | 原来现算 | 现在现算 | 表达式 |", "| ---: | --- | --- | --- | --- |"]
            for old, new in c.numbers:
                if rows >= most:
                    break
                out.append(f"| {int(new['line'])} | {_cell(new['written'])} | {_cell(old['live'])} | "
                           f"{_cell(new['live'])} | {_cell(new['expr'])} |")
                rows += 1
        if c.shown and not c.edited:
            out += ["", "清单或输出变了：" + "、".join(_cell((n or o)["block"].split("\n")[0]) + f"（第 {int((n or o)['line'])} 行）"
                                            for o, n in c.shown)]
    if rows < moved:
        rest = f"还有 {moved - rows} 个变了的数没有列出"
        out += ["", f"{rest}，见[完整报告]({full})。" if full else f"{rest}。"]
    return "\n".join(out) + "\n"
