"""Would a page's code run if a reader pasted it, block after block, in page order?

A listing shows sections of a file that ran whole: a name the section reads may be bound by a line
of the file that no block shows (an import just above `[start:…]`). The run is green; the reader's
paste stops with a NameError. This module reads the code statically, in page order, the way the
pasted code would run: each top-level statement reads names (a function's body only when a later
statement calls it), then binds names.

Precision before recall: a name is reported only when the file that the reading code comes from
binds it at its top level in a line the reader has not been shown by then: that is the line the
paste lacks. A name bound nowhere in that file (a builtin, a star import, a name of the REPL) is
never reported, and code the parser can't read (a section inside a function) makes no claim.
"""

from __future__ import annotations

import ast
import builtins
import textwrap
from dataclasses import dataclass, field
from coursekit.core import syntax

BUILTINS = frozenset(dir(builtins))


@dataclass(frozen=True)
class Part:
    """One piece of code a block shows: a section of a file, or a block's own code."""

    path: str  # the file it comes from (a block's own code: the page)
    code: str  # as the reader sees it
    first: int  # the file's lines it shows, first to last
    last: int


@dataclass(frozen=True)
class Listing:
    line: int  # the page's line of the block's opening fence
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Missing:
    """A name a pasted block reads before anything shown binds it."""

    listing: Listing
    name: str
    path: str  # the file that binds it where the reader was not shown
    defined: int  # the line of that file
    later: int | None = None  # the page line of a later block that shows that binding
    via: str = ""  # the pasted function whose call reads it ("": the block reads it itself)

    def message(self) -> str:
        where = f"{self.path}:{self.defined}"
        why = (f"它在后面第 {self.later} 行的代码块里才出现（{where}）" if self.later is not None
               else f"它由 {where} 定义，那一行页面上没有展示")
        reads = f"调用 {self.via} 时用到 {self.name}" if self.via else f"用到 {self.name}"
        return (f"这段代码按页面顺序粘贴运行会出错：{reads}，{why}；"
                f"把那一行放进展示的段落，或在前面的代码块里展示它")


@dataclass
class _Function:
    path: str
    reads: set[str]  # the global names its body reads when called
    calls: set[str]  # the names it calls


@dataclass
class _Reader:
    """The pasted session so far: what it has bound, and the functions it defined."""

    bound: set[str] = field(default_factory=set)
    functions: dict[str, _Function] = field(default_factory=dict)

    def needs(self, names: set[str], calls: set[str]) -> dict[str, str]:
        """name -> the function whose call reads it ("": read directly), for each name not bound yet."""
        out = {n: "" for n in names if n not in self.bound}
        seen, todo = set(), [c for c in calls if c in self.functions]
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            fn = self.functions[f]
            for n in fn.reads:
                if n not in self.bound and n not in out:
                    out[n] = f
            todo += [c for c in fn.calls if c in self.functions]
        return {n: via for n, via in out.items() if n not in BUILTINS}


def _names(node: ast.AST) -> tuple[set[str], set[str], set[str]]:
    """(read, bound, called) by the node when it runs, not counting the bodies of the functions and
    classes it defines (a class body runs now: its reads count, minus what it binds itself)."""
    found = _Names()
    found.walk(node)
    return found.reads, found.binds, found.calls


class _Names:
    """What a walk over a node finds it reads, binds and calls (`_names`); each kind of node that
    scopes or binds names has its own rule (RULES), any other node is walked through."""

    def __init__(self) -> None:
        self.reads: set[str] = set()
        self.binds: set[str] = set()
        self.calls: set[str] = set()

    def walk(self, n: ast.AST, local: frozenset[str] = frozenset()) -> None:
        RULES.get(type(n), _Names._through)(self, n, local)

    def _function(self, n: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, local: frozenset[str]) -> None:
        """Defining a function reads its defaults (and a def its decorators and annotations) and binds its name."""
        args = n.args
        for d in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
            self.walk(d, local)
        if isinstance(n, ast.Lambda):
            return
        annotations = [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                       if a is not None and a.annotation is not None]
        for d in [*n.decorator_list, *annotations, *([n.returns] if n.returns is not None else [])]:
            self.walk(d, local)
        self.binds.add(n.name)

    def _class(self, n: ast.ClassDef, local: frozenset[str]) -> None:
        for d in [*n.decorator_list, *n.bases, *(k.value for k in n.keywords)]:
            self.walk(d, local)
        inner_reads, inner_binds = set(), set()
        for s in n.body:
            r, b, c = _names(s)
            inner_reads |= r - inner_binds
            inner_binds |= b
            self.calls |= c
        self.reads.update(inner_reads - local)
        self.binds.add(n.name)

    def _comprehension(self, n: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, local: frozenset[str]) -> None:
        targets = frozenset(t.id for g in n.generators for t in ast.walk(g.target) if isinstance(t, ast.Name))
        self.walk(n.generators[0].iter, local)  # evaluated outside the comprehension's scope
        inner = local | targets
        for g in n.generators:
            for e in ([g.iter] if g is not n.generators[0] else []) + g.ifs:
                self.walk(e, inner)
        for e in ([n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]):
            self.walk(e, inner)

    def _import(self, n: ast.Import | ast.ImportFrom, local: frozenset[str]) -> None:
        self.binds.update(a.asname or a.name.split(".")[0] for a in n.names if a.name != "*")

    def _name(self, n: ast.Name, local: frozenset[str]) -> None:
        if not isinstance(n.ctx, ast.Load):
            self.binds.add(n.id)
        elif n.id not in local:
            self.reads.add(n.id)

    def _through(self, n: ast.AST, local: frozenset[str]) -> None:
        if isinstance(n, ast.ExceptHandler) and n.name:
            self.binds.add(n.name)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            self.calls.add(n.func.id)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            self.reads.add(n.target.id)  # x += 1 reads x first
        for child in ast.iter_child_nodes(n):
            self.walk(child, local)


RULES = {
    ast.FunctionDef: _Names._function, ast.AsyncFunctionDef: _Names._function, ast.Lambda: _Names._function,
    ast.ClassDef: _Names._class, ast.Import: _Names._import, ast.ImportFrom: _Names._import, ast.Name: _Names._name,
    **dict.fromkeys((ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp), _Names._comprehension),
}


def _function(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, path: str) -> _Function:
    """The global names a function's body reads when it is called: its parameters and the names it
    binds are its own (roughly as Python's symbol table decides), a nested function's reads count."""
    a = node.args
    params = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None}
    body = [node.body] if isinstance(node, ast.Lambda) else node.body
    reads, local, calls = set(), set(params), set()
    for s in body:
        r, b, c = _names(s)
        reads, local, calls = reads | r, local | b, calls | c
        for inner in ast.walk(s):
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                f = _function(inner, path) if inner is not node else _Function(path, set(), set())
                reads, calls = reads | f.reads, calls | f.calls
    declared = {n for s in ast.walk(node) if isinstance(s, ast.Global) for n in s.names}
    return _Function(path, reads - (local - declared), calls)


def _statements(code: str) -> list[ast.stmt] | None:
    try:
        return syntax.parse(textwrap.dedent(code)).body
    except SyntaxError:
        return None  # a section inside a function, or not Python: no claim


def _top_bindings(source: str) -> dict[str, list[int]]:
    """name -> the lines where the file binds it at its top level (in if/for/with/try bodies too)."""
    try:
        tree = syntax.parse(source)
    except SyntaxError:
        return {}
    out: dict[str, list[int]] = {}

    def visit(stmts: list[ast.stmt]) -> None:
        for s in stmts:
            _, binds, _ = _names(s)
            for n in binds:
                out.setdefault(n, []).append(s.lineno)
            for body in ("body", "orelse", "finalbody"):
                if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    visit(getattr(s, body, []) or [])
            for h in getattr(s, "handlers", []) or []:
                visit(h.body)

    visit(tree.body)
    return out


def missing(listings: list[Listing], sources: dict[str, str]) -> list[Missing]:
    """What each block, pasted after the ones before it, reads that no shown code has bound; each
    name once, at the first block that needs it. `sources`: the whole text of each shown file."""
    paste = _Paste({path: _top_bindings(text) for path, text in sources.items()},
                   [(lst.line, p.path, p.first, p.last) for lst in listings for p in lst.parts])
    for lst in listings:
        for part in lst.parts:
            stmts = _statements(part.code)
            if stmts is not None:
                paste.run(lst, part.path, stmts)
    return paste.out


COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)  # statements with bodies


@dataclass
class _Paste:
    """The reader's paste so far (`missing`): the session, and what it has reported."""

    bindings: dict[str, dict[str, list[int]]]  # file -> name -> the lines binding it at its top level
    shown: list[tuple[int, str, int, int]]  # (page line, file, first, last) of every part shown
    reader: _Reader = field(default_factory=_Reader)
    out: list[Missing] = field(default_factory=list)
    told: set[str] = field(default_factory=set)

    def report(self, lst: Listing, path: str, needs: dict[str, str]) -> None:
        for name, via in sorted(needs.items()):
            origin = self.reader.functions[via].path if via else path
            lines = self.bindings.get(origin, {}).get(name)
            if not lines or name in self.told or self._seen(lst, origin, lines):
                continue  # bound where it was shown: the pasted code's own order, not a missing line
            later = sorted(at for ln in lines for at, p, a, b in self.shown if p == origin and a <= ln <= b)
            self.told.add(name)
            self.out.append(Missing(lst, name, origin, lines[0], later[0] if later else None, via))

    def _seen(self, lst: Listing, origin: str, lines: list[int]) -> bool:
        return any(p == origin and a <= ln <= b and at <= lst.line for ln in lines for at, p, a, b in self.shown)

    def run(self, lst: Listing, path: str, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, COMPOUND):
                self._compound(lst, path, s)
                continue
            reads, binds, calls = _names(s)
            self.report(lst, path, self.reader.needs(reads, calls))
            for n in binds:
                self.reader.functions.pop(n, None)
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.reader.functions[s.name] = _function(s, path)
            if isinstance(s, ast.ClassDef):  # calling a class runs its methods (at least __init__)
                methods = [_function(m, path) for m in s.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
                self.reader.functions[s.name] = _Function(path, set().union(*(m.reads for m in methods)),
                                                          set().union(*(m.calls for m in methods)))
            self.reader.bound |= binds

    def _compound(self, lst: Listing, path: str, s: ast.stmt) -> None:
        """A statement with bodies: its head (test, iterable, target, with items) runs first, then
        each body in turn, as if it ran through all of them."""
        head = [getattr(s, k) for k in ("test", "iter", "target") if getattr(s, k, None) is not None]
        reads, binds, calls = set(), set(), set()
        for h in head + list(getattr(s, "items", [])):
            r, b, c = _names(h)
            reads, binds, calls = reads | r, binds | b, calls | c
        self.report(lst, path, self.reader.needs(reads, calls))
        self.reader.bound |= binds
        for body in ("body", "orelse", "finalbody"):
            self.run(lst, path, getattr(s, body, []) or [])
        for h in getattr(s, "handlers", []) or []:
            if h.type is not None:
                r, _, c = _names(h.type)
                self.report(lst, path, self.reader.needs(r, c))
            if h.name:
                self.reader.bound.add(h.name)
            self.run(lst, path, h.body)
