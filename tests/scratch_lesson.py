"""Scratch lessons for the tooling tests: made the author's way in a copy of the repository
(`scripts/new_lesson.py`, then the page and experiments written, then `scripts/confirm_shown.py`),
at a number no lesson uses, with text of their own, so a test of the kit never depends on a live
lesson's text and holds whatever lessons the course has.

`scratch_lesson` (a fixture) hands each test its own copy of a repository holding the default
scratch lesson, made and confirmed once per test session."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from tests.harness import Lesson

# Two experiments, the second using the first: what a lesson's tooling must handle.
FILES = {
    "first": ("第一个实验：几个数", '''\
        """first：几个数和它们的平均。"""
        # --8<-- [start:listing]
        import torch

        a = torch.tensor([1., 2., 4.])
        print("平均：", a.mean())
        # --8<-- [end:listing]
        '''),
    "second": ("第二个实验：加倍", '''\
        """second：用第一个实验的数。"""
        from lessons.lNN.first import a

        # --8<-- [start:listing]
        b = a * 2
        print("加倍：", b)
        assert b.sum() == 14, "加倍后的和应是 14"
        # --8<-- [end:listing]
        '''),
}
PAGE = '''\
三个数{=len(a)}的平均约为 2.3333{=a.mean()}，加倍以后的平均约为 4.6667{=b.mean()}。

## 第一个实验

```python exec="1" file="lessons/lNN/first.py:listing" source="above" result="output"
```

这一段只是为了让页面有几句正文。

## 第二个实验

```python exec="1" file="lessons/lNN/second.py:listing" source="above" result="output"
```

到这里就结束了。
'''


def used_numbers(repo: Path) -> set[int]:
    """Lesson numbers taken by a package lessons/lNN or a page docs/lessons/NN-*.md."""
    found = {int(p.name[1:]) for p in (repo / "lessons").glob("l[0-9]*") if p.name[1:].isdigit()}
    found |= {int(m.group(1)) for p in (repo / "docs/lessons").glob("*.md") if (m := re.match(r"(\d+)-", p.name))}
    return found


def free_numbers(repo: Path, count: int = 1) -> list[str]:
    """`count` two-digit lesson numbers after every lesson the repository has."""
    start = max(used_numbers(repo), default=0) + 1
    numbers = [f"{n:02d}" for n in range(start, start + count)]
    assert numbers[-1] <= "99", "no two-digit lesson number is left for a scratch lesson"
    return numbers


@dataclass(frozen=True)
class Scratch(Lesson):
    """A lesson of a repository copy (`root`), with what the tooling tests ask of it."""

    @property
    def repo(self) -> Path:
        return self.root

    def file(self, name: str) -> str:
        return f"{self.folder}/{name}.py"

    def line_of(self, text: str, path: str | None = None) -> int:
        """The line `text` starts on in the page (or in `path`)."""
        whole = (self.repo / (path or self.page)).read_text(encoding="utf-8")
        assert text in whole, text
        return whole[: whole.index(text)].count("\n") + 1

    def listing_line(self, name: str) -> int:
        """The page line of the block that shows experiment `name`."""
        return self.line_of(f'file="{self.file(name)}:')


SUMMARY = "试验这套工具的一讲"


def make_lesson(repo: Path, number: str | None = None, slug: str = "scratch", title: str = "草稿：工具的试验",
                files: dict[str, tuple[str, str]] | None = None, page: str = PAGE, **settings) -> Scratch:
    """A lesson made with new_lesson.py, its example replaced by `files` ({name: (title, code)}, in
    order; `lNN` stands for its package) and its page's body by `page`; `settings` (TIME_LIMIT=3)
    go into its __init__.py."""
    number = number or free_numbers(repo)[0]
    files = FILES if files is None else files
    made = subprocess.run([sys.executable, "scripts/new_lesson.py", number, slug, title, SUMMARY],
                          cwd=repo, capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    lesson = Scratch(number, f"docs/lessons/{number}-{slug}.md", (), repo)
    package = repo / lesson.folder
    for example in set(p.stem for p in package.glob("*.py")) - {"__init__", "__main__"}:
        (package / f"{example}.py").unlink()
    for name, (_, code) in files.items():
        (package / f"{name}.py").write_text(textwrap.dedent(code).replace("lNN", lesson.id), encoding="utf-8")
    init = package / "__init__.py"
    listed = "".join(f"    ({name!r}, {t!r}),\n" for name, (t, _) in files.items())
    text, n = re.subn(r"^EXPERIMENTS = \[\n.*?^\]", f"EXPERIMENTS = [\n{listed}]", init.read_text(encoding="utf-8"),
                      count=1, flags=re.M | re.S)
    assert n == 1, "new_lesson.py's __init__.py has no EXPERIMENTS list"
    text += "".join(f"\n{k} = {v!r}\n" for k, v in settings.items())
    init.write_text(text, encoding="utf-8")
    # keep what new_lesson.py wrote up to the page's title, the rest is ours
    page_file = repo / lesson.page
    head = page_file.read_text(encoding="utf-8")
    title_line = re.search(r"^# .*\n", head, re.M)
    assert title_line, "new_lesson.py's page has no title line"
    page_file.write_text(head[: title_line.end()] + "\n" + page.replace("lNN", lesson.id), encoding="utf-8")
    return lesson


def confirm(*lessons: Scratch) -> None:
    """Confirm what the lessons' pages show (their reviewed record), as the author does once the
    page is written: a build that fails for any reason fails here."""
    repo = lessons[0].repo
    confirmed = subprocess.run([sys.executable, "scripts/confirm_shown.py", *(lesson.page for lesson in lessons)],
                               cwd=repo, capture_output=True, text=True)
    assert confirmed.returncode == 0, confirmed.stdout + confirmed.stderr


@pytest.fixture(scope="session")
def scratch_prototype(tmp_path_factory) -> Scratch:
    """A repository copy with the default scratch lesson, made, confirmed and built once (its run cached)."""
    from scripts.drive import copy_repo

    repo = copy_repo(tmp_path_factory.mktemp("scratch") / "repo", with_cache=True)
    lesson = make_lesson(repo)
    confirm(lesson)
    return lesson


@pytest.fixture
def scratch_lesson(scratch_prototype, tmp_path) -> Scratch:
    """A copy of its own of the repository with the default scratch lesson, to change on purpose."""
    repo = tmp_path / "repo"
    shutil.copytree(scratch_prototype.repo, repo, ignore=shutil.ignore_patterns("site", "__pycache__"))
    return replace(scratch_prototype, root=repo)


def set_time_limit(lesson: Scratch, seconds: float) -> None:
    init = lesson.repo / lesson.folder / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + f"\nTIME_LIMIT = {seconds!r}\n", encoding="utf-8")
