"""Warm one-shot builds (coursekit/mkdocs_adapter/pagecache.py, the run cache's history): a build that reuses what
did not change writes the same bytes as a cold build of the same tree, for every kind of edit, and
an edit put back is a hit. The tests that build carry the build marker; those that check a piece in
process (the segmenter, a page's key, what mkdocs-jupyter loads) none: they are in the fast layer."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from coursekit.mkdocs_adapter import pagecache, segmenter
from scripts.drive import copy_repo, course_lessons, mkdocs_build
from tests.conftest import ROOT, edit

EPOCH = {"SOURCE_DATE_EPOCH": "1700000000"}
LESSONS = course_lessons(ROOT)


def build(repo: Path, site: Path) -> str:
    result = mkdocs_build(repo, site, **EPOCH)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stderr


def cold(repo: Path, site: Path) -> None:
    """A build with no cache at all, of the same tree in the same place; the warm cache is kept."""
    aside = repo.parent / f"{repo.name}-cache-aside"
    shutil.move(repo / ".cache", aside)
    try:
        build(repo, site)
    finally:
        shutil.rmtree(repo / ".cache", ignore_errors=True)
        shutil.move(aside, repo / ".cache")


def differences(a: Path, b: Path) -> list[str]:
    files = lambda root: {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}  # noqa: E731
    left, right = files(a), files(b)
    out = sorted(left ^ right)
    out += [f for f in sorted(left & right) if (a / f).read_bytes() != (b / f).read_bytes()]
    return out


def converted(log: str) -> int:
    found = re.search(r"页面转换：沿用上次的 (\d+) 页，转换 (\d+) 页", log)
    assert found, log[-2000:]
    return int(found.group(2))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A copy of the course with its caches, built once: the site every edit is put back to."""
    repo = copy_repo(tmp_path_factory.mktemp("warm") / "repo", with_cache=True)
    first = repo.parent / "first"
    build(repo, first)
    assert converted(build(repo, repo.parent / "again")) == 0  # nothing changed: nothing converted
    assert not differences(first, repo.parent / "again")
    return repo, first


def sentence(repo: Path, page: str) -> str:
    text = (repo / page).read_text(encoding="utf-8")
    return next(line for line in text.split("\n")
                if "。" in line and "{" not in line and line[:1] not in "#`!-|<>: \t" and "](" not in line)


def snippet(repo: Path) -> str:
    for page in sorted((repo / "docs").rglob("*.md")):
        found = re.search(r'--8<--\s*"(snippets/[^"]+)"', page.read_text(encoding="utf-8"))
        if found:
            return found.group(1)
    raise AssertionError("no page includes a snippet")


def edits(repo: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Each kind of edit: the (file, text, edited text) it makes, made and put back by the test.
    Prose and code edit every lesson at once: each lesson's page, each lesson's __init__.py."""
    out: dict[str, list[tuple[str, str, str]]] = {"prose": [], "code": []}
    for lesson in LESSONS:
        line = sentence(repo, lesson.page)
        out["prose"].append((lesson.page, line, line + ADDED))
        init = f"{lesson.folder}/__init__.py"
        text = (repo / init).read_text(encoding="utf-8")
        out["code"].append((init, text, text + "# 只是多了一行注释\n"))
    init = (repo / "tinylm/__init__.py").read_text(encoding="utf-8")
    out["tinylm"] = [("tinylm/__init__.py", init, init + "\n\ndef _unused():\n    return None\n")]
    shell = snippet(repo)
    text = (repo / shell).read_text(encoding="utf-8")
    out["snippet"] = [(shell, text, text + "# 只是多了一行注释\n")]
    config = (repo / "mkdocs.yml").read_text(encoding="utf-8")
    nav = re.search(r"\n  - (源码):", config)
    assert nav, "mkdocs.yml has no 源码 section"
    out["navigation"] = [("mkdocs.yml", nav.group(0), nav.group(0).replace("源码", "全部源码"))]
    out["configuration"] = [("mkdocs.yml", "permalink_title: 本节链接", "permalink_title: 链到本节")]
    return out


ADDED = "这是补上的一句。"
KINDS = ["prose", "code", "tinylm", "snippet", "navigation", "configuration"]


@pytest.mark.build
def test_a_copy_elsewhere_with_its_cache_converts_no_page_and_writes_the_same_bytes(course, tmp_path):
    """Conversions are keyed by paths relative to the repository: another clone at another path with
    the cache (a copy of a scratch course, a restored CI cache) converts nothing it need not."""
    repo, first = course
    clone = tmp_path / "elsewhere" / "clone"
    shutil.copytree(repo, clone, ignore=shutil.ignore_patterns("__pycache__"))
    assert converted(build(clone, tmp_path / "site")) == 0
    assert not differences(first, tmp_path / "site")


@pytest.mark.build
@pytest.mark.parametrize("kind", KINDS)
def test_a_warm_build_after_an_edit_is_byte_identical_to_a_cold_one(course, kind):
    """Three builds a kind (warm, cold, put back) and six kinds, whatever the number of lessons; each
    lesson is still covered: "prose" edits every lesson's page at once (each page converted again,
    and only those: one a lesson) and "code" every lesson's __init__.py at once, where a kind per
    lesson's page and one per its code made (2N + 4) × 3 builds for N lessons."""
    repo, first = course
    made = []
    try:
        for path, old, new in edits(repo)[kind]:
            edit(repo, path, old, new)
            made.append((path, old, new))
        log = build(repo, repo.parent / f"warm-{kind}")
        cold(repo, repo.parent / f"cold-{kind}")
        assert not differences(repo.parent / f"warm-{kind}", repo.parent / f"cold-{kind}")
        changed = differences(first, repo.parent / f"warm-{kind}")
        assert changed  # the edit shows somewhere
        pages = len(list((repo / "docs").rglob("*.md"))) + len(LESSONS)
        if kind == "prose":
            assert converted(log) == len(LESSONS)  # the lessons' pages alone, one a lesson
            assert [lesson.id for lesson in LESSONS if f"{lesson.url}index.html" not in changed] == []
        elif kind in ("code", "tinylm"):
            assert 0 < converted(log) < pages  # the pages of lessons that ran again, and their notebooks
    finally:
        for path, old, new in reversed(made):
            edit(repo, path, new, old)
    back = build(repo, repo.parent / f"back-{kind}")
    assert converted(back) == 0 and not differences(first, repo.parent / f"back-{kind}")  # put back: a hit


@pytest.mark.build
@pytest.mark.parametrize("added, said", [
    ("比如 0.123456 这个数。", "未绑定的数字 0.123456"),
    ("见[别处](nowhere.md)。", "nowhere.md"),  # a warning: --strict fails, and a kept conversion would say nothing
])
def test_a_page_with_a_problem_is_converted_and_reported_every_time(course, tmp_path, added, said):
    repo, _ = course
    lesson = LESSONS[0]
    line = sentence(repo, lesson.page)
    edit(repo, lesson.page, line, line + added)
    try:
        for attempt in (1, 2):
            result = mkdocs_build(repo, tmp_path / f"site{attempt}", **EPOCH)
            assert result.returncode != 0 and said in result.stderr, result.stderr[-2000:]
            assert converted(result.stderr) >= 1
    finally:
        edit(repo, lesson.page, line + added, line)


@pytest.mark.build
def test_conversions_kept_per_page_are_bounded(course):
    repo, _ = course
    folders = [p for p in (repo / ".cache/coursekit/converted").iterdir() if p.is_dir()]
    assert folders and all(len(list(f.glob("*.json"))) <= pagecache.KEEP for f in folders)
    searched = [p for p in (repo / ".cache/coursekit/search").iterdir() if p.is_dir()]
    assert searched and all(len(list(f.glob("*.json"))) <= pagecache.KEEP for f in searched)


def test_a_kept_record_used_again_outlives_newer_ones(tmp_path):
    """Pruning keeps the most recently used, not the most recently made: the test_warm course's first
    conversion, restored after each kind of edit is put back, survives the kinds' newer ones."""
    import os

    records = []
    for n in range(pagecache.KEEP + 2):
        path = tmp_path / f"{n}.json"
        path.write_text("{}", encoding="utf-8")
        os.utime(path, ns=(n * 10**9, n * 10**9))
        records.append(path)
    pagecache._used(records[0])  # the oldest made, used just now
    pagecache._prune(tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.json")) == sorted(
        p.name for p in [records[0], *records[-(pagecache.KEEP - 1):]])


def test_search_segments_the_same_words_from_the_dictionarys_table(tmp_path, monkeypatch):
    import jieba

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    full = jieba.Tokenizer()
    full.initialize()
    monkeypatch.setattr(jieba, "dt", full)
    segmenter.keep()  # after a build that loaded the dictionary
    assert segmenter.table(jieba).is_file() and segmenter.table(jieba).is_relative_to(tmp_path)
    looked_up = jieba.Tokenizer()
    monkeypatch.setattr(jieba, "dt", looked_up)
    assert segmenter.lazy() and isinstance(looked_up.FREQ, segmenter.Counts)
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        assert list(looked_up.cut(text)) == list(full.cut(text)), page
    own = jieba.Tokenizer()
    own.initialize()  # a tokenizer that loaded a dictionary (a user dictionary, say) keeps it
    monkeypatch.setattr(jieba, "dt", own)
    assert not segmenter.lazy() and not isinstance(own.FREQ, segmenter.Counts)


LAZY_PROBE = """
import sys
import coursekit.mkdocs_adapter.lazy_imports
import mkdocs_jupyter, mkdocs_jupyter.plugin
print(mkdocs_jupyter.__version__, "nbconvert" in sys.modules)
assert callable(mkdocs_jupyter.plugin.convert.nb2html)  # used: it loads
print("nbconvert" in sys.modules)
"""


def test_mkdocs_jupyter_loads_nbconvert_only_when_it_converts():
    import subprocess
    import sys

    import yaml

    out = subprocess.run([sys.executable, "-c", LAZY_PROBE], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.26.3", "False", "True"]  # the version the private use is pinned to
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in
               yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)["plugins"]]
    assert plugins.index("coursekit-lazy-imports") < plugins.index("mkdocs-jupyter")


def test_a_page_is_converted_again_when_any_file_it_includes_changes(tmp_path):
    """Inline, several-line and nested includes all reach the page's key (incremental.fingerprint)."""
    from coursekit.mkdocs_adapter import incremental

    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets").mkdir()
    page = tmp_path / "docs/page.md"
    page.write_text('正文。\n\n--8<--\nsnippets/block.md\n; snippets/ignored.md\n--8<--\n\n--8<-- "snippets/inline.md"\n'
                    "\n-8<- 'snippets/dash.md'\n\n--8<-- \"snippets/with space.md\"\n\n"
                    "```python exec='1' file='snippets/single.md:part snippets/second.md'\n```\n", encoding="utf-8")
    (tmp_path / "snippets/block.md").write_text('块。\n--8<-- "snippets/nested.md"\n', encoding="utf-8")
    kinds = ("inline", "nested", "ignored", "dash", "with space", "single", "second")
    for name in kinds:
        (tmp_path / f"snippets/{name}.md").write_text(name, encoding="utf-8")
    key = lambda: incremental.fingerprint(tmp_path, page, {}, lambda: "")  # noqa: E731
    before = key()
    for name in ("block", *kinds):
        counts = name != "ignored"
        file = tmp_path / f"snippets/{name}.md"
        file.write_text(file.read_text(encoding="utf-8") + "改了", encoding="utf-8")
        assert (key() != before) is counts, name
        before = key()


def test_serve_rebuilds_a_lesson_page_when_its_reviewed_record_is_confirmed(tmp_path):
    """confirm_shown.py rewrites lessons/lNN/reviewed.json and nothing else: serve's rebuild
    (incremental.mark_stale, by this fingerprint) must convert the page again, or its box stays red."""
    from coursekit.core import shown
    from coursekit.mkdocs_adapter import incremental

    page, other = tmp_path / "docs/lessons/97-x.md", tmp_path / "docs/index.md"
    page.parent.mkdir(parents=True)
    page.write_text("# 草稿\n\n正文。\n", encoding="utf-8")
    other.write_text("# 首页\n", encoding="utf-8")
    record = shown.record_path(tmp_path, "docs/lessons/97-x.md")
    record.parent.mkdir(parents=True)
    record.write_text(shown.as_record("docs/lessons/97-x.md", []), encoding="utf-8")
    key = lambda p: incremental.fingerprint(tmp_path, p, {}, lambda: "")  # noqa: E731
    before, home = key(page), key(other)
    record.write_text(shown.as_record("docs/lessons/97-x.md", [shown.Shown(3, shown.EXECUTED, "print(1)", "1\n")]),
                      encoding="utf-8")
    assert key(page) != before and key(other) == home  # only the page the record confirms


@pytest.mark.build
def test_confirming_a_page_that_did_not_change_says_so_from_a_warm_cache(course):
    """confirm_shown.py's build converts every lesson page (it records what each shows), cache or not."""
    import subprocess
    import sys

    repo, _ = course
    out = subprocess.run([sys.executable, "scripts/confirm_shown.py", LESSONS[0].page], cwd=repo,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and "没有要确认的" in out.stdout, out.stdout + out.stderr


def test_a_page_that_names_its_lesson_in_front_matter_is_keyed_by_that_lessons_run(tmp_path):
    """A red-team finding: docs/code pages bind a lesson's numbers through `session:` in their front
    matter; their key lacked that lesson's run, so a drift there was hidden by a kept conversion."""
    from types import SimpleNamespace

    lesson = LESSONS[0]
    front = lambda p: p.read_text(encoding="utf-8").split("\n---\n", 1)[0]  # noqa: E731
    page = next(p for p in sorted((ROOT / "docs/code").rglob("*.md")) if f"\nsession: {lesson.id}\n" in front(p) + "\n")
    text = page.read_text(encoding="utf-8")
    file = SimpleNamespace(abs_src_path=str(page), src_uri=page.relative_to(ROOT / "docs").as_posix(), content_string=text)

    def key(run_key: str) -> str:
        build = SimpleNamespace(cache=tmp_path, versions={}, lessons={lesson.id: None},
                                run=lambda lesson_id: SimpleNamespace(key=run_key))
        return pagecache.PageCache(build, ROOT, {}, [file]).key(SimpleNamespace(file=file))

    assert key("first run") != key("second run")


@pytest.mark.build
def test_a_page_whose_block_reads_a_file_no_run_reads_is_converted_again_when_it_changes(course, tmp_path):
    """A page's kept conversion holds what its blocks imported and read: editing a module only a
    block imports converts that page again (it shows the new output), and only that page."""
    repo, _ = course
    module, page = repo / "tinylm/_only_a_block_reads.py", repo / "docs/_block_page.md"
    module.write_text("N = 1\n", encoding="utf-8")
    page.write_text("# 只有代码块读的文件\n\n```python exec=\"1\"\nfrom tinylm._only_a_block_reads import N\n"
                    "print(f'N 是 {N}')\n```\n", encoding="utf-8")
    try:
        build(repo, tmp_path / "one")
        assert converted(build(repo, tmp_path / "two")) == 0
        module.write_text("N = 2\n", encoding="utf-8")
        assert converted(build(repo, tmp_path / "three")) == 1
        assert "N 是 2" in (tmp_path / "three/_block_page/index.html").read_text(encoding="utf-8")
    finally:
        module.unlink()
        page.unlink()
