"""The kit for the next lesson: a lesson made from the template works with no change to the tooling.

Scratch lessons take numbers no lesson uses (tests/scratch_lesson.py reads the lessons under
lessons/ and docs/lessons/ when the tests are collected), and a case that needs an existing lesson
takes one that exists: the tests hold however many lessons the course has."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from coursekit.extensions import checks
from coursekit.core import guard
from tests.conftest import ROOT, edit, mkdocs_build
from tests.scratch_lesson import free_numbers, used_numbers

FREE = free_numbers(ROOT, 6)
SCRATCH, OTHER = FREE[0], FREE[5]  # the template lesson; a lesson to refuse or to half-write
# A lesson that exists, with its page's slug (the first one the course has).
EXISTING, EXISTING_SLUG = re.fullmatch(r"(\d+)-(.+)\.md", min(p.name for p in ROOT.glob("docs/lessons/[0-9]*-*.md"))).groups()
PAGE = f"docs/lessons/{SCRATCH}-fixture.md"
SUMMARY = "测试用的一讲：模板能不能直接用"


def test_scratch_lessons_take_numbers_no_lesson_uses_and_an_existing_lesson_exists():
    assert not {int(n) for n in FREE} & used_numbers(ROOT) and int(EXISTING) in used_numbers(ROOT)
    assert (ROOT / f"lessons/l{EXISTING}").is_dir()


def new_lesson(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/new_lesson.py", SCRATCH, "fixture", "测试讲：模板能用吗", SUMMARY],
                          cwd=repo, capture_output=True, text=True)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """A repository copy with a test-only lesson made from the template and a lesson for each
    awkward title (AWKWARD), built once with --strict (one build for both, not two)."""
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("scratch") / "repo")
    made = new_lesson(repo)
    assert made.returncode == 0, made.stderr
    for number, title in AWKWARD.items():
        made = run_script(repo, number, f"awkward-{number}", title, SUMMARY)
        assert made.returncode == 0, made.stderr
    result = mkdocs_build(repo, repo / "site")
    assert result.returncode == 0, result.stderr
    return repo


@pytest.mark.engine
def test_the_template_lessons_companion_code_runs(scratch):
    run = subprocess.run([sys.executable, "-m", f"lessons.l{SCRATCH}"], cwd=scratch, capture_output=True, text=True)
    assert run.returncode == 0 and "tensor(2.3333)" in run.stdout and "全部核对通过" in run.stdout


@pytest.mark.build
def test_the_template_lesson_page_is_executed_at_build(scratch):
    soup = BeautifulSoup((scratch / f"site/lessons/{SCRATCH}-fixture/index.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.select_one("h1").get_text().startswith(f"{SCRATCH}｜测试讲：模板能用吗")
    assert "tensor(2.3333)" in soup.select_one("div.language-output").get_text()
    assert soup.select_one("aside.tl-repro") is not None


@pytest.mark.build
def test_the_template_lessons_notebook_is_built_and_executed(scratch):
    nb = nbformat.read(scratch / f"site/lessons/{SCRATCH}-notebook/{SCRATCH}-notebook.ipynb", as_version=4)
    outputs = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert any("tensor(2.3333)" in o for o in outputs)


@pytest.mark.build
def test_the_template_lesson_and_its_notebook_are_in_the_navigation(scratch):
    soup = BeautifulSoup((scratch / "site/index.html").read_text(encoding="utf-8"), "html.parser")
    nav = [(a.get_text(" ", strip=True), a.get("href")) for a in soup.select("nav.md-nav--primary a.md-nav__link[href]")]
    assert ("正文", f"lessons/{SCRATCH}-fixture/") in [(t, h[-len(f"lessons/{SCRATCH}-fixture/"):]) for t, h in nav]
    assert any(h.endswith(f"lessons/{SCRATCH}-notebook/") for _, h in nav)
    assert f"第 {int(SCRATCH)} 讲 · 测试讲" in soup.select_one("nav.md-nav--primary").get_text()


@pytest.mark.build
def test_the_drift_guard_checks_the_template_lesson(scratch, tmp_path):
    line = edit(scratch, PAGE, "平均约为 2.3333", "平均约为 2.3343")
    try:
        result = mkdocs_build(scratch, tmp_path / "site")
    finally:
        edit(scratch, PAGE, "平均约为 2.3343", "平均约为 2.3333")
    assert result.returncode != 0
    assert f"{PAGE}:{line}: 数字漂移：正文写 2.3343，代码现算 2.33333" in result.stderr


@pytest.mark.build
def test_making_a_lesson_that_exists_refuses_and_changes_nothing(scratch):
    before = (scratch / "mkdocs.yml").read_text(encoding="utf-8")
    again = new_lesson(scratch)
    assert again.returncode != 0 and "已存在，不覆盖" in again.stderr
    assert (scratch / "mkdocs.yml").read_text(encoding="utf-8") == before


# --- awkward input: refused with nothing written, or built strictly with the title shown ---------

AWKWARD = dict(zip(FREE[1:5], [  # number: title
    "掩码: 不许偷看后文",
    'C# 里的 """ 文档串、"引号" 和 \\ 反斜杠',
    "YAML 的特殊字符：- ? [a] {b} & * ! | > ' % @ `x` --8<--",
    "<eos> 与 *星号*、_下划线_、[链接](x) {#id}",
]))


def snapshot(repo: Path) -> dict[str, bytes]:
    skip = {".cache", "site", "__pycache__"}
    return {p.relative_to(repo).as_posix(): p.read_bytes() for p in sorted(repo.rglob("*"))
            if p.is_file() and not skip & set(p.relative_to(repo).parts)}


def run_script(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/new_lesson.py", *args], cwd=repo, capture_output=True, text=True)


@pytest.mark.build
@pytest.mark.parametrize("number", AWKWARD)
def test_an_awkward_title_is_shown_as_written(scratch, number):
    awkward = scratch
    title = AWKWARD[number]
    page = BeautifulSoup((awkward / f"site/lessons/{number}-awkward-{number}/index.html").read_text(encoding="utf-8"),
                         "html.parser")
    assert page.select_one("article h1").get_text().rstrip("¶") == f"{number}｜{title}"
    assert page.title.get_text().startswith(f"{number}｜{title} - ")
    assert page.select_one(".md-header__topic[data-md-component=header-topic]").get_text().strip() == f"{number}｜{title}"
    home = BeautifulSoup((awkward / "site/index.html").read_text(encoding="utf-8"), "html.parser")
    row = home.select_one(f'article table a[href="lessons/{number}-awkward-{number}/"]')
    assert row is not None and row.get_text() == title  # on the home page's 课程目录
    short = title.replace("：", ":").split(":")[0].strip()
    nav = [" ".join(a.get_text().split()) for a in home.select("nav.md-nav--primary label.md-nav__link")]
    assert " ".join(f"第 {int(number)} 讲 · {short}".split()) in nav
    doc = subprocess.run([sys.executable, "-c", f"import lessons.l{number} as m; print(m.__doc__)"],
                         cwd=awkward, capture_output=True, text=True)
    assert doc.stdout.strip() == f"第 {number} 讲 · {title}", doc.stderr


REFUSED = [  # (number, slug, title, what the message says)
    ("１１", "masking", "掩码", "两位 ASCII 数字"),
    ("1", "masking", "掩码", "两位 ASCII 数字"),
    ("011", "masking", "掩码", "两位 ASCII 数字"),
    ("00", "masking", "掩码", "两位 ASCII 数字"),
    (OTHER, "Masking", "掩码", "slug"),
    (OTHER, "../masking", "掩码", "slug"),
    (OTHER, "masking", "   ", "标题不能为空"),
    (OTHER, "masking", "掩码\n不许偷看", "U+000A"),
    (OTHER, "masking", "掩码\u200b不许偷看", "U+200B"),
    (OTHER, "masking", "掩码" * 31, "标题最长"),
    (OTHER, "masking", "约 0.5 秒的掩码", "要核对的数（0.5）"),
    (OTHER, "masking", "2/3 的位置", "要核对的数（2/3）"),
    (OTHER, "masking", "40% 的注意力", "要核对的数（40%）"),
    (OTHER, "masking", "约 0.5 秒{示意}的掩码", "{=…} 或 {示意}"),
    (EXISTING, "another", "注意力又一讲", f"第 {EXISTING} 讲已经有了"),
    (EXISTING, EXISTING_SLUG, "注意力", "已存在，不覆盖"),
]


@pytest.fixture(scope="module")
def untouched(tmp_path_factory):
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("refused") / "repo")
    return repo, snapshot(repo)


@pytest.mark.parametrize("number, slug, title, says", REFUSED, ids=[f"{n}-{s}-{t[:6]!r}" for n, s, t, _ in REFUSED])
def test_bad_input_is_refused_with_a_reason_and_nothing_written(untouched, number, slug, title, says):
    repo, before = untouched
    result = run_script(repo, number, slug, title, SUMMARY)
    assert result.returncode == 1 and says in result.stderr and "没有写入任何文件" in result.stderr, result.stderr
    assert snapshot(repo) == before


def test_a_missing_marker_is_refused_before_anything_is_written(tmp_path):
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path / "repo")
    yml = repo / "mkdocs.yml"
    yml.write_text(yml.read_text(encoding="utf-8").replace("# 新的一讲由", "# 旧的标记："), encoding="utf-8")
    before = snapshot(repo)
    result = run_script(repo, OTHER, "masking", "掩码：不许偷看后文", SUMMARY)
    assert result.returncode == 1 and "nav 里找不到标记行" in result.stderr and "没有写入任何文件" in result.stderr
    assert snapshot(repo) == before


def load_script(root: Path = ROOT):
    """scripts/new_lesson.py of `root`, imported as a module."""
    spec = importlib.util.spec_from_file_location("new_lesson_under_test", root / "scripts/new_lesson.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_failure_while_writing_undoes_everything(tmp_path, monkeypatch):
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path / "repo")
    module = load_script(repo)
    before = snapshot(repo)
    new, changed = module.plan(repo, OTHER, "masking", "掩码：不许偷看后文", SUMMARY)
    real, calls = module.os.replace, []

    def replace_then_fail(src, dst):
        calls.append(dst)
        if len(calls) == len(changed):  # every new file is written, the changed ones but the last replaced
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(module.os, "replace", replace_then_fail)
    with pytest.raises(OSError):
        module.new_lesson(repo, OTHER, "masking", "掩码：不许偷看后文", SUMMARY)
    assert new and len(calls) == len(changed)
    assert snapshot(repo) == before
    assert not (repo / f"lessons/l{OTHER}").exists() and not [p for p in repo.rglob(".*.new-lesson")]


# --- titles: checked with the guard's own rule --------------------------------------------------

TITLES = {  # title: refused (the guard fails a page with it as its title, or a reader would take it as a claim)
    "约 0.5 秒的掩码": True, "2/3 的位置": True, "40% 的注意力": True, "2e-1 的缩放": True, "０．５ 的掩码": True,
    "形状 [3, 4] 的矩阵": True, "1+1=2 的读法": True, "3×3 的得分": True, "得分 = -inf 的格子": True,
    "[−∞, 0] 的一行": True, "x < 1 的位置": True,  # the page escapes it as x &lt; 1, the reader reads x < 1
    "第 2 种读法": False, "第 10 讲之后": False, "第08讲的 Softmax": False, "位置 1、2 读不到 3": True,
    "位置 i+1 读什么": False, "t−1 时刻的字": False, "n-1 个位置": False, "掩码：−∞ 与 Softmax": True,
    "nan 从哪里来": True, "info 与 Infinity": False, "3 个位置、64 句话": True, "三个位置": True, "一个位置怎样读": False,
    "第三种读法": False, "UTF-8 与 GPT-3.5": False,
    "torch 2.13 的掩码": False,
}


def guard_fails_title(module, title: str) -> list[str]:
    """What the build's guard says about the title of a page made by new_lesson.py: its front-matter
    title and its heading, checked as coursekit.extensions.checks checks them."""
    from coursekit.core import scan

    page = module.fill_markdown((module.TEMPLATE / "docs/lessons/NN-SLUG.md").read_text(encoding="utf-8"),
                                {"lNN": f"l{OTHER}", "NN-SLUG": f"{OTHER}-x", "NN": OTHER, "SLUG": "x"}, title)
    fm, fm_lines, body = scan.front_matter(page)
    state = checks.PageState(PAGE, ROOT, None, None, False)
    front = re.search(r"^title:[ \t]*(.*)$", fm, re.M)
    checks._check(state, PAGE, front.group(1), 2, strip=False)
    for n, line in enumerate(body.split("\n"), fm_lines + 1):
        if line.startswith("# "):
            checks._check(state, PAGE, line, n, strip=False)
    return [p.message for p in state.problems]


@pytest.mark.parametrize("title", TITLES)
def test_a_title_is_refused_exactly_when_it_holds_a_number_the_guard_wants_bound(title):
    module = load_script()
    failed = guard_fails_title(module, title)
    try:
        module.check_arguments(OTHER, "x", title)
        refused = ""
    except module.Refused as err:
        refused = str(err)
    assert bool(refused) == TITLES[title], refused
    assert not failed or refused, f"the guard fails the title, new_lesson.py takes it: {failed}"
    if refused:
        assert "要核对的数（" in refused and all(t.text in refused for t in guard.claims(title))
    if TITLES[title] and "<" not in title:
        assert failed  # the list holds what the guard itself rejects, not only what new_lesson.py refuses


def test_without_the_guard_no_lesson_is_made(tmp_path):
    """No fallback rule: if coursekit cannot be imported, new_lesson.py stops and says why."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts/new_lesson.py").write_bytes((ROOT / "scripts/new_lesson.py").read_bytes())
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    result = subprocess.run([sys.executable, "-S", "scripts/new_lesson.py", OTHER, "masking", "40% 的注意力", SUMMARY],
                            cwd=tmp_path, capture_output=True, text=True, env=env)
    assert result.returncode == 1 and "没有写入任何文件" in result.stderr and "coursekit.core.guard" in result.stderr, result
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["scripts", "scripts/new_lesson.py"]
