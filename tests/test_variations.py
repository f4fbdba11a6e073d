"""A lesson's variations (coursekit.core.variations): how its tests and tools change its inputs,
declared in its data file `lessons/lNN/variations.toml` beside its code, read into frozen records;
a bad entry is an error naming the data file and its line. The lesson's __init__.py says what the
lesson is and no more."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from coursekit.core import variations
from tests.conftest import LESSONS, ROOT

GOOD = '''# 说明

[[widget_cases]]
name = "第 1 题"
v2 = [3, 2.5]

[[input_changes]]
file = "lessons/l98/a.py"
old = 'x = [1., 2.]'
new = "x = [1., 2., 4.]"

[[check_changes]]  # 只用来检验
file = "lessons/l98/a.py"
old = "x = [1., 2.]"
new = ""
'''


def declared(tmp_path, text: str) -> variations.Declared:
    (tmp_path / "lessons/l98").mkdir(parents=True, exist_ok=True)
    (tmp_path / "lessons/l98/variations.toml").write_text(text, encoding="utf-8")
    return variations.declared(tmp_path, "lessons/l98")


def test_the_data_file_is_read_into_frozen_records_with_their_lines(tmp_path):
    assert variations.declared(tmp_path, "lessons/l98") == variations.Declared()  # no data file: none declared
    found = declared(tmp_path, GOOD)
    assert found.widget_cases == (variations.WidgetCase("第 1 题", None, (3.0, 2.5), 3),)
    assert found.input_changes == (variations.Change("lessons/l98/a.py", "x = [1., 2.]", "x = [1., 2., 4.]", 7),)
    assert found.check_changes == (variations.Change("lessons/l98/a.py", "x = [1., 2.]", "", 12),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.input_changes[0].new = "x = 3"


@pytest.mark.parametrize("text, where, says", [
    (GOOD.replace('v2 = [3, 2.5]', 'v2 = "3, 2.5"'), 3, "v2 要写成一串数"),
    (GOOD.replace('v2 = [3, 2.5]', 'q1 = [0, 0]'), 3, "不认得 q1"),
    (GOOD.replace('name = "第 1 题"\nv2 = [3, 2.5]', 'name = "第 1 题"'), 3, "什么都没改"),
    (GOOD.replace("new = \"x = [1., 2., 4.]\"", "new = 4"), 7, "的 new 要写成字符串"),
    (GOOD.replace("file = \"lessons/l98/a.py\"\nold = 'x = [1., 2.]'", "old = 'x = [1., 2.]'"), 7, "的 file 要写成字符串"),
    (GOOD + "\n[[widget_case]]\nname = \"x\"\n", 17, "不认得 widget_case"),
    (GOOD + "\n[[input_changes]\n", 17, "不是合法的 TOML"),
    ("check_changes = [{file = 'a', old = 'b', new = 'c'}]\n" + GOOD.split("[[check_changes]]")[0], 1,
     "每一项写成一节 [[check_changes]]"),  # an inline list: its entries' lines can't be told
])
def test_a_bad_entry_is_an_error_naming_the_data_file_and_its_line(tmp_path, text, where, says):
    with pytest.raises(variations.ChangeError) as err:
        declared(tmp_path, text)
    assert str(err.value).startswith(f"lessons/l98/variations.toml:{where}: ") and says in str(err.value)


@pytest.mark.parametrize("folder", [lesson.folder for lesson in LESSONS] + ["templates/lesson/lessons/lNN"])
def test_each_lessons_data_file_reads_and_each_change_finds_its_text(folder):
    found = variations.declared(ROOT, folder)
    for change in found.input_changes + found.check_changes:
        path = ROOT / change.file.replace("lessons/lNN/", f"{folder}/")
        assert change.old in path.read_text(encoding="utf-8"), f"{folder}/variations.toml:{change.line}"


@pytest.mark.parametrize("folder", sorted(p.parent for p in ROOT.glob("scripts/unseen/*/lesson/variations.toml")))
def test_each_unseen_lessons_data_file_reads_and_each_change_finds_its_text(folder):
    found = variations.declared(ROOT, folder.relative_to(ROOT).as_posix())
    assert found.input_changes and found.check_changes
    for change in found.input_changes + found.check_changes:
        assert change.old in (folder / change.file.removeprefix("lessons/lNN/")).read_text(encoding="utf-8")


LESSON_NAMES = {"SUMMARY", "EXPERIMENTS", "TIME_LIMIT", "OUTPUT_LIMIT"}  # what a lesson is, and how long it may run


@pytest.mark.parametrize("init", [f"{lesson.folder}/__init__.py" for lesson in LESSONS]
                         + ["templates/lesson/lessons/lNN/__init__.py"]
                         + sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("scripts/unseen/*/lesson/__init__.py")))
def test_a_lessons_package_says_what_the_lesson_is_and_nothing_of_its_tests(init):
    tree = ast.parse((ROOT / init).read_text(encoding="utf-8"))
    names = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    assert ast.get_docstring(tree) and {"SUMMARY", "EXPERIMENTS"} <= names <= LESSON_NAMES, names
