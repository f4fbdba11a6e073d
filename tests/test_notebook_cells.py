"""How an experiment file becomes a notebook cell (coursekit.core.notebook.cell_code), on files of its own."""

from coursekit.core.notebook import cell_code


def test_a_cell_keeps_the_file_but_its_docstring_and_section_markers():
    doc, code = cell_code('# 第一行注释\n"""name：说明这个实验。"""\n# --8<-- [start:listing]\nx = 1\n# --8<-- [end:listing]\n')
    assert doc == "说明这个实验。" and code == "# 第一行注释\nx = 1"


def test_a_file_without_a_docstring_is_the_cell_whole():
    assert cell_code("import math\nx = math.pi\n") == ("", "import math\nx = math.pi")
