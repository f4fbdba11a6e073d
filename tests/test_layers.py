"""coursekit's layers (coursekit/__init__.py): the core imports no builder and no Markdown library,
the extensions import no builder, only the MkDocs adapter imports MkDocs, Material or
mkdocs-jupyter, and the Zensical adapter imports nothing of MkDocs'. Imports inside functions count too. The engine plans no page run by reading pages."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

BUILDERS = {"mkdocs", "material", "mkdocs_jupyter", "zensical"}
MARKDOWN = {"markdown", "pymdownx", "markdown_exec"}
RULES = {  # layer -> what its modules may not import
    "core": BUILDERS | MARKDOWN | {"coursekit.extensions", "coursekit.mkdocs_adapter", "coursekit.zensical_adapter"},
    "extensions": BUILDERS | {"coursekit.mkdocs_adapter", "coursekit.zensical_adapter"},
    "zensical_adapter": BUILDERS - {"zensical"} | {"coursekit.mkdocs_adapter"},  # one adapter knows no other
}


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every module the file imports, at any depth (`from a import b`: a.b, which
    may be a module or a name in a)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
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
    assert violations(kit) == [
        "coursekit/core/bad.py:2: core imports mkdocs",
        "coursekit/core/bad.py:2: only the MkDocs adapter imports mkdocs",
        "coursekit/extensions/worse.py:1: extensions imports coursekit.mkdocs_adapter",
    ]


@pytest.mark.parametrize("module", ["scan", "widgets", "fence", "guard"])
def test_the_engine_reads_no_page(module):
    """What a lesson's page will ask is the extension's plan (coursekit.extensions.checks.plan)."""
    engine = ROOT / "coursekit/core/engine.py"
    assert not [m for _, m in imports(engine) if m.split(".")[-1] == module]


def test_tinylm_knows_nothing_of_the_kit():
    for path in sorted((ROOT / "tinylm").rglob("*.py")):
        assert not [m for _, m in imports(path) if m.startswith("coursekit")], path
