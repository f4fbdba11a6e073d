"""Real builds, as an author or CI runs them: a lesson that builds on an earlier one, every way a
lesson's code can fail stopping `mkdocs build --strict` with its page and line, and Zensical.
The lessons built here are scratch lessons of their own (tests/scratch_lesson.py), numbered after
every lesson the course has: these tests hold whatever lessons exist.

A few real builds serve every test: one clean copy (two scratch lessons, the later importing the
earlier) built by MkDocs and by Zensical; one deliberately broken copy carrying every way lesson
code can fail, each fault in a scratch lesson of its own, built once with `mkdocs build --strict`
(the kit checks every page, then fails once naming each page with a problem), each test reading
its own fault's `file:line` and message from that one log; and one broken copy built by Zensical."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

import nbformat
import pytest
from bs4 import BeautifulSoup

from tests.conftest import edit, mkdocs_build
from tests.scratch_lesson import Scratch, confirm, free_numbers, make_lesson, set_time_limit

pytestmark = pytest.mark.build

LATER_CODE = '''\
    """reuse：直接用前一讲算好的 b。"""
    # --8<-- [start:listing]
    from lessons.lEARLIER.second import b

    total = b.sum()
    print("接着前一讲，b 的和：")
    print(total)
    # --8<-- [end:listing]
    '''
LATER_PAGE = '''\
b 的和是 14{=total}，b 的形状是 [3]{=b.shape}。

```python exec="1" file="lessons/lNN/reuse.py:listing" source="above" result="output"
```
'''


@dataclass(frozen=True)
class Course:
    repo: object
    site: object  # MkDocs' build of the copy (Zensical's goes to repo/site)
    earlier: Scratch
    later: Scratch


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Course:
    """A repository copy with two scratch lessons, the later importing what the earlier computed,
    built once by MkDocs (the earlier one is the default scratch lesson: Zensical's tests read it too)."""
    from tests.conftest import copy_repo

    tmp = tmp_path_factory.mktemp("later")
    repo = copy_repo(tmp / "repo", with_cache=True)
    first, second = free_numbers(repo, 2)
    earlier = make_lesson(repo, first, "earlier", "前一讲：平均")
    later = make_lesson(repo, second, "later", "后一讲：接着算",
                        files={"reuse": ("接着前一讲", LATER_CODE.replace("lEARLIER", earlier.id))}, page=LATER_PAGE)
    confirm(earlier, later)
    result = mkdocs_build(repo, tmp / "mkdocs", SOURCE_DATE_EPOCH="1700000000")
    assert result.returncode == 0, result.stderr
    return Course(repo, tmp / "mkdocs", earlier, later)


def test_a_later_lesson_imports_an_earlier_one_on_the_page(course):
    soup = BeautifulSoup((course.site / course.later.url / "index.html").read_text(encoding="utf-8"), "html.parser")
    output = soup.select_one("div.language-output").get_text()
    assert "接着前一讲，b 的和" in output and "加倍：" not in output  # the earlier lesson's prints stay out
    assert "b 的和是 14，b 的形状是 [3]。" in soup.get_text()


def test_a_later_lesson_imports_an_earlier_one_from_the_command_line(course):
    run = subprocess.run([sys.executable, "-m", course.later.package], cwd=course.repo, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "接着前一讲，b 的和" in run.stdout and "加倍：" not in run.stdout


def test_a_later_lesson_imports_an_earlier_one_in_its_notebook_which_runs_on_its_own(course):
    from nbclient import NotebookClient

    later = course.later
    nb = nbformat.read(course.site / later.notebook_url / f"{later.number}-notebook.ipynb", as_version=4)
    shown = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert any("接着前一讲，b 的和" in o for o in shown) and not any("加倍：" in o for o in shown)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(nb, timeout=300, resources={"metadata": {"path": str(course.repo)}}).execute()
    assert "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs) == "".join(shown)


# ---- every way lesson code can fail: one broken copy, one strict build, one log -------------------

BLOCK = '\n```python exec="1"\n{code}\n```\n'
ANCHOR = "## 第二个实验"

FAULTS = [
    ("block", "import sys\nsys.exit(0)", "代码调用了 sys.exit(0)", 2),
    ("block", "raise KeyboardInterrupt", "KeyboardInterrupt", 1),
    ("block", "import os\nos._exit(3)", "意外退出（退出码 3）", None),
    ("block", "print('x' * 10_000_000)", "打印超过 100000 个字符的上限", 1),
    ("block", "while True:\n    pass", "超过时间上限 3 秒", (1, 2)),  # stopped on either line of the loop
    ("block", "x = 1\nassert x == 2", "核对失败：assert x == 2", 2),
    ("second", "import sys\nsys.exit()", "代码调用了 sys.exit(None)", 2),
    ("second", "open('docs/x.md', 'w')", "不能写入受监视的源文件夹", 1),
    ("second", "while True:\n    pass", "超过时间上限 3 秒", (1, 2)),
    ("first", "raise ValueError('第一个实验就出错')", "ValueError: 第一个实验就出错", 1),
    ("second", "import random\npick = random.random()", "用了没有种子的随机数（Python 的 random）", 2),
    ("block", "import time\nstarted = time.time()", "：time.time() 读的是钟表时间", 2),
]
CHECKS = [
    ('assert b.sum() == 15, "加倍后的和应是 15"', "核对失败：加倍后的和应是 15"),  # its own message
    ("assert b.sum() == 15", "核对失败：assert b.sum() == 15"),  # none: its source
]
# the import a listing needs moved just above its shown section: the run is green, a reader's paste is not
PASTED = ("# --8<-- [start:listing]\nimport torch\n\n", "import torch\n\n# --8<-- [start:listing]\n")
# one name, two values, in two experiment files (outside their listings: what the page shows is as confirmed)
NAMES = (("first", "n_heads = 2"), ("second", "n_heads = 4"))


def insert_at_the_top(lesson, name: str, code: str) -> int:
    """Put `code` under the first import of experiment `name`; the line it starts on."""
    path = lesson.file(name)
    first_import = next(s for s in (lesson.repo / path).read_text(encoding="utf-8").split("\n") if "import " in s)
    return edit(lesson.repo, path, first_import + "\n", f"{first_import}\n{code}\n") + 1


def put_fault(lesson, where: str, code: str, failing_line) -> list[list[str]]:
    """Put one fault into the lesson; what the build must say of it (each list: one of its lines)."""
    offsets = failing_line if isinstance(failing_line, tuple) else (failing_line,)
    if where == "block":
        fence = edit(lesson.repo, lesson.page, ANCHOR, BLOCK.format(code=code) + "\n" + ANCHOR) + 1
        expected = [[f"{lesson.page}:{fence}: 代码块执行出错"]]
        if failing_line:
            expected.append([f"（第 {fence + n} 行）" for n in offsets])
        return expected
    # reported at the block that shows the experiment, not at the page's title
    line = insert_at_the_top(lesson, where, code)
    return [[f"{lesson.page}:{lesson.listing_line(where)}: 本讲的代码运行失败（{lesson.file(where)}:{line + n - 1}）"
             for n in offsets]]


@dataclass(frozen=True)
class Broken:
    result: subprocess.CompletedProcess  # the strict build's
    lessons: dict  # fault (FAULTS' (where, code), CHECKS' check) -> its scratch lesson
    expected: dict  # fault -> what the build must say of it
    messages: dict  # fault -> its message

    def lines_saying(self, message: str) -> list[str]:
        return [x for x in self.result.stderr.splitlines() if message in x]

    def pages_saying(self, message: str) -> set[str]:
        """The pages whose own fault's message contains `message`."""
        return {self.lessons[f].page for f, m in self.messages.items() if message in m}


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> Broken:
    """A repository copy with one scratch lesson per fault (each its own page and experiments, each
    with a 3 s time limit), confirmed while clean, then broken, then built once with --strict."""
    from tests.conftest import copy_repo

    tmp = tmp_path_factory.mktemp("broken")
    repo = copy_repo(tmp / "repo", with_cache=True)
    faults = [(where, code) for where, code, _, _ in FAULTS] + [check for check, _ in CHECKS] + [PASTED, NAMES]
    messages = dict(zip(faults, [m for *_, m, _ in FAULTS] + [m for _, m in CHECKS] + ["按页面顺序粘贴运行会出错", "值不同"]))
    lessons = {fault: make_lesson(repo, number, f"fault-{number}", f"草稿：第 {number} 讲出错的样子")
               for fault, number in zip(faults, free_numbers(repo, len(faults)))}
    confirm(*lessons.values())
    for lesson in lessons.values():
        set_time_limit(lesson, 3)
    expected = {}
    for where, code, _, failing_line in FAULTS:
        expected[(where, code)] = put_fault(lessons[(where, code)], where, code, failing_line)
    for check, _ in CHECKS:
        lesson = lessons[check]
        expected[check] = edit(repo, lesson.file("second"), 'assert b.sum() == 14, "加倍后的和应是 14"', check)
    expected[PASTED] = edit(repo, lessons[PASTED].file("first"), *PASTED)  # the import's line
    for name, line in NAMES:
        path = repo / lessons[NAMES].file(name)
        path.write_text(path.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")
    return Broken(mkdocs_build(repo, tmp / "site"), lessons, expected, messages)


@pytest.mark.parametrize("where, code, message, failing_line", FAULTS)
def test_every_way_lesson_code_can_fail_stops_the_strict_build_naming_page_and_line(
        broken, where, code, message, failing_line):
    result, page = broken.result, broken.lessons[(where, code)].page
    assert result.returncode != 0
    assert all(any(e in result.stderr for e in alternatives) for alternatives in broken.expected[(where, code)]), \
        result.stderr
    assert message in result.stderr, result.stderr
    assert "WARNING" not in result.stderr  # one cause, one error: no second report of the same block
    saying = broken.lines_saying(message)
    assert len([x for x in saying if f"{page}:" in x]) == 1, saying  # once for this page
    # and nowhere else but at the other pages whose fault says the same (the two endless loops)
    assert [x for x in saying if not any(f"{p}:" in x for p in broken.pages_saying(message))] == [], saying


@pytest.mark.parametrize("check, message", CHECKS)
def test_a_failing_check_says_what_it_checked_at_the_block_that_shows_it(broken, check, message):
    result, lesson, line = broken.result, broken.lessons[check], broken.expected[check]
    assert result.returncode != 0
    shown = lesson.listing_line("second")
    assert f"{lesson.page}:{shown}: 本讲的代码运行失败（{lesson.file('second')}:{line}）：{message}\n" in result.stderr, \
        result.stderr
    assert "AssertionError" not in result.stderr and "WARNING" not in result.stderr


def test_a_listing_that_cannot_run_pasted_in_page_order_fails_the_build_at_its_line(broken):
    result, lesson = broken.result, broken.lessons[PASTED]
    assert result.returncode != 0
    said = [x for x in broken.lines_saying("按页面顺序粘贴运行会出错") if f"{lesson.page}:" in x]
    message = (f"{lesson.page}:{lesson.listing_line('first')}: 这段代码按页面顺序粘贴运行会出错：用到 torch，"
               f"它由 {lesson.file('first')}:{broken.expected[PASTED]} 定义，那一行页面上没有展示；"
               "把那一行放进展示的段落，或在前面的代码块里展示它")
    assert len(said) == 1 and said[0].endswith(message), result.stderr


def test_a_name_two_experiment_files_define_with_different_values_fails_the_build_at_both_lines(broken):
    """One namespace per lesson (coursekit.core.names): n_heads is 2 in one file and 4 in the next;
    `a`, which the second imports from the first, is one value and no problem."""
    result, lesson = broken.result, broken.lessons[NAMES]
    (one, first), (two, second) = [(f"{lesson.file(n)}:{lesson.line_of(code, lesson.file(n))}", code[-1]) for n, code in NAMES]
    said = [x for x in broken.lines_saying("在本讲的两个实验文件里值不同") if lesson.folder in x]
    assert result.returncode != 0
    assert len(said) == 2, result.stderr
    assert any(f"{one}: n_heads 在本讲的两个实验文件里值不同：这里是 {first}，{two}（{second}）；" in x for x in said), said
    assert any(f"{two}: n_heads 在本讲的两个实验文件里值不同：这里是 {second}，{one}（{first}）；" in x for x in said), said


# ---- Zensical -----------------------------------------------------------------------------------


def zensical(repo):
    """The site built by Zensical, as 如何写一讲 says to: through the kit's Zensical adapter."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    return subprocess.run([sys.executable, "-m", "coursekit.zensical_adapter", "build"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)


def article_texts(site) -> dict[str, str]:
    """Each HTML page of a built site: its article's text, whitespace folded (None: no article)."""
    out = {}
    for path in sorted(site.rglob("*.html")):
        article = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").select_one("article")
        out[path.relative_to(site).as_posix()] = " ".join(article.get_text(" ").split()) if article else None
    return out


@pytest.fixture(scope="module")
def zensical_course(course) -> Course:
    """The clean copy built by Zensical too (into repo/site), once."""
    result = zensical(course.repo)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return course


def test_zensical_builds_the_same_site_as_mkdocs(zensical_course):
    """Every page MkDocs builds (notebook pages too), with the same article text (the footer, the
    home page's table, each lesson's live numbers and outputs), and the same notebooks to download."""
    mkdocs_site, zensical_site = zensical_course.site, zensical_course.repo / "site"
    ours, theirs = article_texts(mkdocs_site), article_texts(zensical_site)
    assert sorted(ours) == sorted(theirs)
    assert [p for p in ours if ours[p] != theirs[p]] == []
    assert any(p.endswith("-notebook/index.html") for p in ours) and any("本页构建自提交" in (t or "") for t in ours.values())
    notebooks = lambda site: {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*.ipynb")}  # noqa: E731
    assert notebooks(mkdocs_site) == notebooks(zensical_site) != {}
    home = lambda site: (site / "index.html").read_text(encoding="utf-8")  # noqa: E731
    assert ">MkDocs</a>" in home(mkdocs_site) and ">Zensical</a>" in home(zensical_site)  # who built it


def test_zensical_serve_shows_a_saved_page_and_a_changed_experiments_notebook(tmp_path):
    """The adapter's serve copies a page saved under docs/ to Zensical's staging folder, and makes
    a lesson's notebook again when its code changes (coursekit/README.md, "Two builders")."""
    from scripts.drive import MkdocsServe, course_lessons
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path / "repo", with_cache=True)
    lesson = course_lessons(repo)[0]
    server = MkdocsServe(repo, "zensical")
    try:
        server.wait_for("</html>", seconds=600, path=lesson.url)
        page = repo / lesson.page
        page.write_text(page.read_text(encoding="utf-8").rstrip("\n") + "\n\n新加的一段：zensical-saved。\n", encoding="utf-8")
        server.wait_for("zensical-saved", seconds=300, path=lesson.url)
        before, text = page.stat(), page.read_text(encoding="utf-8")
        page.write_text(text.replace("zensical-saved", "zensical-SAVED"), encoding="utf-8")  # same size,
        os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))  # its time put back: seen by content
        server.wait_for("zensical-SAVED", seconds=300, path=lesson.url)
        code = repo / lesson.folder / f"{lesson.experiments[0][0]}.py"
        code.write_text("# zensical-rerun\n" + code.read_text(encoding="utf-8"), encoding="utf-8")
        server.wait_for("zensical-rerun", seconds=300, path=lesson.notebook_url)
    finally:
        server.stop()


def test_zensical_builds_the_site_with_live_values(zensical_course):
    scratch = zensical_course.earlier  # the default scratch lesson, clean
    html = (scratch.repo / "site" / scratch.url / "index.html").read_text(encoding="utf-8")
    assert "三个数的平均约为 2.3333，加倍以后的平均约为 4.6667。" in html and "{=" not in html
    assert "平均： tensor(2.3333)" in html  # a listing's output, from the run


@pytest.fixture(scope="module")
def zensical_broken(tmp_path_factory):
    """A copy with two scratch lessons (3 s time limit), confirmed, then one given a drifted number and
    the other a raising block, each on its own page; built once by Zensical."""
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("zensical-broken") / "repo", with_cache=True)
    one, two = free_numbers(repo, 2)
    drifting = make_lesson(repo, one, "drifting", "草稿：漂移的数字")
    raising = make_lesson(repo, two, "raising", "草稿：出错的代码块")
    confirm(drifting, raising)
    for lesson in (drifting, raising):
        set_time_limit(lesson, 3)
    drift_line = edit(repo, drifting.page, "2.3333{=a.mean()}", "2.3334{=a.mean()}")
    block_line = edit(repo, raising.page, ANCHOR, BLOCK.format(code="1 / 0") + "\n" + ANCHOR) + 1
    result = zensical(repo)
    return result, (drifting, drift_line), (raising, block_line)


def test_zensical_fails_on_drift_naming_it(zensical_broken):
    result, (scratch, line), _ = zensical_broken
    assert result.returncode != 0
    assert f"{scratch.page}:{line}: 数字漂移：正文写 2.3334，代码现算 2.333" in result.stdout + result.stderr


def test_zensical_fails_on_a_raising_block_naming_the_page(zensical_broken):
    result, _, (scratch, line) = zensical_broken
    assert result.returncode != 0
    assert f"{scratch.page}:{line}: 代码块执行出错（第 {line + 1} 行）：ZeroDivisionError" in result.stdout + result.stderr


def test_the_run_cache_is_json_a_person_can_read(course):
    repo, earlier, later = course.repo, course.earlier, course.later
    (path,) = (repo / f".cache/coursekit/runs/{later.package}").glob("*.json")
    text = path.read_text(encoding="utf-8")
    record = json.loads(text.partition("\n")[2])  # after the line that seals it
    assert earlier.file("second") in record["deps"] and record["versions"]["python"]


def test_a_clean_quiet_build_says_nothing(tmp_path):
    """`mkdocs build -q` of the course prints nothing when all is well (jieba's own log is silenced),
    so an author sees only what concerns the lesson."""
    from tests.conftest import ROOT

    result = mkdocs_build(ROOT, tmp_path / "site", "-q")
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr
