"""One namespace per lesson, and no name in it with two values.

A lesson's page (its bindings, its blocks) and its files' comment bindings read one namespace: the
top-level names of every experiment file, merged in EXPERIMENTS order, a later file's over an
earlier one's (coursekit.core.runner.namespace). A name two experiment files both define with
different values (`n_heads = 2` in one, `n_heads = 4` in the next) would leave the author guessing
which one a binding reads: it is a problem of the lesson's page at each file's line, naming the
others. Compared are values numbers can be read from (tensors, arrays, numbers, strings, and lists,
tuples, dicts, dataclasses and torch modules of them: coursekit.core.worker.fingerprint); the same
object imported from an earlier file is one value; functions, classes and modules are not
compared, nor names that start with `_` (a file's own: `_row`, `_`).

`clashes` runs in the lesson's worker once its files ran (engine.Build._run, through the worker's
"apply"); what it finds is kept with the run, and `problems` turns it into the page's problems.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from coursekit.core import guard, syntax

SHORT = 40  # characters of a value's repr in the message


@dataclass(frozen=True)
class Definition:
    path: str  # lessons/l12/heads.py
    line: int  # the last top-level statement of the file that binds the name
    value: str  # its value, short


@dataclass(frozen=True)
class Clash:
    name: str
    definitions: tuple[Definition, ...]  # one per distinct value, in EXPERIMENTS order

    def entry(self) -> dict:
        return {"name": self.name, "definitions": [d.__dict__ for d in self.definitions]}

    @classmethod
    def from_entry(cls, entry: dict) -> Clash:
        return cls(entry["name"], tuple(Definition(**d) for d in entry["definitions"]))


def clashes(namespace: dict, origin: dict, package: str) -> list[dict]:
    """In the worker, after the lesson's files ran: each name two experiment files define with
    different values, as Clash entries. (`namespace`, `origin`: what the worker's "apply" hands
    every function; the files' own modules are read here.)"""
    from coursekit.core import runner, worker

    places: dict[str, list[tuple[str, object]]] = {}
    for name, _ in runner.experiments(package):
        module = sys.modules.get(f"{package}.{name}")
        path = f"{package.replace('.', '/')}/{name}.py"
        for key, value in vars(module).items() if module is not None else ():
            if not key.startswith("_"):
                places.setdefault(key, []).append((path, value))
    found = []
    for key, defined in places.items():
        if len(defined) < 2:
            continue
        digests = worker.fingerprint({str(i): value for i, (_, value) in enumerate(defined)})
        if not digests:
            continue  # functions, classes, modules, other objects: not compared
        distinct: list[int] = []
        for i, (_, value) in enumerate(defined):
            if not any(value is defined[j][1] or (str(i) in digests and digests.get(str(j)) == digests[str(i)])
                       for j in distinct):
                distinct.append(i)
        if len(distinct) > 1:
            found.append(Clash(key, tuple(Definition(defined[i][0], definition_line(Path(defined[i][0]), key),
                                                     _short(defined[i][1])) for i in distinct)).entry())
    return found


def _short(value) -> str:
    text = " ".join(repr(value).split())
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


def definition_line(path: Path, name: str) -> int:
    """The line of the last top-level statement of the file at `path` that binds `name` (inside
    top-level if, for, while, with and try too, not in functions or classes); 1 if none does."""
    try:
        tree = syntax.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return 1
    line = 1
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        if name in _binds(node):
            line = max(line, node.lineno)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                todo += [n for n in getattr(node, field, []) if isinstance(n, ast.stmt | ast.excepthandler)]
    return line


def _binds(node) -> set[str]:
    """The names one statement binds at its own level."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.ExceptHandler):
        return {node.name} if node.name else set()
    targets = {ast.Assign: lambda n: n.targets, ast.AugAssign: lambda n: [n.target], ast.AnnAssign: lambda n: [n.target],
               ast.For: lambda n: [n.target], ast.AsyncFor: lambda n: [n.target],
               ast.With: lambda n: [i.optional_vars for i in n.items if i.optional_vars],
               ast.AsyncWith: lambda n: [i.optional_vars for i in n.items if i.optional_vars]}.get(type(node))
    if targets is None:
        return set()
    return {n.id for t in targets(node) for n in ast.walk(t) if isinstance(n, ast.Name)}


def problems(found: list[Clash]) -> list[guard.Problem]:
    """Each clash at each of its lines, naming the others."""
    out = []
    for clash in found:
        for d in clash.definitions:
            others = "、".join(f"{o.path}:{o.line}（{o.value}）" for o in clash.definitions if o is not d)
            out.append(guard.Problem(
                d.path, d.line,
                f"{clash.name} 在本讲的两个实验文件里值不同：这里是 {d.value}，{others}；页面、绑定和代码块读的是本讲"
                "合在一起的一个命名空间（后面的文件盖过前面的），分不清读的是哪一个：给其中一个换个名字", kind="name"))
    return out
