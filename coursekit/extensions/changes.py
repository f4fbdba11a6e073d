"""What a change did to what readers see: two build manifests (coursekit.core.manifest) compared, and
the comparison as Markdown a reviewer reads in a minute (scripts/changes.py), as the preview's
`_changes/` page, and as the short form the publisher puts in the pull request's comment.

Numbers are matched by their expression and which of its values they are (the n-th such binding
on the page), so a paragraph moved by an edit above it is no change; a number whose live value
differs is. Pages whose source the change did not edit come first and are marked: a change there
is one the author may not have meant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import markdown as python_markdown

MOST = 40  # number rows in the short report; the rest are counted, with a link to the full one
COMMENT_ROWS = 10  # number rows (and page names) the pull request's comment carries
SUMMARY_FORMAT = 1  # of the short form; .github/scripts/pages.py reads this format and no other


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
    added: list[tuple[str, str]] = field(default_factory=list)  # (page, its address in the head)
    removed: list[str] = field(default_factory=list)
    pages: list[PageChange] = field(default_factory=list)  # changed pages: not edited first
    reran: list[str] = field(default_factory=list)  # lessons whose run is a new one

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.pages or self.reran)


@dataclass(frozen=True)
class Base:
    """What the head was compared with. how: "same" (main's build of the pull request's base
    commit), "published" (main as the site shows it, maybe a later commit), "given" (two manifests
    named on the command line) or "none" (nothing to compare with: `why`)."""

    how: str = "given"
    commit: str = ""
    why: str = ""

    def sentence(self) -> str:
        commit = f"`{self.commit[:12]}`" if re.fullmatch(r"[0-9a-f]{40}", self.commit) else "（提交不明）"
        if self.how == "same":
            return f"基准：`main` 的提交 {commit}，也就是这个 PR 的基准提交。"
        if self.how == "published":
            return (f"基准：网站上发布的 `main`（提交 {commit}）。没有找到这个 PR 基准提交的构建，"
                    "所以 `main` 在那之后的改动也会算在这里。")
        if self.how == "none":
            return f"没有比较：{_cell(self.why) if self.why else '找不到 main 的清单'}。"
        return ""


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
    out = Changes(added=[(p, h[p].get("url", "")) for p in sorted(set(h) - set(b))], removed=sorted(set(b) - set(h)))
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


def _retexted(changes: Changes) -> list[PageChange]:
    """Pages the change did not edit whose visible text changed all the same, and no number or output
    the report lists for them."""
    return [c for c in changes.pages if not c.edited and c.text and not (c.numbers or c.shown)]


def markdown(changes: Changes | None, preview: str = "", full: str = "", most: int = MOST,
             base: Base = Base()) -> str:
    """The report, in Chinese: changed numbers by page (pages the change did not edit first),
    listings and outputs changed on pages it did not edit, pages added and removed, lessons rerun.
    At most `most` number rows; `full` links the whole report. None: nothing was compared."""
    head = ["## 读者看到的变化", ""] + ([base.sentence(), ""] if base.sentence() else [])
    if changes is None:
        return "\n".join(head)
    if changes.empty:
        return "\n".join(head + ["没有：每一页的数、清单、输出和文字都与基准相同。", ""])
    moved = sum(len(c.numbers) for c in changes.pages)
    untouched = [c for c in changes.pages if not c.edited and (c.numbers or c.shown)]
    out = head + [(f"- 数变了：{moved} 个，在 {sum(1 for c in changes.pages if c.numbers)} 页" if moved else "- 数变了：0 个")
                  + (f"；其中 {len(untouched)} 页这次没有改动，却显示了不同的数或输出" if untouched else "")]
    out += _listed(changes, preview)
    sections, rows = _sections(changes, preview, most)
    out += sections
    if rows < moved:
        rest = f"还有 {moved - rows} 个变了的数没有列出"
        out += ["", f"{rest}，见[完整报告]({full})。" if full else f"{rest}。"]
    return "\n".join(out) + "\n"


def _listed(changes: Changes, preview: str) -> list[str]:
    """A line for each kind of page or lesson the change has any of: added, removed, edited, retexted, rerun."""
    kinds = (
        ("- 新增页面：", [_link(p, url, preview) for p, url in changes.added]),
        ("- 删除页面：", [_cell(p) for p in changes.removed]),
        ("- 改动的页面：", [_link(c.page, c.url, preview) for c in changes.pages if c.edited]),
        ("- 源文件没改、文字变了的页面（导航、引用的文件、上一讲下一讲之类）：",
         [_link(c.page, c.url, preview) for c in _retexted(changes)]),
        ("- 重新运行的讲：", [_cell(s) for s in changes.reran]),
    )
    return [label + "、".join(items) for label, items in kinds if items]


def _sections(changes: Changes, preview: str, most: int) -> tuple[list[str], int]:
    """A section for each page with changed numbers (at most `most` rows in all), or with changed
    listings or outputs it did not edit; and how many number rows they hold."""
    out, rows = [], 0
    for c in changes.pages:
        if not (c.numbers or (c.shown and not c.edited)):
            continue
        mark = "（这次没有改动这一页）" if not c.edited else ""
        out += ["", f"### {_link(c.page, c.url, preview)}{mark}", ""]
        if c.numbers:
            listed = c.numbers[: max(0, most - rows)]
            out += ["| 行 | 正文写 | 原来现算 | 现在现算 | 表达式 |", "| ---: | --- | --- | --- | --- |"]
            out += [f"| {int(new['line'])} | {_cell(new['written'])} | {_cell(old['live'])} | "
                    f"{_cell(new['live'])} | {_cell(new['expr'])} |" for old, new in listed]
            rows += len(listed)
        if c.shown and not c.edited:
            out += ["", "清单或输出变了：" + "、".join(_cell((n or o)["block"].split("\n")[0]) + f"（第 {int((n or o)['line'])} 行）"
                                            for o, n in c.shown)]
    return out, rows


# --- the preview's _changes/ page ----------------------------------------------------------------

PAGE_TAGS = {"h2", "h3", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td", "code", "a"}
STYLE = """body{font:16px/1.6 system-ui,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;
margin:0 auto;max-width:60rem;padding:1rem;color:#222}table{border-collapse:collapse;display:block;
overflow-x:auto}th,td{border:1px solid #ccc;padding:.25rem .5rem}code{background:#f3f3f3;padding:0 .2rem;
overflow-wrap:anywhere}td code{white-space:nowrap}a{color:#3949ab}"""


class _Audit(HTMLParser):
    """Refuses any element, attribute or link the report itself does not make."""

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            ok = ((tag == "a" and name == "href" and value and SAFE.fullmatch(value) and value.startswith("../"))
                  or (tag in ("th", "td") and name == "style" and value == "text-align: right;"))
            if not ok:
                raise ValueError(f"报告里出现了不该有的属性：<{tag} {name}={value!r}>")
        if tag not in PAGE_TAGS:
            raise ValueError(f"报告里出现了不该有的元素：<{tag}>")

    def handle_comment(self, data):
        raise ValueError("报告里出现了注释")

    def handle_decl(self, decl):
        raise ValueError("报告里出现了声明")

    handle_pi = handle_unknown_decl = handle_decl


def page(changes: Changes | None, base: Base = Base()) -> str:
    """The whole report as a page of the preview (`<preview>/_changes/index.html`): every number,
    pages linked relative to it, and nothing in it but what the report makes (checked)."""
    body = python_markdown.markdown(markdown(changes, "..", most=10**9, base=base), extensions=["tables"])
    audit = _Audit(convert_charrefs=True)
    audit.feed(body)
    audit.close()
    return ("<!doctype html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta name=\"robots\" content=\"noindex\">\n<title>读者看到的变化</title>\n"
            f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n{body}\n"
            "<p><a href=\"../\">回到预览的首页</a></p>\n</main>\n</body>\n</html>\n")


# --- the short form, for the pull request's comment ---------------------------------------------

def summary(changes: Changes | None, base: Base = Base(), rows: int = COMMENT_ROWS) -> dict:
    """What the publisher's comment says (data, never Markdown: the publisher checks and renders it).
    Counts, the first pages the change did not edit that show other numbers or outputs, and the first
    changed numbers, pages not edited first."""
    found = changes or Changes()
    numbers = [(c, old, new) for c in found.pages for old, new in c.numbers]
    untouched = [c.page for c in found.pages if not c.edited and (c.numbers or c.shown)]
    return {
        "format": SUMMARY_FORMAT,
        "base": {"how": base.how, "commit": base.commit},
        "compared": changes is not None,
        "counts": {"added": len(found.added), "removed": len(found.removed),
                   "edited": sum(c.edited for c in found.pages), "numbers": len(numbers),
                   "untouched": len(untouched), "text": len(_retexted(found)), "reran": len(found.reran)},
        "untouched": untouched[:rows],
        "rows": [{"page": c.page, "line": int(new["line"]), "old": str(old["live"])[:120],
                  "new": str(new["live"])[:120], "expr": str(new["expr"])[:120], "edited": c.edited}
                 for c, old, new in numbers[:rows]],
    }
