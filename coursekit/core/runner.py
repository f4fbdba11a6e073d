"""一讲的实验怎样运行。命令行、课程页面和笔记本用的都是这一种方式，所以这几处的数来自同一次运行。

- 实验文件就是普通的 Python 模块（lessons.l10.attention_2d），按 EXPERIMENTS 的顺序各整体运行一次。
- 运行时逐条执行文件的顶层语句，并记下每条语句打印了什么；页面按文件里标出的段落取用这些打印。
- 实验文件可以像平常一样从别的实验导入（from lessons.l10.attention_2d import q）：
  已经运行过的直接拿来用；没运行过的（比如前几讲的）安静地运行一次，不打印。

这个文件属于构建工具（coursekit），不属于哪一讲：每讲的 __main__.py、构建时的工作进程和笔记本的第一格都从这里导入。
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import io
import linecache
import re
import sys
import textwrap
from contextlib import contextmanager, nullcontext, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from coursekit.core import syntax

EXPERIMENT = re.compile(r"lessons\.l\d+\.\w+")
OUTPUT_LIMIT = 100_000  # 一个文件（或页面上一个代码块）最多打印这么多字符


class OutputLimitExceeded(Exception):
    """打印得太多：页面放不下，多半是循环里忘了删的 print。"""


class UnencodableOutput(Exception):
    """打印的文字里有 UTF-8 写不出来的字符（孤立的代理项）：页面和笔记本都存不下它。"""


@dataclass
class Statement:
    first: int  # 顶层语句的首行与末行（从 1 数起）
    last: int
    output: str


@dataclass
class FileRun:
    module: str  # lessons.l10.attention_2d
    path: str  # lessons/l10/attention_2d.py
    title: str
    statements: list[Statement] = field(default_factory=list)

    @property
    def output(self) -> str:
        return "".join(s.output for s in self.statements)


class Capture(io.TextIOBase):
    """收集打印；echo 时同时照常打印出来。超过上限、或有写不出来的字符，就在打印处报错。
    取走的打印是读者看得见的样子（见 visible）；echo 给终端的是原样。"""

    def __init__(self, limit: int = OUTPUT_LIMIT, echo=None) -> None:
        self.parts: list[str] = []
        self.size, self.limit, self.echo = 0, limit, echo

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        _check_encodable(text)
        self.size += len(text)
        if self.size > self.limit:
            raise OutputLimitExceeded(f"打印超过 {self.limit} 个字符的上限")
        self.parts.append(text)
        if self.echo is not None:
            self.echo.write(text)
        return len(text)

    def take(self) -> str:
        text, self.parts = "".join(self.parts), []
        return visible(text)  # 整段一起整理：一个控制序列、一行进度条可能分几次写出


# 终端的控制序列：CSI（ESC [ … 结束字节：颜色、光标移动、清行）、
# OSC 等字符串序列（ESC ] … 以 BEL 或 ESC \ 结束：窗口标题、超链接），其余的 ESC 序列（保存光标、切换字符集）
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-OQ-WYZ\\`-~]")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # 制表符和换行以外的控制字符（C0、DEL、C1）
SURROGATE = re.compile(r"[\ud800-\udfff]")


def visible(text: str) -> str:
    """打印在页面上的样子：去掉终端的控制序列；回车按终端的样子处理（一行只留最后一次重写的内容）；
    其余控制字符写成看得见的转义（NUL 写成 \\x00），不原样进页面。例：'\\x1b[31m红\\x1b[0m' → '红'。（示意）"""
    text = ANSI.sub("", text)
    text = "\n".join(_rewritten(line) for line in text.split("\n"))
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _rewritten(line: str) -> str:
    """一行里最后一次重写的内容：进度条 '10%\\r50%\\r100%' 只留 '100%'。（示意）
    回车后面没有字（行尾的 \\r、Windows 的 \\r\\n）不算重写。"""
    return next((part for part in reversed(line.split("\r")) if part), "")


def _check_encodable(text: str) -> None:
    """孤立的代理项写不成 UTF-8：在打印它的那一行报错，说出是哪个字符。"""
    found = SURROGATE.search(text)
    if found is None:
        return
    code = ord(found.group())
    why = "孤立的代理项"
    if 0xDC80 <= code <= 0xDCFF:  # errors="surrogateescape" 把解不开的每个字节写成 U+DC00 加上这个字节
        why += f"，多半是按 UTF-8 解不开的字节 0x{code - 0xDC00:02X}"
    raise UnencodableOutput(f"打印的文字里有无法编码的字符 U+{code:04X}（{why}）；页面和笔记本按 UTF-8 保存，"
                            f"先把它换成正常的文字（比如解码时用 errors=\"replace\"）再打印")


def experiments(package: str) -> list[tuple[str, str]]:
    """(模块名, 标题) 按正文顺序。"""
    return list(importlib.import_module(package).EXPERIMENTS)


def run_file(package: str, name: str, title: str = "", *, limit: int = OUTPUT_LIMIT, echo=None,
             around=None) -> FileRun:
    """把一个实验文件作为模块整体运行一次，逐条记下顶层语句的打印。出错时异常照常抛出。
    around(文件, 行号)：每条顶层语句外面套的上下文（构建时的工作进程用它核对随机数有没有种子）。"""
    module_name = f"{package}.{name}"
    spec = importlib.util.find_spec(module_name)
    if spec is None or not spec.origin:
        raise ModuleNotFoundError(f"找不到实验文件 {module_name}（EXPERIMENTS 里登记了它）")
    path = Path(spec.origin)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # 后面的实验 import 它时，拿到的就是这一次运行的结果
    run = FileRun(module_name, _shown(path, module_name), title)
    capture = Capture(limit, echo)
    tree = syntax.parse(path.read_text(encoding="utf-8"), str(path))
    with redirect_stdout(capture):
        for node in tree.body:
            code = compile(ast.Module([node], type_ignores=[]), str(path), "exec")
            try:
                with around(str(path), node.lineno) if around else nullcontext():
                    exec(code, module.__dict__)
            finally:
                run.statements.append(Statement(node.lineno, node.end_lineno or node.lineno, capture.take()))
    return run


def namespace(package: str) -> dict:
    """本讲的命名空间：各实验模块的顶层名字，按 EXPERIMENTS 的顺序合起来（后面的同名者优先）。"""
    merged: dict = {}
    for name, _ in experiments(package):
        module = sys.modules.get(f"{package}.{name}")
        if module is not None:
            merged.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    return merged


class _QuietExperiments(importlib.abc.MetaPathFinder):
    """被导入（而不是被本讲运行）的实验文件安静地运行：前几讲的打印不会混进这一讲。"""

    def find_spec(self, fullname, path, target=None):
        if not EXPERIMENT.fullmatch(fullname):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _QuietLoader(spec.loader)
        return spec


class _QuietLoader(importlib.abc.Loader):
    def __init__(self, loader) -> None:
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        with redirect_stdout(io.StringIO()):
            self.loader.exec_module(module)


def quiet_imports() -> None:
    """装上上面的导入规则（重复调用无妨）。"""
    if not any(isinstance(f, _QuietExperiments) for f in sys.meta_path):
        sys.meta_path.insert(0, _QuietExperiments())


def _shown(path: Path, module: str) -> str:
    """The file as the course names it, from the folder its top package sits in: lessons/l10/x.py."""
    path = path.resolve()
    return path.relative_to(path.parents[module.count(".")]).as_posix()


def check_message(err: AssertionError) -> str:
    """核对失败时说什么：assert x, "说明" 给出说明；没写说明的 assert 给出它自己的源码（如 assert x > 0）。（示意）"""
    text = str(err).strip()
    if text:
        return text
    frames = list(_frames(err.__traceback__))
    last = frames[-1] if frames else None
    if last is None:
        return ""
    code = last.tb_frame.f_code
    return _assertion(linecache.getlines(code.co_filename, last.tb_frame.f_globals), last.tb_lineno)


def _assertion(lines: list[str], line: int) -> str:
    """第 line 行所在的 assert 语句的源码，合成一行；找不到就是空字符串。"""
    for start in range(min(line, len(lines)), max(line - 20, 0), -1):
        if not re.match(r"\s*assert\b", lines[start - 1]):
            continue
        for end in range(max(start, line), min(start + 40, len(lines)) + 1):
            source = textwrap.dedent("".join(lines[start - 1 : end]))
            try:
                tree = syntax.parse(source)
            except SyntaxError:
                continue
            node = tree.body[0] if tree.body else None
            if isinstance(node, ast.Assert) and start + node.end_lineno - 1 >= line:
                test = ast.get_source_segment(source, node.test) or ast.unparse(node.test)
                return "assert " + re.sub(r"\s*\\?\n\s*", " ", test)  # 跨行的条件合成一行
            return ""
        return ""
    return ""


@contextmanager
def _reported(run_path: str, origin: Path):
    """核对（assert）失败时指出文件和行，说出核对的是什么，以非零状态退出。"""
    try:
        yield
    except AssertionError as err:
        tb = sys.exc_info()[2]
        line = next((f.tb_lineno for f in _frames(tb) if Path(f.tb_frame.f_code.co_filename).resolve() == origin), "?")
        message = check_message(err)
        print(f"核对失败：{run_path}:{line}{'：' + message if message else ''}", file=sys.stderr)
        sys.exit(1)


def _frames(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def main(package: str, argv: list[str] | None = None) -> None:
    """python -m lessons.lNN：按顺序运行本讲的实验，打印它们的输出；任何核对失败都以非零状态退出。"""
    quiet_imports()
    for name, title in experiments(package):
        path = f"{package.replace('.', '/')}/{name}.py"
        print(f"\n== {path}：{title} ==")
        spec = importlib.util.find_spec(f"{package}.{name}")
        with _reported(path, Path(spec.origin).resolve() if spec and spec.origin else Path(path).resolve()):
            run_file(package, name, title, echo=sys.stdout, limit=sys.maxsize)
    print("\n全部核对通过。")
