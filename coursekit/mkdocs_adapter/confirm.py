"""Confirm what a lesson page shows (coursekit.core.shown): the one function behind
`scripts/confirm_shown.py` and behind the button `mkdocs serve` puts in a page's box.

`confirm(root, pages)` rebuilds the site once in a subprocess (`mkdocs build`, what each page shows
saved under the cache), and only if that build passes writes each named page's record
`lessons/lNN/reviewed.json`; it refuses, writing nothing, while the build fails for another reason.

Under `mkdocs serve` only (hooks.on_startup), the server gets one more address, `PATH`: a POST there
with this process's `TOKEN` confirms one page and sends the browser back to it; the record it wrote
rebuilds the page (coursekit.mkdocs_adapter.incremental) and the box is gone. The box of a page whose
problems are all changes of what it shows carries the form (`button`). A built site has neither: the
box is added under serve only, and the address exists only in serve's server. What may post:

- a client on this machine (a loopback address), to a server addressed as this machine
  (`Host` 127.0.0.1, localhost or [::1]: a name of another site resolved to 127.0.0.1 is refused);
- from a page of the same server (`Origin`, and `Sec-Fetch-Site` where the browser sends it);
- with the token, which only a page the server served holds (another site can't read it).

Public APIs only: wsgiref's `get_app`/`set_app` of the server `mkdocs serve` makes, wrapped after
its __init__ (coursekit.mkdocs_adapter.speed.extend_server).
"""

from __future__ import annotations

import html
import ipaddress
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from coursekit.core import shown
from coursekit.extensions import authoring
from coursekit.mkdocs_adapter import speed

PATH = "/__coursekit/confirm"
TOKEN = secrets.token_urlsafe(24)  # this serve process's; the box's form carries it
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
BODY_LIMIT = 4096  # bytes of a form: a page's path, an address and the token
_one_at_a_time = threading.Lock()


@dataclass(frozen=True)
class Confirmed:
    """What a confirmation did: `code` 0 (written, or nothing to confirm), 1 (refused: the build
    failed, or gave nothing for a page), 2 (not lesson pages); `said` its lines for the author,
    `failed` the build's own output when it failed."""

    code: int
    said: list[str] = field(default_factory=list)
    failed: str = ""


def confirm(root: Path, pages: list[str]) -> Confirmed:
    """Write what each of `pages` (docs/lessons/NN-slug.md) shows now into its reviewed record,
    after one build of the site that passes."""
    every = [p.relative_to(root).as_posix() for p in authoring.lesson_pages(root)]
    chosen = [Path(p).as_posix().removeprefix("./") for p in pages]
    unknown = [p for p in chosen if p not in every]
    if unknown or not chosen:
        return Confirmed(2, [f"要确认的页面得是 docs/lessons/ 里的讲义页（{', '.join(every)}），或写 --all；"
                             f"收到：{', '.join(unknown) or '（没有）'}"])
    for page in chosen:
        shown.current_path(root, page).unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as site:
        env = dict(os.environ, **{shown.CONFIRMING: "1", "NO_MKDOCS_2_WARNING": "1"})
        build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", site], cwd=root, env=env,
                               capture_output=True, text=True)
    if build.returncode != 0:
        return Confirmed(1, ["构建失败（见上），什么都没有确认：先修好这些问题。"], build.stdout + build.stderr)
    said = []
    for page in chosen:
        now = shown.current_path(root, page)
        if not now.is_file():
            return Confirmed(1, said + [f"{page}：构建没有给出这一页展示的内容，什么都没有写入"])
        record = shown.record_path(root, page)
        text = now.read_text(encoding="utf-8")
        old = record.read_text(encoding="utf-8") if record.is_file() else None
        rel = record.relative_to(root).as_posix()
        if old == text:
            said.append(f"{page}：与 {rel} 相同，没有要确认的")
            continue
        changes = _changes(old, text)
        record.write_text(text, encoding="utf-8")
        said.append(f"{page}：已写入 {rel}（{changes}）")
    return Confirmed(0, said)


def _changes(old: str | None, new: str) -> str:
    if old is None:
        return f"新记录，{len(json.loads(new)['shown'])} 个块"

    def blocks(text: str) -> dict[str, dict]:
        return {shown.Shown.from_entry(e).key: e for e in json.loads(text)["shown"]}

    try:
        before = blocks(old)
    except (ValueError, KeyError, TypeError):
        return "旧记录读不了，已重写"
    after = blocks(new)
    changed = sum(1 for k, e in after.items() if k in before and before[k] != e)
    return f"新增 {len(after.keys() - before.keys())} 个，变了 {changed} 个，去掉 {len(before.keys() - after.keys())} 个"


# ---- under `mkdocs serve`: the box's button ---------------------------------------------------------

def button(page: str, back: str) -> str:
    """The form in the box of lesson page `page` (served at the address `back`)."""
    command = f"{shown.CONFIRM} {page}"
    fields = "".join(f'<input type="hidden" name="{k}" value="{html.escape(v)}">'
                     for k, v in (("token", TOKEN), ("page", page), ("back", back)))
    busy = "this.querySelector('button').disabled=true;this.querySelector('button').textContent='正在确认：重新构建一次……'"
    return (f'<form class="drift-confirm" method="post" action="{PATH}" onsubmit="{busy}">{fields}'
            '<button type="submit" class="md-button md-button--primary">看过正文了，确认本页展示的内容</button>'
            f'<p>等于运行 <code>{html.escape(command)}</code>：构建一次，通过了才写入本讲的 '
            '<code>reviewed.json</code>（只在本机的 mkdocs serve 里有这个按钮）</p></form>')


def refusal(environ: dict) -> str | None:
    """Why a request to PATH may not confirm, or None."""
    if environ.get("REQUEST_METHOD") != "POST":
        return "只接受 POST"
    try:
        local = ipaddress.ip_address(environ.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        local = False
    if not local:
        return "只有本机能确认"
    host = environ.get("HTTP_HOST", "")
    if urllib.parse.urlsplit(f"//{host}").hostname not in LOCAL_HOSTS:
        return f"这个地址（{host or '没有 Host'}）不是本机"
    origin = environ.get("HTTP_ORIGIN")
    if origin is not None and origin != f"http://{host}":
        return f"请求来自别的网站（{origin}）"
    if environ.get("HTTP_SEC_FETCH_SITE", "same-origin") != "same-origin":
        return "请求来自别的网站"
    return None


def _form(environ: dict) -> dict[str, str]:
    try:
        size = min(int(environ.get("CONTENT_LENGTH") or 0), BODY_LIMIT)
    except ValueError:
        size = 0
    body = environ["wsgi.input"].read(size).decode("utf-8", "replace") if size > 0 else ""
    return {k: v[0] for k, v in urllib.parse.parse_qs(body).items()}


def _page(start_response, status: str, title: str, text: str, back: str = "") -> list[bytes]:
    link = f'<p><a href="{html.escape(back)}">回到页面</a></p>' if back else ""
    body = (f'<!doctype html><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<h1>{html.escape(title)}</h1><pre>{html.escape(text)}</pre>{link}").encode()
    start_response(status, [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))])
    return [body]


def app(inner, root: Path, run=None):
    """A WSGI app: a POST to PATH confirms one page (`run(root, [page])`, `confirm` unless given),
    anything else goes to `inner`."""

    def handle(environ, start_response):
        if environ.get("PATH_INFO") != PATH:
            return inner(environ, start_response)
        why = refusal(environ)
        form = _form(environ) if why is None else {}
        if why is None and not secrets.compare_digest(form.get("token", ""), TOKEN):
            why = "令牌不对：从 mkdocs serve 刚给出的页面上点按钮"
        if why is not None:
            return _page(start_response, "403 Forbidden", "没有确认", why)
        back = form.get("back", "/")
        back = back if back.startswith("/") and not back.startswith("//") else "/"
        with _one_at_a_time:
            done = (run or confirm)(root, [form.get("page", "")])
        if done.code == 0:
            start_response("303 See Other", [("Location", back), ("Content-Length", "0")])
            return []
        return _page(start_response, "409 Conflict", "没有确认", "\n".join([done.failed.strip(), *done.said]).strip(), back)

    return handle


def serve_confirming(root: Path) -> None:
    """Have the server `mkdocs serve` is about to start answer PATH."""

    def extend(original, server, args, kwargs):
        original(server, *args, **kwargs)
        server.set_app(app(server.get_app(), root))

    speed.extend_server("confirms", extend)
