"""The kit for the next lesson: a lesson made from the template works with no change to the tooling."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from bs4 import BeautifulSoup

from tests.conftest import mkdocs_build
from tests.conftest import edit

PAGE = "docs/lessons/99-fixture.md"


def new_lesson(repo: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/new_lesson.py", "99", "fixture", "测试讲：模板能用吗"],
                          cwd=repo, capture_output=True, text=True)


@pytest.fixture(scope="module")
def lesson99(tmp_path_factory):
    """A repository copy with a test-only lesson 99 made from the template, built once."""
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("l99") / "repo")
    made = new_lesson(repo)
    assert made.returncode == 0, made.stderr
    result = mkdocs_build(repo, repo / "site")
    assert result.returncode == 0, result.stderr
    return repo


def test_the_template_lessons_companion_code_runs(lesson99):
    run = subprocess.run([sys.executable, "-m", "lessons.l99"], cwd=lesson99, capture_output=True, text=True)
    assert run.returncode == 0 and "tensor(2.3333)" in run.stdout and "全部核对通过" in run.stdout


def test_the_template_lesson_page_is_executed_at_build(lesson99):
    soup = BeautifulSoup((lesson99 / "site/lessons/99-fixture/index.html").read_text(encoding="utf-8"), "html.parser")
    assert soup.select_one("h1").get_text().startswith("99｜测试讲：模板能用吗")
    assert "tensor(2.3333)" in soup.select_one("div.language-output").get_text()
    assert soup.select_one("aside.tl-repro") is not None


def test_the_template_lessons_notebook_is_built_and_executed(lesson99):
    nb = nbformat.read(lesson99 / "site/lessons/99-notebook/99-notebook.ipynb", as_version=4)
    outputs = [o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert any("tensor(2.3333)" in o for o in outputs)


def test_the_template_lesson_and_its_notebook_are_in_the_navigation(lesson99):
    soup = BeautifulSoup((lesson99 / "site/index.html").read_text(encoding="utf-8"), "html.parser")
    nav = {a.get_text(" ", strip=True): a.get("href") for a in soup.select("nav.md-nav--primary a.md-nav__link[href]")}
    assert nav.get("正文") and any(h.endswith("lessons/99-fixture/") for h in nav.values())
    assert any(h.endswith("lessons/99-notebook/") for h in nav.values())
    assert "第 99 讲 · 测试讲" in soup.select_one("nav.md-nav--primary").get_text()


def test_the_drift_guard_checks_the_template_lesson(lesson99, tmp_path):
    line = edit(lesson99, PAGE, "平均约为 2.3333", "平均约为 2.3343")
    try:
        result = mkdocs_build(lesson99, tmp_path / "site")
    finally:
        edit(lesson99, PAGE, "平均约为 2.3343", "平均约为 2.3333")
    assert result.returncode != 0
    assert f"{PAGE}:{line}: 数字漂移：正文写 2.3343，代码现算 2.33333" in result.stderr


def test_making_a_lesson_that_exists_refuses_and_changes_nothing(lesson99):
    before = (lesson99 / "mkdocs.yml").read_text(encoding="utf-8")
    again = new_lesson(lesson99)
    assert again.returncode != 0 and "已存在，不覆盖" in again.stderr
    assert (lesson99 / "mkdocs.yml").read_text(encoding="utf-8") == before


# --- awkward input: refused with nothing written, or built strictly with the title shown ---------

AWKWARD = {  # number: title
    "11": "掩码: 不许偷看后文",
    "12": 'C# 里的 """ 文档串、"引号" 和 \\ 反斜杠',
    "13": "YAML 的特殊字符：- ? [a] {b} & * ! | > ' % @ `x` --8<--",
    "14": "<eos> 与 *星号*、_下划线_、[链接](x) {#id}",
}


def snapshot(repo: Path) -> dict[str, bytes]:
    skip = {".cache", "site", "__pycache__"}
    return {p.relative_to(repo).as_posix(): p.read_bytes() for p in sorted(repo.rglob("*"))
            if p.is_file() and not skip & set(p.relative_to(repo).parts)}


def run_script(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "scripts/new_lesson.py", *args], cwd=repo, capture_output=True, text=True)


@pytest.fixture(scope="module")
def awkward(tmp_path_factory):
    """A repository copy with a lesson for each awkward title, built once with --strict."""
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("awkward") / "repo")
    for number, title in AWKWARD.items():
        made = run_script(repo, number, f"awkward-{number}", title)
        assert made.returncode == 0, made.stderr
    result = mkdocs_build(repo, repo / "site")
    assert result.returncode == 0, result.stderr
    return repo


@pytest.mark.parametrize("number", AWKWARD)
def test_an_awkward_title_is_shown_as_written(awkward, number):
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
    ("11", "Masking", "掩码", "slug"),
    ("11", "../masking", "掩码", "slug"),
    ("11", "masking", "   ", "标题不能为空"),
    ("11", "masking", "掩码\n不许偷看", "U+000A"),
    ("11", "masking", "掩码\u200b不许偷看", "U+200B"),
    ("11", "masking", "掩码" * 31, "标题最长"),
    ("11", "masking", "约 0.5 秒的掩码", "小数或分数（0.5）"),
    ("11", "masking", "2/3 的位置", "小数或分数（2/3）"),
    ("10", "another", "注意力又一讲", "第 10 讲已经有了"),
    ("10", "attention", "注意力", "已存在，不覆盖"),
]


@pytest.fixture(scope="module")
def untouched(tmp_path_factory):
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("refused") / "repo")
    return repo, snapshot(repo)


@pytest.mark.parametrize("number, slug, title, says", REFUSED, ids=[f"{n}-{s}-{t[:6]!r}" for n, s, t, _ in REFUSED])
def test_bad_input_is_refused_with_a_reason_and_nothing_written(untouched, number, slug, title, says):
    repo, before = untouched
    result = run_script(repo, number, slug, title)
    assert result.returncode == 1 and says in result.stderr and "没有写入任何文件" in result.stderr, result.stderr
    assert snapshot(repo) == before


def test_a_missing_marker_is_refused_before_anything_is_written(tmp_path):
    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path / "repo")
    index = repo / "docs/index.md"
    index.write_text(index.read_text(encoding="utf-8").replace("<!-- 新的一讲", "<!-- 旧的标记"), encoding="utf-8")
    before = snapshot(repo)
    result = run_script(repo, "11", "masking", "掩码：不许偷看后文")
    assert result.returncode == 1 and "课程目录的标记行" in result.stderr
    assert snapshot(repo) == before


def test_a_failure_while_writing_undoes_everything(tmp_path, monkeypatch):
    import importlib.util

    from tests.conftest import copy_repo

    repo = copy_repo(tmp_path / "repo")
    spec = importlib.util.spec_from_file_location("new_lesson_copy", repo / "scripts/new_lesson.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    before = snapshot(repo)
    real, calls = module.os.replace, []

    def replace_then_fail(src, dst):
        calls.append(dst)
        if len(calls) == 2:  # mkdocs.yml is already replaced; the disk "fills" on docs/index.md
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(module.os, "replace", replace_then_fail)
    with pytest.raises(OSError):
        module.new_lesson(repo, "11", "masking", "掩码：不许偷看后文")
    assert len(calls) == 2
    assert snapshot(repo) == before
    assert not (repo / "lessons/l11").exists() and not list(repo.glob("docs/.index.md*"))
