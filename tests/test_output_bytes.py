"""Printed output is made safe and visible at the capture (coursekit.core.runner.Capture), the one place
every print of lesson code passes: experiment files (runner.run_file) and page blocks (the
worker's "exec", reproduced here in process). Terminal control sequences are removed, a carriage
return keeps what the terminal would show, other control characters are shown escaped, and a lone
surrogate fails at the print that wrote it, naming the character, so the file and line are blamed."""

from __future__ import annotations

import io
import sys
import textwrap
import traceback
from contextlib import redirect_stdout
from pathlib import Path

import markdown
import pytest
from markdown_exec import base_format, markdown_config

from coursekit.core import worker
from coursekit.core import runner
from tests.conftest import ROOT


def printed(code: str) -> str:
    """What a page block prints, as the worker's "exec" takes it."""
    capture = runner.Capture()
    with redirect_stdout(capture):
        exec(compile(code, "docs/p.md", "exec"), {})
    return capture.take()


def page_block_error(code: str, line: int = 10) -> tuple[BaseException, dict]:
    """The exception a page block (its fence at `line` of docs/p.md) raised, and the worker's report of it."""
    capture = runner.Capture()
    with pytest.raises(Exception) as info, redirect_stdout(capture):
        exec(compile("\n" * line + code, "docs/p.md", "exec"), {})
    return info.value, worker._error(info.value, str(ROOT))


@pytest.fixture
def experiment(tmp_path, monkeypatch):
    """Write an experiment file lessons/l98/<name>.py under tmp_path; run it with runner.run_file."""
    folder = tmp_path / "lessons" / "l98"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "lessons"))

    def run(code: str, name: str = "probe", **kw) -> runner.FileRun:
        (folder / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")
        return runner.run_file("l98", name, **kw)

    yield run
    for name in [n for n in sys.modules if n == "l98" or n.startswith("l98.")]:
        del sys.modules[name]


# --- terminal control sequences are removed ------------------------------------------------------

@pytest.mark.parametrize("code, shown", [
    ('print("\\x1b[31m红色\\x1b[0m 和 \\x1b[1;32m粗绿\\x1b[m")', "红色 和 粗绿\n"),  # CSI: colours
    ('print("\\x1b[2K\\x1b[1A\\x1b[?25l清行、上移、藏光标")', "清行、上移、藏光标\n"),  # CSI: cursor, erase
    ('print("\\x1b]0;窗口标题\\x07正文")', "正文\n"),  # OSC ended by BEL
    ('print("\\x1b]8;;https://example.org\\x1b\\\\链接\\x1b]8;;\\x1b\\\\")', "链接\n"),  # OSC 8 hyperlink, ended by ST
    ('print("\\x1b7保存\\x1b8恢复\\x1b(B")', "保存恢复\n"),  # other ESC sequences
    ('import sys\nsys.stdout.write("\\x1b[3")\nsys.stdout.write("1m分两次写\\x1b[0m\\n")', "分两次写\n"),
])
def test_terminal_control_sequences_are_removed(code, shown):
    assert printed(code) == shown


# --- other control characters are shown escaped --------------------------------------------------

@pytest.mark.parametrize("code, shown", [
    ('print("a\\x00b")', "a\\x00b\n"),  # NUL
    ('print("响\\a铃")', "响\\x07铃\n"),  # BEL
    ('print("退\\b格")', "退\\x08格\n"),  # backspace
    ('print("删\\x7f除")', "删\\x7f除\n"),  # DEL
    ('print("C1 \\x80 \\x85 \\x9b \\x9f")', "C1 \\x80 \\x85 \\x9b \\x9f\n"),  # C1 controls
    ('print("换\\f页 竖\\v制表")', "换\\x0c页 竖\\x0b制表\n"),
    ('print("孤零零的 \\x1b 和没写完的 \\x1b[")', "孤零零的 \\x1b 和没写完的 \\x1b[\n"),  # ESC left over
])
def test_other_control_characters_are_shown_escaped(code, shown):
    out = printed(code)
    assert out == shown
    assert not [c for c in out if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F]


# --- carriage return: what the terminal shows -----------------------------------------------------

@pytest.mark.parametrize("code, shown", [
    ('for i in range(1, 4):\n    print(f"\\r进度 {i}/3", end="")\nprint()', "进度 3/3\n"),
    ('print("下载 10%\\r下载 50%\\r\\x1b[K下载 100%")\nprint("完成")', "下载 100%\n完成\n"),
    ('print("第一行\\r\\n第二行\\r")', "第一行\n第二行\n"),  # \r\n and a \r ending a line rewrite nothing
    ('print("半行", end="\\r")\nprint("整行")', "整行\n"),  # one page block: one output
])
def test_a_carriage_return_keeps_what_the_line_was_rewritten_to(code, shown):
    assert printed(code) == shown


def test_tab_newline_and_chinese_are_kept_while_the_controls_around_them_go():
    code = 'print("名称\\t数值\\n注意力\\t0.4011")\nprint("\\x1b[1m加粗的中文\\x1b[0m\\t完\\x00")'
    assert printed(code) == "名称\t数值\n注意力\t0.4011\n加粗的中文\t完\\x00\n"


def test_an_experiment_files_statements_hold_the_visible_text_while_the_terminal_gets_it_as_written(experiment):
    echo = io.StringIO()
    run = experiment('''\
        print("\\x1b[32m通过\\x1b[0m")
        for i in range(3):
            print(f"\\r第 {i + 1} 步", end="")
        print("\\x00")
        ''', echo=echo)
    assert [s.output for s in run.statements] == ["通过\n", "第 3 步", "\\x00\n"]
    assert run.output == "通过\n第 3 步\\x00\n"
    assert echo.getvalue() == "\x1b[32m通过\x1b[0m\n\r第 1 步\r第 2 步\r第 3 步\x00\n"  # a terminal shows it itself


# --- text UTF-8 cannot write fails at its print ------------------------------------------------------

def test_a_lone_surrogate_in_a_page_block_fails_at_its_print_naming_the_character():
    err, report = page_block_error('x = 1\nprint("前面", x)\nprint("坏字符：\\ud800")\nprint("后面")\n')
    assert type(err).__name__ == "UnencodableOutput"
    assert str(err).startswith("打印的文字里有无法编码的字符 U+D800（孤立的代理项）")
    assert report["where"] == ("docs/p.md", 13)  # the fence's line 10, then the block's third line
    assert report["message"] == str(err) and report["type"] == "UnencodableOutput"


def test_undecodable_bytes_are_named_as_the_byte_they_were(experiment):
    with pytest.raises(Exception) as info:
        experiment('''\
            text = b"caf\\xe9".decode("utf-8", errors="surrogateescape")
            n = len(text)
            print("读到：", text)
            ''')
    assert type(info.value).__name__ == "UnencodableOutput"
    assert "U+DCE9（孤立的代理项，多半是按 UTF-8 解不开的字节 0xE9）" in str(info.value)


def test_a_lone_surrogate_in_an_experiment_file_fails_at_the_line_of_its_print(experiment, tmp_path):
    with pytest.raises(Exception) as info:
        experiment('''\
            """一个实验。"""
            values = [1, 2]

            def show(v):
                print("值：", v, "\\udfff")

            print("先打印一行")
            show(values)
            ''', name="bad")
    err = info.value
    assert type(err).__name__ == "UnencodableOutput" and "U+DFFF（孤立的代理项）" in str(err)
    path = tmp_path / "lessons/l98/bad.py"
    lines = [f.lineno for f in traceback.extract_tb(err.__traceback__) if Path(f.filename) == path]
    assert lines == [8, 5]  # show(values), then the print in it
    assert worker._error(err, str(tmp_path))["where"] == ("lessons/l98/bad.py", 5)


def test_nothing_is_echoed_of_a_print_that_fails(experiment):
    echo = io.StringIO()
    with pytest.raises(runner.UnencodableOutput):
        experiment('print("好的")\nprint("坏的 \\ud83d")\n', echo=echo)
    assert echo.getvalue() == "好的\n"


# --- the page's HTML ---------------------------------------------------------------------------------

@pytest.fixture
def md(monkeypatch):
    """A Markdown converter with the fences markdown-exec renders a block's output in."""
    extensions = ["pymdownx.highlight", "pymdownx.superfences"]
    monkeypatch.setattr(markdown_config, "exts", extensions)
    monkeypatch.setattr(markdown_config, "exts_config", {"pymdownx.highlight": {"pygments_lang_class": True}})
    return markdown.Markdown(extensions=extensions)


@pytest.mark.parametrize("result", ["output", ""])  # shown as a code block, or as Markdown
def test_the_html_of_a_blocks_output_holds_no_raw_control_character(md, result):
    code = 'print("\\x1b[31m红\\x1b[0m", "a\\x00b", "\\a\\b\\x7f\\x85")\nprint("10%\\r100%")'
    output = printed(code)
    html = str(base_format(language="python", run=lambda _code, **_: output, code=code, md=md, result=result))
    assert "红" in html and "a\\x00b" in html and "\\x07\\x08\\x7f\\x85" in html and "100%" in html
    assert not [c for c in html if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F], repr(html)
