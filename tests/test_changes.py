"""The reviewer's view (coursekit.core.manifest, coursekit.extensions.changes, scripts/changes.py): which numbers,
listings and pages a change changes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from coursekit.core import engine, manifest, numbers
from coursekit.extensions import changes
from coursekit.extensions import authoring
from scripts.drive import copy_repo, mkdocs_build
from tests.conftest import ROOT, edit
from tests.test_github import pages as publisher


def live_numbers(repo) -> dict:
    """(page, line, expression, which value) -> live value, read by the guard itself, page by page."""
    build = engine.Build(repo)
    try:
        out = {}
        for path in authoring.site_pages(repo):
            rel = path.relative_to(repo).as_posix()
            _, bound, _ = authoring.check(build, repo, path)
            out.update({(rel, b.line, b.expr, b.at): numbers.show(b.live) for b in bound})
        return out
    finally:
        build.close()


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    repo = copy_repo(tmp_path_factory.mktemp("changes") / "repo", with_cache=True)
    site = repo.parent / "base-site"
    assert mkdocs_build(repo, site).returncode == 0
    return repo, site


@pytest.mark.build
def test_the_manifest_is_deterministic_and_small(base, tmp_path):
    repo, site = base
    assert mkdocs_build(repo, tmp_path / "again").returncode == 0
    first = (site / manifest.NAME).read_bytes()
    assert first == (tmp_path / "again" / manifest.NAME).read_bytes()
    data = json.loads(first)
    lesson_pages = [p.relative_to(repo).as_posix() for p in authoring.lesson_pages(repo)]
    assert all(data["pages"][p]["numbers"] for p in lesson_pages) and set(data["lessons"]) >= {"l" + p.split("/")[-1][:2] for p in lesson_pages}


@pytest.mark.build
def test_a_tinylm_change_reports_exactly_the_numbers_it_changes_with_lines_and_values(base, tmp_path):
    repo, site = base
    before = live_numbers(repo)
    edit(repo, "tinylm/embedding.py", "/ d_model**0.5)", "/ d_model**0.5 * 0.9)")
    try:
        after_site = tmp_path / "head"
        mkdocs_build(repo, after_site)  # it fails: the prose still shows the old numbers
        after = live_numbers(repo)
        found = changes.compare(manifest.load(site), manifest.load(after_site))
    finally:
        edit(repo, "tinylm/embedding.py", "/ d_model**0.5 * 0.9)", "/ d_model**0.5)")
    expected = {(k[0], k[1], before[k], after[k], k[2]) for k in before if k in after and before[k] != after[k]}
    reported = {(c.page, new["line"], old["live"], new["live"], new["expr"]) for c in found.pages for old, new in c.numbers}
    assert expected and reported == expected
    assert all(not c.edited for c in found.pages if c.numbers)  # tinylm changed, no page did
    report = changes.markdown(found, "https://preview.example/pr-7/")
    assert "（这次没有改动这一页）" in report and "重新运行的讲" in report

    # the preview's page lists every one of them, linked into the preview; the short form is one
    # the publisher accepts, and its comment shows the first of them
    whole = changes.page(found, changes.Base("same", "c" * 40))
    assert whole.count("<tr>") - whole.count("<thead>") == len(expected)
    assert f'<a href="../{found.pages[0].url}">' in whole and "基准：<code>main</code> 的提交 <code>cccccccccccc</code>" in whole
    short = tmp_path / "changes.json"
    short.write_text(json.dumps(changes.summary(found, changes.Base("same", "c" * 40))), encoding="utf-8")
    comment = publisher.report_text(publisher.read_report(short), "https://o.github.io/r/pr-preview/pr-7/_changes/")
    first = found.pages[0].numbers[0][1]
    assert f"| `` {found.pages[0].page} ``（未改动） | {first['line']} |" in comment
    assert f"数变了 {len(expected)} 个" in comment


@pytest.mark.build
def test_a_prose_only_change_reports_no_number(base, tmp_path):
    repo, site = base
    page = authoring.lesson_pages(repo)[0].relative_to(repo).as_posix()
    text = (repo / page).read_text(encoding="utf-8")
    sentence = next(line for line in text.split("\n") if line.startswith("位置 0") or ("。" in line and "{" not in line and line[:1] not in "#`!-|<>"))
    edit(repo, page, sentence, sentence + "这是补上的一句。")
    try:
        assert mkdocs_build(repo, tmp_path / "prose").returncode == 0
    finally:
        edit(repo, page, sentence + "这是补上的一句。", sentence)
    found = changes.compare(manifest.load(site), manifest.load(tmp_path / "prose"))
    assert [c.page for c in found.pages] == [page] and found.pages[0].edited and not found.pages[0].numbers
    assert "数变了：0 个" in changes.markdown(found)


def test_hostile_manifest_text_stays_inline_code_and_unlinked():
    evil = {"line": 1, "written": "`x` | <script>alert(1)</script>", "live": "1", "expr": "a](javascript:alert(1))", "at": 0}
    base = {"format": 1, "pages": {"p.md": {"source": "a", "url": "p/", "numbers": [{**evil, "live": "0"}], "shown": []}},
            "lessons": {}}
    head = {"format": 1, "pages": {"p.md": {"source": "a", "url": "javascript:alert(1)", "numbers": [evil], "shown": []},
                                    "../x](javascript:1)": {"url": "x"}}, "lessons": {}}
    report = changes.markdown(changes.compare(base, head), "https://preview.example/pr-7/")
    outside_code = re.sub(r"`` .*? ``", "", report)
    assert "javascript" not in outside_code and "<script>" not in outside_code and "](" not in outside_code
    assert "`` ˋxˋ ¦ <script>alert(1)</script> ``" in report  # shown, as code, its backticks and bars defused


@pytest.mark.build
def test_the_script_compares_two_sites_and_refuses_what_is_no_manifest(base, tmp_path):
    repo, site = base
    same = subprocess.run([sys.executable, "scripts/changes.py", str(site), str(site / manifest.NAME)],
                          cwd=repo, capture_output=True, text=True, timeout=120)
    assert same.returncode == 0 and "没有：每一页的数" in same.stdout
    (tmp_path / "bad.json").write_text("[1]", encoding="utf-8")
    bad = subprocess.run([sys.executable, "scripts/changes.py", str(site), str(tmp_path / "bad.json")],
                         cwd=repo, capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "bad.json: 不是这一版构建写出的清单" in bad.stderr


def test_the_preview_page_shows_hostile_manifest_text_as_text_and_links_nothing_else():
    evil = "</code><script>alert(1)</script>`` | <img src=x onerror=alert(1)> [a](javascript:1) <!-- x"
    number = {"line": 4, "written": evil, "live": evil, "expr": evil, "at": 0}
    base = {"format": 1, "pages": {"p.md": {"source": "a", "url": "p/", "numbers": [{**number, "live": "0"}],
                                            "shown": [{"line": 2, "block": evil, "digest": "1"}]}}, "lessons": {}}
    head = {"format": 1, "pages": {
        "p.md": {"source": "a", "url": "javascript:alert(1)", "numbers": [number],
                 "shown": [{"line": 2, "block": evil, "digest": "2"}]},
        "q.md": {"source": "b", "url": "../../elsewhere/"}, evil: {"url": "x/"}}, "lessons": {evil: "k"}}
    found = changes.compare(base, head)
    text = changes.page(found, changes.Base("none", why=evil)) + changes.page(found)
    assert "<script" not in text and "<img" not in text and "<!-- x" not in text
    assert re.findall(r'href="([^"]*)"', text) == ["../"] * 2  # its own link home, nothing from the manifest
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text  # shown to the reviewer, as text


@pytest.mark.parametrize("html", [
    "<p>x</p><script>alert(1)</script>", '<p onclick="x">x</p>', '<a href="javascript:alert(1)">x</a>',
    '<a href="https://elsewhere.example/">x</a>', "<p>x</p><!-- hidden -->", '<img src="x">',
])
def test_the_page_audit_refuses_what_the_report_does_not_make(html):
    audit = changes._Audit(convert_charrefs=True)
    with pytest.raises(ValueError, match="报告里出现了"):
        audit.feed(html)
        audit.close()


def ci_changes(repo, *args):
    return subprocess.run([sys.executable, "scripts/changes.py", *map(str, args)],
                          cwd=repo, capture_output=True, text=True, timeout=120)


@pytest.mark.build
def test_the_ci_step_writes_the_page_and_the_short_form_with_or_without_a_base(base, tmp_path):
    repo, site = base
    head = tmp_path / "head-site"
    shutil.copytree(site, head)
    for based_on, given, compared in [("same " + "d" * 40, site, True), ("none", tmp_path / "nothing", False),
                                      ("published ", tmp_path / "nothing", False)]:
        out = ci_changes(repo, given, head, "--based-on", based_on, "--page", head / "_changes",
                         "--summary", tmp_path / "preview/changes.json")
        assert out.returncode == 0, out.stderr
        data = publisher.read_report(tmp_path / "preview/changes.json")
        assert data["compared"] is compared and (head / "_changes/index.html").is_file()
        page = (head / "_changes/index.html").read_text(encoding="utf-8")
        assert ("没有：每一页的数" in page) is compared and ("没有比较" in page) is not compared
    assert "基准清单不能用" in page  # "published" named a base that is not there: said, not hidden
    bad = ci_changes(repo, site, tmp_path / "nothing", "--page", tmp_path / "p")  # the head must be a build
    assert bad.returncode != 0 and "不是构建写出的清单" in bad.stderr


STUBS = {  # what gh and curl answer in base_manifest.sh's three cases: a base build, Pages only, nothing
    "same": ("echo 77", 'while [ "$1" != --dir ]; do shift; done; echo \'{"m": 1}\' > "$2/coursekit-manifest.json"', "exit 22"),
    "published": ("echo 77", "exit 1", None),
    "none": ("exit 1", "exit 1", "exit 22"),
}


@pytest.mark.parametrize("case", STUBS)
def test_the_base_manifest_is_the_base_commits_build_else_the_published_one_else_none(tmp_path, case):
    listing, download, curl = STUBS[case]
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    published = f'case "$*" in *previews.json*) echo \'{{"main": "{"e" * 40}"}}\';; ' \
                '*) out=""; while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done; echo \'{"p": 1}\' > "$out";; esac'
    (bin_ / "gh").write_text(f'#!/bin/sh\necho "$*" >> {tmp_path}/gh.log\n'
                             f'if [ "$2" = list ]; then {listing}; else {download}; fi\n')
    (bin_ / "curl").write_text(f"#!/bin/bash\n{curl or published}\n")
    for stub in bin_.iterdir():
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}", "REPO": "o/r", "BASE_SHA": "d" * 40,
           "PAGES": "https://o.github.io/r/"}
    out = subprocess.run(["bash", str(ROOT / "scripts/base_manifest.sh"), str(tmp_path / "base")],
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    got = tmp_path / "base/coursekit-manifest.json"
    assert out.stdout.strip() == {"same": "same " + "d" * 40, "published": "published " + "e" * 40, "none": "none"}[case]
    assert (json.loads(got.read_text()) if got.exists() else None) == {"same": {"m": 1}, "published": {"p": 1},
                                                                        "none": None}[case]
    asked = (tmp_path / "gh.log").read_text()
    assert "--branch main --event push --commit " + "d" * 40 in asked and "--status success" in asked
    assert ("download 77 --repo o/r --name manifest" in asked) is (case != "none")


def test_the_visible_text_is_the_words_a_reader_reads():
    plain = manifest.visible_text("<p>下一讲要给每个位置划定读取范围。</p><p>第二段 <code>x</code></p>")
    linked = manifest.visible_text('<p><a href="../11/">下一讲</a>要给每个位置划定<strong>读取范围</strong>。</p>'
                                   "<p>第二段 <code>x</code></p><script>var x = 1;</script>")
    assert plain == linked == "下一讲要给每个位置划定读取范围。 第二段 x"
    assert manifest.visible_text("<p>下一讲要给每个位置划定读取范围。</p>") != manifest.visible_text("<p>下一讲要划定读取范围。</p>")
