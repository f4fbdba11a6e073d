"""One value per name of a lesson's namespace (coursekit.core.names): where a file defines a name,
and how a clash reads at each of its lines. (That a build finds one, with a scratch lesson, is
tests/test_builds.py's.)"""

from __future__ import annotations

import textwrap

from coursekit.core import names, report


def test_a_name_s_line_is_the_last_top_level_statement_that_binds_it(tmp_path):
    path = tmp_path / "x.py"
    path.write_text(textwrap.dedent("""\
        import torch as t
        n = 2
        def f():
            n = 9
        if True:
            n += 1
        for row in [1, 2]:
            pass
        with open(__file__) as (handle):
            pass
        try:
            pass
        except ValueError as err:
            pass
        class K:
            n = 7
        """), encoding="utf-8")
    lines = {name: names.definition_line(path, name) for name in ("t", "n", "f", "row", "handle", "err", "K", "gone")}
    assert lines == {"t": 1, "n": 6, "f": 3, "row": 7, "handle": 9, "err": 13, "K": 15, "gone": 1}


def test_a_clash_is_a_problem_at_each_of_its_lines_naming_the_other():
    clash = names.Clash("n_heads", (names.Definition("lessons/l97/a.py", 3, "2"), names.Definition("lessons/l97/b.py", 5, "4")))
    assert names.Clash.from_entry(clash.entry()) == clash
    found = names.problems([clash])
    assert [p.format().split("；")[0] for p in found] == [
        "lessons/l97/a.py:3: n_heads 在本讲的两个实验文件里值不同：这里是 2，lessons/l97/b.py:5（4）",
        "lessons/l97/b.py:5: n_heads 在本讲的两个实验文件里值不同：这里是 4，lessons/l97/a.py:3（2）"]
    assert report.headline(found).startswith("名字重了")
