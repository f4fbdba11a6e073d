"""`mkdocs serve` while an author writes: edits show up, problems show on the page, headed by what
happened, nothing a lesson's code does takes the server down or outlives the fix. The page edited
is a scratch lesson's (tests/scratch_lesson.py), numbered after every lesson the course has.

One copy and one `mkdocs serve` serve the whole module: each test makes its edits, and the `serve`
fixture puts every file back afterwards and waits until the served pages are what they were before
the test, so the next test starts from the same state."""

import os
import re
import shutil
import time
from dataclasses import replace

import pytest
from bs4 import BeautifulSoup

from scripts.drive import MkdocsServe
from tests.conftest import edit
from tests.scratch_lesson import SUMMARY, scratch_prototype, set_time_limit  # noqa: F401 - fixtures

pytestmark = pytest.mark.build


class Serve(MkdocsServe):
    """`mkdocs serve` of a copy with a scratch lesson; pages are the scratch lesson's unless named."""

    def __init__(self, lesson):
        self.lesson = lesson
        super().__init__(lesson.repo)

    def page(self, path: str | None = None) -> str:
        return super().page(self.lesson.url if path is None else path)

    def wait_for(self, text: str, seconds: float = 90, poll: float = 0.01, path: str | None = None) -> str:
        return super().wait_for(text, seconds, poll, self.lesson.url if path is None else path)

    def wait_until_clean(self, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        while "drift-report" in (html := self.page()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "drift-report" not in html and self.proc.poll() is None
        return html


@pytest.fixture(scope="module")
def lesson(scratch_prototype, tmp_path_factory):
    """The module's copy of the repository with the default scratch lesson."""
    repo = tmp_path_factory.mktemp("serve") / "repo"
    shutil.copytree(scratch_prototype.repo, repo, ignore=shutil.ignore_patterns("site", "__pycache__"))
    return replace(scratch_prototype, root=repo)


@pytest.fixture(scope="module")
def server(lesson):
    server = Serve(lesson)
    server.wait_for("第二个实验")
    yield server
    server.stop()


def watched_files(lesson) -> dict:
    """What the tests edit: the lesson's page and package, and two other pages."""
    files = [lesson.repo / lesson.page, lesson.repo / "docs/index.md", lesson.repo / "docs/setup.md"]
    files += [p for p in (lesson.repo / lesson.folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return {p: p.read_bytes() for p in files}


def served(server) -> dict[str, str]:
    """The text of the pages the tests change, as served now (the lesson's, its notebook's, the home
    page, the setup page); None where the server does not answer."""
    lesson = server.lesson
    out = {}
    for path in (lesson.url, lesson.notebook_url, "", "setup/"):
        article = BeautifulSoup(server.page(path), "html.parser").select_one("article")
        out[path] = " ".join(article.get_text(" ").split()) if article else None
    return out


def wait_until_rebuilt(server, mark: int, seconds: float = 120) -> None:
    """Until the server has rebuilt after log line `mark` (what changed since is in) and no rebuild
    is pending: a "Reloading browsers" after `mark`, and no "Detected file changes" after the last one."""
    deadline = time.monotonic() + seconds
    while True:
        lines = server.lines[mark:]
        reloads = [i for i, x in enumerate(lines) if "Reloading browsers" in x]
        if reloads and not any("Detected file changes" in x for x in lines[reloads[-1]:]):
            return
        if time.monotonic() > deadline or server.proc.poll() is not None:
            raise TimeoutError("no rebuild after the files were put back\n" + "".join(server.lines[-20:]))
        time.sleep(0.05)


@pytest.fixture
def serve(lesson, server):
    """The module's server; after the test, every file it changed put back (what it added removed),
    and the served pages waited for until they are as before the test."""
    saved, before = watched_files(lesson), served(server)
    assert None not in before.values() and "drift-report" not in server.page(), before
    yield server
    mark, changed = len(server.lines), False
    for path in set(watched_files(lesson)) - set(saved):
        path.unlink()  # e.g. an experiment file renamed by the test and not renamed back
        changed = True
    for path, content in saved.items():
        if not path.exists() or path.read_bytes() != content:
            path.write_bytes(content)
            changed = True
    assert not (lesson.repo / "docs/from-a-block.md").exists()
    if changed:
        wait_until_rebuilt(server, mark)
    deadline = time.monotonic() + 120
    while (now := served(server)) != before and time.monotonic() < deadline and server.proc.poll() is None:
        time.sleep(0.2)
    assert now == before, {p: (before[p], now[p]) for p in before if before[p] != now[p]}
    server.wait_until_clean()


def headline(html: str) -> str:
    return re.search(r'drift-report".*?<p class="admonition-title">(.*?)</p>', html, re.S).group(1)


def test_serve_prints_the_drift_and_marks_it_on_the_served_page(lesson, serve):
    line = edit(lesson.repo, lesson.page, "约为 2.3333{=a.mean()}", "约为 2.3334{=a.mean()}")
    html = serve.wait_for("drift-report")
    message = f"{lesson.page}:{line}: 数字漂移：正文写 2.3334，代码现算 2.333"
    serve.wait_for_log(message)  # the reader thread may be a moment behind the page
    assert message in html
    assert headline(html) == "数字漂移：本页有 1 处数字与现算结果不符"
    assert "2.3334" in html.split('<mark class="drift">')[1].split("</mark>")[0]
    edit(lesson.repo, lesson.page, "约为 2.3334{=a.mean()}", "约为 2.3333{=a.mean()}")
    serve.wait_for("约为 2.3333")
    assert "drift-report" not in serve.page()


def test_serve_shows_an_experiment_edit_in_the_page_and_the_notebook(lesson, serve):
    edit(lesson.repo, lesson.file("first"), "a = torch.tensor([1., 2., 4.])", "# 改过的注释\na = torch.tensor([1., 2., 4.])")
    html = serve.wait_for("改过的注释")
    assert headline(html) == "展示的内容变了：本页有 1 处代码或输出与确认过的记录不同，请核对正文"  # a shown listing changed
    serve.wait_for("改过的注释", path=lesson.notebook_url)
    edit(lesson.repo, lesson.file("first"), "a = torch.tensor([1., 2., 4.])", "a = torch.tensor([1., 2., 4., 0.])")
    serve.wait_for("代码现算 1.75")  # the page ran the edited lesson code, not a stale import


def test_serve_names_a_listing_that_cannot_run_pasted_in_page_order(lesson, serve):
    line = edit(lesson.repo, lesson.file("first"), "# --8<-- [start:listing]\nimport torch\n\n",
                "import torch\n\n# --8<-- [start:listing]\n")
    message = (f"{lesson.page}:{lesson.listing_line('first')}: 这段代码按页面顺序粘贴运行会出错：用到 torch，"
               f"它由 {lesson.file('first')}:{line} 定义，那一行页面上没有展示")
    html = serve.wait_for(message)
    assert "drift-report" in html and message in serve.wait_for_log(message)


def test_a_lesson_summary_edit_reaches_the_home_page_table(lesson, serve):
    """The home page's table is made from every lesson's SUMMARY: an incremental rebuild redoes it."""
    assert SUMMARY in serve.page("")
    edit(lesson.repo, f"{lesson.folder}/__init__.py", SUMMARY, "改过的一句话简介")
    serve.wait_for("改过的一句话简介", path="")
    assert SUMMARY not in serve.page("")


def test_a_failing_experiment_is_named_at_its_block_with_its_message_and_what_ran_stays(lesson, serve):
    check, failing = 'assert b.sum() == 14, "加倍后的和应是 14"', 'assert b.sum() == 15, "加倍后的和应是 15"'
    line = edit(lesson.repo, lesson.file("second"), check, failing)
    html = serve.wait_for("drift-report")
    message = (f"{lesson.page}:{lesson.listing_line('second')}: "
               f"本讲的代码运行失败（{lesson.file('second')}:{line}）：核对失败：加倍后的和应是 15")
    assert message in html and message in serve.wait_for_log(message)
    assert headline(html) == "代码运行失败：本页有 1 处代码出错"
    assert "平均： tensor(2.3333)" in html  # the first experiment ran: its output stays on the page
    serve.wait_for_log(f"重新运行第 {int(lesson.number)} 讲（{lesson.package}）")  # the log names the lesson, after the pages
    edit(lesson.repo, lesson.file("second"), failing, check)
    html = serve.wait_until_clean()
    assert "加倍： tensor([2., 4., 8.])" in html


def test_a_failing_block_and_a_drifted_number_are_both_in_the_headline(lesson, serve):
    edit(lesson.repo, lesson.page, "到这里就结束了。", "到这里就结束了。\n" + BLOCK.format(code="1 / 0"))
    edit(lesson.repo, lesson.page, "约为 4.6667{=b.mean()}", "约为 4.6668{=b.mean()}")
    html = serve.wait_for("4.6668")
    assert headline(html) == "代码运行失败，数字也漂移了：本页有 1 处代码出错、1 处数字与现算结果不符", headline(html)
    assert "平均： tensor(2.3333)" in html and "加倍： tensor([2., 4., 8.])" in html  # a block failed, the lesson ran


BLOCK = "\n```python exec=\"1\"\n{code}\n```\n"
ANCHOR = "## 第二个实验"


def add_block(lesson, code: str) -> None:
    edit(lesson.repo, lesson.page, ANCHOR, BLOCK.format(code=code) + "\n" + ANCHOR)


def remove_block(lesson, code: str) -> None:
    edit(lesson.repo, lesson.page, BLOCK.format(code=code) + "\n", "")


@pytest.mark.parametrize("code, message", [
    ("import sys\nsys.exit(0)", "代码调用了 sys.exit(0)"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    ("import os\nos._exit(3)", "意外退出（退出码 3）"),
    ("print('x' * 10_000_000)", "打印超过 100000 个字符的上限"),
    ("open('docs/from-a-block.md', 'w').write('# x')", "不能写入受监视的源文件夹"),
])
def test_serve_survives_a_block_that_would_take_it_down_and_recovers_when_it_is_removed(lesson, serve, code, message):
    add_block(lesson, code)
    html = serve.wait_for("drift-report")
    assert message in html and message in serve.wait_for_log(message)
    assert f"{lesson.page}:" in html and headline(html).startswith("代码运行失败")
    remove_block(lesson, code)
    serve.wait_for("第二个实验")
    serve.wait_until_clean()
    assert not (lesson.repo / "docs/from-a-block.md").exists()


def test_serve_stops_an_endless_loop_at_the_time_limit(lesson, serve):
    set_time_limit(lesson, 3)
    start = time.monotonic()
    add_block(lesson, "while True:\n    pass")
    html = serve.wait_for("drift-report", seconds=60)
    assert "超过时间上限 3 秒" in html and time.monotonic() - start < 30
    remove_block(lesson, "while True:\n    pass")
    serve.wait_for("第二个实验")
    serve.wait_until_clean()  # (the `serve` fixture puts the time limit back)


def test_a_torch_patch_in_a_block_is_gone_once_the_block_is_removed(lesson, serve):
    patch = "import torch\ntorch.softmax = lambda s, dim: s * 0"
    probe = "import torch\nprint('probe', torch.softmax(torch.zeros(2), dim=0))"
    add_block(lesson, patch)
    add_block(lesson, probe)  # lands below the patch
    serve.wait_for("probe tensor([0., 0.])")
    remove_block(lesson, patch)
    html = serve.wait_for("probe tensor([0.5000, 0.5000])")
    assert "代码块执行出错" not in html  # (the box says the probe is a block not yet confirmed)


def search_entries(serve) -> list[dict]:
    import json

    return json.loads(serve.page("search/search_index.json"))["docs"]


# Pages edited in one save: one page; two at once (Material's own merge indexed the second twice);
# the home page, whose URL "" is a prefix of every other (Material's merge emptied the index).
# (None: the scratch lesson's page.)
LESSON_EDIT = (None, "这一段只是为了让页面有几句正文。", "这一段只是为了让页面有几句正文（搜索标记甲）。", None)
EDITS = {
    "lesson": [LESSON_EDIT],
    "two pages": [LESSON_EDIT, ("docs/setup.md", "\n\n", "\n\n搜索标记乙。\n\n", "setup/")],
    "home": [("docs/index.md", "\n\n", "\n\n搜索标记丙。\n\n", "")],
}


@pytest.mark.parametrize("name", EDITS)
def test_after_an_incremental_rebuild_the_search_index_is_whole_and_current(lesson, serve, name):
    before = search_entries(serve)
    for path, old, new, _ in EDITS[name]:
        edit(lesson.repo, path or lesson.page, old, new)
    for _, _, new, url in EDITS[name]:
        serve.wait_for(new.strip(), path=url)  # url None: the lesson's page
    marks = [re.search("搜索标记.", new).group(0) for _, _, new, _ in EDITS[name]]
    deadline = time.monotonic() + 10
    while True:
        after = search_entries(serve)
        text = " ".join(e["text"].replace("\u200b", "") for e in after)  # jieba's zero-width spaces
        if all(m in text for m in marks) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert all(m in text for m in marks), marks
    assert sorted(e["location"] for e in after) == sorted(e["location"] for e in before)  # none lost, none twice


def test_serve_keeps_answering_while_an_included_experiment_file_is_gone_and_recovers(lesson, serve):
    """Deleting (or renaming) a file a page includes used to leave the server answering nothing."""
    source = lesson.file("second")
    edit(lesson.repo, lesson.page, "到这里就结束了。", f'到这里就结束了。\n\n```python\n--8<-- "{source}"\n```\n')
    serve.wait_for("用第一个实验的数")  # the include is on the page (its docstring)
    serve.wait_until_clean()
    moved = lesson.repo / (source + ".moved")
    (lesson.repo / source).rename(moved)
    html = serve.wait_for("drift-report")
    assert f"引入的 {source} 不存在：找不到文件 {source}" in html  # the box escapes --8<--
    assert "要展示的文件" in html or "找不到实验文件" in html  # its listing block and its lesson say so too
    assert serve.proc.poll() is None and "server will appear stuck" not in serve.log
    moved.rename(lesson.repo / source)
    html = serve.wait_until_clean()
    assert "加倍： tensor([2., 4., 8.])" in html


def test_serve_shows_a_file_caught_mid_save_and_recovers_on_the_next_save(lesson, serve):
    """An editor's save caught half-way (an experiment cut short, a page cut inside a block): the
    server keeps answering with the problem in the box, and the next save puts it right."""
    path = lesson.repo / lesson.file("second")
    whole = path.read_text(encoding="utf-8")
    path.write_text(whole[: whole.index("print(") + len("print(")], encoding="utf-8")
    html = serve.wait_for("drift-report")
    assert "SyntaxError" in html and serve.proc.poll() is None
    path.write_text(whole, encoding="utf-8")
    serve.wait_until_clean()
    page = lesson.repo / lesson.page
    text = page.read_text(encoding="utf-8")
    cut = text.index('```python exec="1" file=') + len('```python exec="1" file=')
    page.write_text(text[:cut], encoding="utf-8")
    deadline = time.monotonic() + 60
    while "加倍： tensor([2., 4., 8.])" in serve.page() and time.monotonic() < deadline:
        time.sleep(0.1)  # until the cut page is served
    assert "加倍： tensor([2., 4., 8.])" not in serve.page() and serve.proc.poll() is None  # it still answers
    page.write_text(text, encoding="utf-8")
    html = serve.wait_until_clean()
    assert "加倍： tensor([2., 4., 8.])" in html



def _keep_time_and_size(path, old: str, new: str) -> None:
    """Replace `old` by `new` (as long) in `path`, as a tool that keeps modification times does."""
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    assert old in text and len(old.encode()) == len(new.encode())
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)


@pytest.mark.parametrize("edited", ["data", "page"])
def test_serve_shows_an_edit_that_kept_its_size_and_time_within_two_seconds(lesson, serve, edited):
    """A data file the lesson reads, or the page itself, changed by a tool that puts the modification
    time back (same size): MkDocs' watcher compares times and sizes only, and its dirty build rebuilds
    a page whose source is newer than its output; both showed the old numbers until another save."""
    data = lesson.repo / lesson.folder / "numbers.txt"
    data.write_text("1 2 4\n", encoding="utf-8")
    first = lesson.repo / lesson.file("first")
    first.write_text(first.read_text(encoding="utf-8") + "\nfrom pathlib import Path\n\n"
                     'c = [float(x) for x in Path(__file__).with_name("numbers.txt").read_text(encoding="utf-8").split()]\n',
                     encoding="utf-8")
    edit(lesson.repo, lesson.page, "到这里就结束了。", "到这里就结束了。数据的和是 7{=sum(c)}。")
    serve.wait_for("数据的和是 7。")
    serve.wait_until_clean()
    if edited == "data":
        _keep_time_and_size(data, "1 2 4", "1 2 5")
    else:
        _keep_time_and_size(lesson.repo / lesson.page, "数据的和是 7{", "数据的和是 8{")
    saved = time.monotonic()
    serve.wait_for("正文写 7，代码现算 8" if edited == "data" else "正文写 8，代码现算 7", seconds=30)
    assert time.monotonic() - saved < 2, time.monotonic() - saved


def test_a_glossary_edit_takes_effect_under_serve(lesson, serve):
    """The guard reads the course's words once, when the kit is imported: an edit of the glossary
    restarts serve in place (same process, same address), and the page is checked with the new words."""
    edit(lesson.repo, lesson.page, "到这里就结束了。", "到这里就结束了。槽 3 空着。")
    serve.wait_for("未绑定的数字 3")
    glossary = lesson.repo / "lessons/glossary.toml"
    saved, pid = glossary.read_text(encoding="utf-8"), serve.proc.pid
    assert 'labels = ["头", "层"]' in saved
    try:
        mark = len(serve.lines)
        glossary.write_text(saved.replace('labels = ["头", "层"]', 'labels = ["头", "层", "槽"]'), encoding="utf-8")
        serve.wait_for_log("serve 重新启动", seconds=60)
        html = serve.wait_for("槽 3 空着", seconds=120)  # served by the new process once it has built
        assert "drift-report" not in html and serve.proc.pid == pid  # 槽 3 is a label now, no claim
        assert sum("serve 重新启动" in x for x in serve.lines[mark:]) == 1
    finally:
        glossary.write_text(saved, encoding="utf-8")
        serve.wait_for("未绑定的数字 3", seconds=120)
