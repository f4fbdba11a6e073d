"""Confirming what a lesson page shows from its box under `mkdocs serve`
(coursekit/mkdocs_adapter/confirm.py): the endpoint in process (who may post, what it runs, where it
sends the browser), its wiring into serve's server, that a built site has neither button nor
endpoint, and one real serve whose box is confirmed by a click in Chromium."""

from __future__ import annotations

import io
import json
import shutil
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import replace

import pytest

from coursekit.core import shown
from coursekit.mkdocs_adapter import confirm
from tests.conftest import ROOT, edit
from tests.scratch_lesson import scratch_prototype  # noqa: F401 - fixture

PAGE = "docs/lessons/97-x.md"  # a lesson number no lesson uses
BACK = "/lessons/97-x/"


class Calls:
    """A stand-in for confirm.confirm: what it was asked, and what it answers."""

    def __init__(self, answer: confirm.Confirmed) -> None:
        self.answer, self.asked = answer, []

    def __call__(self, root, pages):
        self.asked.append(pages)
        return self.answer


def request(app, fields: dict | None = None, **environ) -> tuple[str, dict, str]:
    """POST `fields` (the box's form by default) to the endpoint as a page of the local serve does,
    each of `environ` put over that; (status, headers, body)."""
    body = urllib.parse.urlencode({"token": confirm.TOKEN, "page": PAGE, "back": BACK} if fields is None else fields).encode()
    env = {"REQUEST_METHOD": "POST", "PATH_INFO": confirm.PATH, "REMOTE_ADDR": "127.0.0.1",
           "HTTP_HOST": "127.0.0.1:8000", "HTTP_ORIGIN": "http://127.0.0.1:8000", "HTTP_SEC_FETCH_SITE": "same-origin",
           "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body), **environ}
    said = {}

    def start_response(status, headers):
        said["status"], said["headers"] = status, dict(headers)

    out = b"".join(app(env, start_response)).decode()
    return said["status"], said["headers"], out


def inner(environ, start_response):
    start_response("200 OK", [])
    return [b"the site"]


def test_a_post_from_the_served_page_confirms_it_and_sends_the_browser_back():
    run = Calls(confirm.Confirmed(0, [f"{PAGE}：已写入 lessons/l97/reviewed.json（新增 0 个，变了 1 个，去掉 0 个）"]))
    status, headers, _ = request(confirm.app(inner, ROOT, run))
    assert status.startswith("303") and headers["Location"] == BACK
    assert run.asked == [[PAGE]]


@pytest.mark.parametrize("why, environ, fields", [
    ("no token", {}, {"page": PAGE, "back": BACK}),
    ("a wrong token", {}, {"token": ("y" if confirm.TOKEN[0] == "x" else "x") + confirm.TOKEN[1:], "page": PAGE, "back": BACK}),
    ("another site's page", {"HTTP_ORIGIN": "http://evil.example"}, None),
    ("a cross-site fetch", {"HTTP_SEC_FETCH_SITE": "cross-site"}, None),
    ("another site's name resolved to this machine", {"HTTP_HOST": "evil.example:8000", "HTTP_ORIGIN": "http://evil.example:8000"}, None),
    ("another machine", {"REMOTE_ADDR": "192.168.1.20"}, None),
    ("a GET", {"REQUEST_METHOD": "GET"}, None),
])
def test_the_endpoint_refuses_what_is_not_the_local_served_page_and_runs_nothing(why, environ, fields):
    run = Calls(confirm.Confirmed(0))
    status, _, body = request(confirm.app(inner, ROOT, run), fields, **environ)
    assert status.startswith("403"), why
    assert run.asked == [] and "没有确认" in body


def test_a_refused_confirmation_shows_why_and_links_back_and_a_foreign_back_address_is_not_followed():
    failed = confirm.Confirmed(1, ["构建失败（见上），什么都没有确认：先修好这些问题。"],
                               "docs/lessons/97-x.md:3: 数字漂移：正文写 <b>1</b>，代码现算 2\n")
    status, _, body = request(confirm.app(inner, ROOT, Calls(failed)))
    assert status.startswith("409")
    assert "数字漂移：正文写 &lt;b&gt;1&lt;/b&gt;" in body and "什么都没有确认" in body and f'href="{BACK}"' in body
    status, headers, _ = request(confirm.app(inner, ROOT, Calls(confirm.Confirmed(0))),
                                 {"token": confirm.TOKEN, "page": PAGE, "back": "//evil.example/"})
    assert status.startswith("303") and headers["Location"] == "/"


def test_other_addresses_are_the_site_s():
    status, _, body = request(confirm.app(inner, ROOT, Calls(confirm.Confirmed(0))), PATH_INFO="/lessons/97-x/")
    assert (status, body) == ("200 OK", "the site")


def test_confirm_names_the_lesson_pages_when_given_another_page_and_builds_nothing():
    done = confirm.confirm(ROOT, ["docs/index.md"])
    assert done.code == 2 and "docs/lessons/" in done.said[0] and "docs/index.md" in done.said[0]


def test_the_box_s_form_posts_the_page_its_address_and_this_serve_s_token():
    from bs4 import BeautifulSoup

    form = BeautifulSoup(confirm.button(PAGE, BACK), "html.parser").form
    assert (form["method"], form["action"]) == ("post", confirm.PATH)
    assert {i["name"]: i["value"] for i in form.select("input")} == {"token": confirm.TOKEN, "page": PAGE, "back": BACK}
    assert form.button and f"{shown.CONFIRM} {PAGE}" in form.get_text()


def test_serve_s_server_answers_the_endpoint_and_still_serves_the_site(tmp_path, monkeypatch):
    """The extension wraps the server `mkdocs serve` makes (speed.extend_server), over real HTTP."""
    from mkdocs import livereload

    (tmp_path / "index.html").write_text("<p>首页</p>", encoding="utf-8")
    run = Calls(confirm.Confirmed(0))
    monkeypatch.setattr(confirm, "confirm", run)
    monkeypatch.setattr(livereload.LiveReloadServer, "__init__", livereload.LiveReloadServer.__init__)  # put back after
    confirm.serve_confirming(tmp_path)
    server = livereload.LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    server.server_bind()
    server.server_activate()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        assert "首页" in urllib.request.urlopen(base + "/index.html").read().decode()
        body = urllib.parse.urlencode({"token": confirm.TOKEN, "page": PAGE, "back": "/index.html"}).encode()
        with urllib.request.urlopen(urllib.request.Request(base + confirm.PATH, body, {"Origin": base})) as answer:
            assert answer.url == base + "/index.html"  # 303, followed
        assert run.asked == [[PAGE]]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(base + confirm.PATH, body, {"Origin": "http://evil.example"}))
        assert refused.value.code == 403 and run.asked == [[PAGE]]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.build
def test_a_built_site_has_no_confirm_button_nor_endpoint(built_site):
    found = [p.relative_to(built_site).as_posix() for p in built_site.rglob("*")
             if p.is_file() and p.suffix in (".html", ".js", ".json")
             and any(w in p.read_text(encoding="utf-8", errors="replace") for w in (confirm.PATH, "drift-confirm"))]
    assert found == []


@pytest.mark.browser
def test_a_click_on_the_box_s_button_confirms_the_page_and_the_box_goes(scratch_prototype, tmp_path, browser):
    """A listing changed under a scratch lesson's page: serve's box offers to confirm it; one click
    writes the lesson's reviewed record (as confirm_shown.py would) and the reloaded page has no box,
    with no save of the page's prose in between."""
    from scripts.drive import MkdocsServe

    repo = tmp_path / "repo"
    shutil.copytree(scratch_prototype.repo, repo, ignore=shutil.ignore_patterns("site", "__pycache__"))
    lesson = replace(scratch_prototype, root=repo)
    edit(repo, lesson.file("first"), "a = torch.tensor([1., 2., 4.])", "# 改过的注释\na = torch.tensor([1., 2., 4.])")
    record = repo / lesson.folder / shown.RECORD
    before = record.read_text(encoding="utf-8")
    server = MkdocsServe(repo)
    try:
        server.wait_for("drift-confirm", 180, 0.1, lesson.url)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"http://127.0.0.1:{server.port}/{lesson.url}")
        page.locator(".drift-report .drift-confirm button").click()
        deadline = time.monotonic() + 300
        while record.read_text(encoding="utf-8") == before and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "# 改过的注释" in "".join(e["code"] for e in json.loads(record.read_text(encoding="utf-8"))["shown"])
        while time.monotonic() < deadline:
            try:  # the page reloads (the answer to the post, then the rebuild's live reload)
                if page.evaluate("() => !!document.querySelector('article') && !document.querySelector('.drift-report')"):
                    break
            except Exception:  # navigating
                pass
            time.sleep(0.2)
        assert page.locator("article").inner_text().count("改过的注释") == 1
        assert page.locator(".drift-report").count() == 0, server.log[-3000:]
        assert server.proc.poll() is None
    finally:
        server.stop()
