"""coursekit's layers (coursekit/__init__.py): the core imports no builder and no Markdown library,
the extensions import no builder, only the MkDocs adapter imports MkDocs, Material or
mkdocs-jupyter, and the two adapters import nothing of each other's builder. Imports inside functions
count too, and so do importlib.import_module and __import__ (refused but in the runner, which imports
the lesson it is asked to run); a relative import is refused (the kit names
its modules in full). No kit module imports, at any remove, one that imports it (no import circle). The
engine plans no page run by reading pages. No function on the build path has BRANCHES or more
branches. Scripts import nothing from tests/.
The package docstring and the README's "What is where" name every layer and module; coursekit/README.md
every layer. The tests' own fast layer may start no build, serve, lesson or script that runs one."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, SlowInFastLayer

BUILDERS = {"mkdocs", "material", "mkdocs_jupyter", "zensical"}
MARKDOWN = {"markdown", "pymdownx", "markdown_exec"}
RULES = {  # layer -> what its modules may not import
    "core": BUILDERS | MARKDOWN | {"coursekit.extensions", "coursekit.mkdocs_adapter", "coursekit.zensical_adapter"},
    "extensions": BUILDERS | {"coursekit.mkdocs_adapter", "coursekit.zensical_adapter"},
    "zensical_adapter": BUILDERS - {"zensical"} | {"coursekit.mkdocs_adapter"},  # one adapter knows no other
    "mkdocs_adapter": {"zensical", "coursekit.zensical_adapter"},
}
DYNAMIC = {"import_module", "__import__"}  # importlib.import_module("x"), __import__("x")
# The one kit module that imports by a computed name: the runner loads the lesson package it is asked to
# run (python -m lessons.l10 names it), a package of the course, never one of the kit's or a builder's.
BY_NAME = {"coursekit/core/runner.py"}


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every module the file imports, at any depth (`from a import b`: a.b, which
    may be a module or a name in a)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:  # the kit names its modules in full
            found.append((node.lineno, "(relative import)"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in DYNAMIC:
            arg = node.args[0] if node.args else None
            named = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            found.append((node.lineno, arg.value if named else "(import by a computed name)"))
    return found


def violations(kit: Path) -> list[str]:
    out = []
    for layer, banned in RULES.items():
        for path in sorted((kit / layer).rglob("*.py")):
            for line, module in imports(path):
                hit = next((b for b in banned if module == b or module.startswith(b + ".")), None)
                if hit:
                    out.append(f"{path.relative_to(kit.parent).as_posix()}:{line}: {layer} imports {hit}")
    for path in sorted(kit.rglob("*.py")):
        rel = path.relative_to(kit.parent).as_posix()
        out += [f"{rel}:{line}: {module}" for line, module in imports(path)
                if module.startswith("(") and not (module == "(import by a computed name)" and rel in BY_NAME)]
    for path in sorted(kit.rglob("*.py")):
        if path.relative_to(kit).parts[0] == "mkdocs_adapter":
            continue
        out += [f"{path.relative_to(kit.parent).as_posix()}:{line}: only the MkDocs adapter imports {module.split('.')[0]}"
                for line, module in imports(path) if module.split(".")[0] in BUILDERS - {"zensical"}]
    return sorted(set(out))


def test_each_layer_imports_only_what_lies_under_it():
    assert violations(ROOT / "coursekit") == []


def test_the_rule_finds_a_builder_imported_inside_a_function_of_the_core(tmp_path):
    kit = tmp_path / "coursekit"
    (kit / "core").mkdir(parents=True)
    (kit / "extensions").mkdir()
    (kit / "core/fine.py").write_text("import json\nfrom coursekit.core import numbers\n", encoding="utf-8")
    (kit / "core/bad.py").write_text("def f():\n    from mkdocs.exceptions import PluginError\n", encoding="utf-8")
    (kit / "extensions/worse.py").write_text("from coursekit.mkdocs_adapter import hooks\n", encoding="utf-8")
    (kit / "core/hidden.py").write_text("import importlib\nimportlib.import_module('material.plugins')\n"
                                        "from . import numbers\n__import__(name)\n", encoding="utf-8")
    (kit / "mkdocs_adapter").mkdir()
    (kit / "mkdocs_adapter/across.py").write_text("from coursekit.zensical_adapter import stage\n", encoding="utf-8")
    assert violations(kit) == [
        "coursekit/core/bad.py:2: core imports mkdocs",
        "coursekit/core/bad.py:2: only the MkDocs adapter imports mkdocs",
        "coursekit/core/hidden.py:2: core imports material",
        "coursekit/core/hidden.py:2: only the MkDocs adapter imports material",
        "coursekit/core/hidden.py:3: (relative import)",
        "coursekit/core/hidden.py:4: (import by a computed name)",
        "coursekit/extensions/worse.py:1: extensions imports coursekit.mkdocs_adapter",
        "coursekit/mkdocs_adapter/across.py:1: mkdocs_adapter imports coursekit.zensical_adapter",
    ]


def _module(kit: Path, path: Path) -> str:
    parts = list(path.relative_to(kit.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(kit: Path) -> dict[str, set[str]]:
    """Module -> the kit's modules it imports (at any depth, as `imports` reads them): `from a import b`
    is the module a.b when there is one, else a; importing a module imports its packages too."""
    files = {_module(kit, p): p for p in sorted(kit.rglob("*.py"))}
    graph = {}
    for name, path in files.items():
        found = set()
        for _, module in imports(path):
            parts = module.split(".")
            found |= {".".join(parts[:k]) for k in range(1, len(parts) + 1) if ".".join(parts[:k]) in files}
        graph[name] = found - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each set of modules that import each other at some remove (a strongly
    connected component of more than one module, Tarjan's), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_no_module_of_the_kit_imports_one_that_imports_it():
    assert cycles(import_graph(ROOT / "coursekit")) == []


def test_the_rule_finds_an_import_circle_however_far_round_and_inside_functions(tmp_path):
    kit = tmp_path / "coursekit"
    (kit / "core").mkdir(parents=True)
    (kit / "extensions").mkdir()
    for folder in (kit, kit / "core", kit / "extensions"):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    (kit / "core/a.py").write_text("from coursekit.core import b\n", encoding="utf-8")
    (kit / "core/b.py").write_text("from coursekit.core.c import VALUE\n", encoding="utf-8")
    (kit / "core/c.py").write_text("def f():\n    import coursekit.core.a\n", encoding="utf-8")
    (kit / "extensions/d.py").write_text("from coursekit.core import a\n", encoding="utf-8")  # into it, not round it
    (kit / "extensions/e.py").write_text("from coursekit.extensions import f\n", encoding="utf-8")
    (kit / "extensions/f.py").write_text("from coursekit.extensions.e import X\n", encoding="utf-8")
    assert cycles(import_graph(kit)) == [["coursekit.core.a", "coursekit.core.b", "coursekit.core.c"],
                                         ["coursekit.extensions.e", "coursekit.extensions.f"]]


BUILD_PATH = ("core", "extensions", "mkdocs_adapter")
BRANCHES = 30  # branches a function on the build path stays under; rules go in tables of data
BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.ExceptHandler, ast.IfExp, ast.BoolOp,
             ast.comprehension, ast.With, ast.AsyncWith, ast.match_case)


def branchy(source: str, limit: int = BRANCHES) -> list[tuple[str, int]]:
    """(function, branches) for each function of `source` with `limit` or more: the if, for, while,
    try, except, conditional expression, and/or, comprehension, with and match case nodes in it,
    those of the functions it defines included."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            count = sum(isinstance(n, BRANCHING) for n in ast.walk(node))
            found += [(node.name, count)] if count >= limit else []
    return found


def test_no_function_on_the_build_path_has_thirty_branches():
    found = [f"coursekit/{layer}/{p.name}: {name} has {count}" for layer in BUILD_PATH
             for p in sorted((ROOT / "coursekit" / layer).rglob("*.py"))
             for name, count in branchy(p.read_text(encoding="utf-8"))]
    assert found == []


def test_the_branch_count_reads_every_kind_of_branch_nested_functions_included():
    source = ("def f(x):\n    def g():\n        return [y for y in x if y and x]\n"  # comprehension, and
              "    if x:\n        pass\n    for _ in x:\n        pass\n    while x:\n        break\n"
              "    try:\n        pass\n    except ValueError:\n        pass\n    with x:\n        pass\n"
              "    match x:\n        case 1:\n            pass\n    return 1 if x else 2\n")
    assert branchy(source, limit=10) == [("f", 10)]
    assert branchy(source, limit=11) == []


@pytest.mark.parametrize("module", ["scan", "widgets", "fence", "guard"])
def test_the_engine_reads_no_page(module):
    """What a lesson's page will ask is the extension's plan (coursekit.extensions.checks.plan)."""
    engine = ROOT / "coursekit/core/engine.py"
    assert not [m for _, m in imports(engine) if m.split(".")[-1] == module]


def test_tinylm_knows_nothing_of_the_kit():
    for path in sorted((ROOT / "tinylm").rglob("*.py")):
        assert not [m for _, m in imports(path) if m.startswith("coursekit")], path


def test_scripts_import_nothing_from_the_tests():
    found = [f"{p.relative_to(ROOT).as_posix()}:{line}: {m}" for p in sorted((ROOT / "scripts").rglob("*.py"))
             for line, m in imports(p) if m == "tests" or m.startswith("tests.")]
    assert found == []


def test_the_package_docstring_and_the_readme_name_every_layer_and_module():
    import coursekit

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    kit_readme = (ROOT / "coursekit/README.md").read_text(encoding="utf-8")
    doc = coursekit.__doc__
    for layer in sorted(p for p in (ROOT / "coursekit").iterdir() if (p / "__init__.py").is_file()):
        assert f"`coursekit/{layer.name}/`" in readme, layer.name  # a row of "What is where"
        assert f"`coursekit/{layer.name}/`" in kit_readme, layer.name  # its maintainers' "Layers"
        modules = [m.stem for m in layer.glob("*.py") if m.stem not in ("__init__", "__main__")]
        if layer.name != "example":
            assert f"coursekit.{layer.name}" in doc, layer.name
            missing = [m for m in modules if m not in doc]
            assert not missing, f"coursekit/__init__.py does not name {layer.name}'s {missing}"


def test_the_kit_imports_nothing_of_the_scripts_or_the_tests():
    """The kit's own files (what its digest covers) hold no harness: the tests' lives in tests/,
    what the benchmarks and the tests drive in scripts/drive.py."""
    found = [f"{p.relative_to(ROOT).as_posix()}:{line}: {m}" for p in sorted((ROOT / "coursekit").rglob("*.py"))
             for line, m in imports(p) if m.split(".")[0] in ("scripts", "tests")]
    assert found == []


@pytest.mark.parametrize("argv", [
    ["mkdocs", "build", "--strict"], [sys.executable, "-m", "mkdocs", "serve"], [sys.executable, "-m", "lessons.l97"],
    ["bash", "-c", "python -m lessons.l97"], ["bash", "-c", "cd /tmp && python -m lessons.l97 --quiet"],
    [sys.executable, "scripts/confirm_shown.py", "docs/lessons/97-x.md"], [sys.executable, "-m", "coursekit.core.worker"],
])
def test_a_fast_test_is_refused_a_build_a_serve_or_a_lesson_however_it_is_started(argv):
    with pytest.raises(SlowInFastLayer, match=r"mark it @pytest\.mark\.engine"):
        subprocess.run(argv, capture_output=True)


def test_a_fast_test_may_start_other_processes():
    assert subprocess.run([sys.executable, "-c", "print('lessons/l97 不是一讲的命令')"], capture_output=True).returncode == 0


def _direct_parses(folder: Path) -> list[str]:
    """Each `ast.parse(...)` call of the kit outside coursekit/core/syntax.py, as path:line."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        if path.name == "syntax.py" and path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            func = node.func if isinstance(node, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "parse" and getattr(func.value, "id", "") == "ast":
                found.append(f"{path.relative_to(folder.parent)}:{node.lineno}")
    return found


def test_the_kit_parses_python_only_through_its_one_locked_door(tmp_path):
    """Two threads in ast.parse at once can fail in CPython 3.11 (coursekit/core/syntax.py)."""
    assert _direct_parses(ROOT / "coursekit") == []
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit/a.py").write_text("import ast\ntree = ast.parse('x = 1')\n", encoding="utf-8")
    assert _direct_parses(tmp_path / "kit") == ["kit/a.py:2"]
