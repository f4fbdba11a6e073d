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
    reads, binds, calls = set(), set(), set()

    def walk(n: ast.AST, local: frozenset[str] = frozenset()) -> None:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = n.args
            for d in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
                walk(d, local)
            if not isinstance(n, ast.Lambda):
                for d in n.decorator_list:
                    walk(d, local)
                for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                    if a is not None and a.annotation is not None:
                        walk(a.annotation, local)
                if n.returns is not None:
                    walk(n.returns, local)
                binds.add(n.name)
            return
        if isinstance(n, ast.ClassDef):
            for d in [*n.decorator_list, *n.bases, *(k.value for k in n.keywords)]:
                walk(d, local)
            inner_reads, inner_binds, inner_calls = set(), set(), set()
            for s in n.body:
                r, b, c = _names(s)
                inner_reads |= r - inner_binds
                inner_binds |= b
                inner_calls |= c
            reads.update(inner_reads - local)
            calls.update(inner_calls)
            binds.add(n.name)
            return
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            targets = frozenset(t.id for g in n.generators for t in ast.walk(g.target) if isinstance(t, ast.Name))
            walk(n.generators[0].iter, local)  # evaluated outside the comprehension's scope
            inner = local | targets
            for g in n.generators:
                if g is not n.generators[0]:
                    walk(g.iter, inner)
                for cond in g.ifs:
                    walk(cond, inner)
            for e in ([n.key, n.value] if isinstance(n, ast.DictComp) else [n.elt]):
                walk(e, inner)
            return
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                if a.name != "*":
                    binds.add(a.asname or a.name.split(".")[0])
            return
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                if n.id not in local:
                    reads.add(n.id)
            else:
                binds.add(n.id)
            return
        if isinstance(n, ast.ExceptHandler) and n.name:
            binds.add(n.name)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            calls.add(n.func.id)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            reads.add(n.target.id)  # x += 1 reads x first
        for child in ast.iter_child_nodes(n):
            walk(child, local)

    walk(node)
    return reads, binds, calls


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
        return ast.parse(textwrap.dedent(code)).body
    except SyntaxError:
        return None  # a section inside a function, or not Python: no claim


def _top_bindings(source: str) -> dict[str, list[int]]:
    """name -> the lines where the file binds it at its top level (in if/for/with/try bodies too)."""
    try:
        tree = ast.parse(source)
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
    bindings = {path: _top_bindings(text) for path, text in sources.items()}
    shown = [(lst.line, p.path, p.first, p.last) for lst in listings for p in lst.parts]
    reader, out, told = _Reader(), [], set()

    def report(lst: Listing, path: str, needs: dict[str, str]) -> None:
        for name, via in sorted(needs.items()):
            origin = reader.functions[via].path if via else path
            lines = bindings.get(origin, {}).get(name)
            if not lines or name in told:
                continue
            seen = [ln for ln in lines if any(p == origin and a <= ln <= b and at <= lst.line
                                              for at, p, a, b in shown)]
            if seen:
                continue  # bound where it was shown: the pasted code's own order, not a missing line
            later = sorted(at for ln in lines for at, p, a, b in shown if p == origin and a <= ln <= b)
            told.add(name)
            out.append(Missing(lst, name, origin, lines[0], later[0] if later else None, via))

    def run(lst: Listing, path: str, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)):
                head = [getattr(s, k) for k in ("test", "iter", "target") if getattr(s, k, None) is not None]
                head += [i for i in getattr(s, "items", [])]
                reads, binds, calls = set(), set(), set()
                for h in head:
                    r, b, c = _names(h)
                    reads |= r
                    binds |= b
                    calls |= c
                report(lst, path, reader.needs(reads, calls))
                reader.bound |= binds
                for body in ("body", "orelse", "finalbody"):
                    run(lst, path, getattr(s, body, []) or [])
                for h in getattr(s, "handlers", []) or []:
                    if h.type is not None:
                        r, _, c = _names(h.type)
                        report(lst, path, reader.needs(r, c))
                    if h.name:
                        reader.bound.add(h.name)
                    run(lst, path, h.body)
                continue
            reads, binds, calls = _names(s)
            report(lst, path, reader.needs(reads, calls))
            for n in binds:
                reader.functions.pop(n, None)
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
                reader.functions[s.name] = _function(s, path)
            if isinstance(s, ast.ClassDef):  # calling a class runs its methods (at least __init__)
                methods = [_function(m, path) for m in s.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
                reader.functions[s.name] = _Function(path, set().union(*(m.reads for m in methods)),
                                                     set().union(*(m.calls for m in methods)))
            reader.bound |= binds

    for lst in listings:
        for part in lst.parts:
            stmts = _statements(part.code)
            if stmts is not None:
                run(lst, part.path, stmts)
    return out
