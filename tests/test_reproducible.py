"""Byte-identical builds: every installed package pinned, and two cold builds of one commit equal."""

from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.conftest import ROOT, copy_repo, mkdocs_build

LOCK = ROOT / "constraints.txt"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line in ("-c constraints.txt", "-e ."):
            continue  # the lock itself, and this repository (an editable install, no version to pin)
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([\w.+]+)", line)
        assert m, f"{path.name}: not an exact pin: {line}"
        out[canonical(m.group(1))] = m.group(2)
    return out


def test_the_lock_pins_every_package_once_and_agrees_with_the_requirements():
    lock = pins(LOCK)
    lines = [x for x in LOCK.read_text(encoding="utf-8").splitlines() if x and not x.startswith("#")]
    assert len(lines) == len(lock) and lines == sorted(lines, key=lambda x: x.split("==")[0]), "one line per package, by name"
    for name in ("requirements.txt", "requirements-test.txt"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "-c constraints.txt" in text.splitlines(), f"{name} must install through the lock"
        for pkg, version in pins(ROOT / name).items():
            assert lock.get(pkg) == version, f"{name} pins {pkg}=={version}, the lock {lock.get(pkg)}"
    assert lock["zensical"] == "0.0.73" and lock["torch"] == "2.13.0"


def _closure(roots: list[str]) -> dict[str, str]:
    """Every distribution the roots need in this environment (markers evaluated), with its version."""
    seen: dict[str, str] = {}
    todo = list(roots)
    while todo:
        name = canonical(todo.pop())
        if name in seen:
            continue
        dist = metadata.distribution(name)
        seen[name] = dist.version.split("+")[0]
        for spec in dist.requires or []:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def test_everything_the_site_and_the_tests_install_is_in_the_lock_at_the_installed_version():
    roots = [*pins(ROOT / "requirements.txt"), *pins(ROOT / "requirements-test.txt")]
    installed = _closure(roots)
    lock = pins(LOCK)
    missing = sorted(set(installed) - set(lock))
    assert not missing, f"installed but not pinned in constraints.txt: {missing}"
    differ = {n: (v, lock[n]) for n, v in installed.items() if lock[n] != v}
    assert not differ, f"installed version differs from the lock (installed, lock): {differ}"
    assert len(installed) > 80  # transitive ones included, not just the ten direct pins


def test_ci_and_the_test_command_install_through_the_requirements():
    test_sh = (ROOT / "scripts/test.sh").read_text(encoding="utf-8")
    setup_sh = (ROOT / "scripts/setup.sh").read_text(encoding="utf-8")
    assert "bash scripts/setup.sh --test" in test_sh  # which installs both
    assert "reqs=(-r requirements.txt)" in setup_sh and "reqs+=(-r requirements-test.txt)" in setup_sh
    ci = (ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8")
    assert "pip install -r requirements.txt" in ci
    for line in ci.splitlines():  # the CPU torch comes alone; its dependencies come pinned afterwards
        if "pip install" in line and "torch" in line:
            assert "--no-deps" in line and "-c constraints.txt" in line, line


def test_a_newcomer_installs_the_cpu_torch_with_cis_own_command():
    """Where no torch wheel is on the machine's disk, scripts/setup.sh (which both README commands
    run first) installs it with CI's own step, read from ci.yml."""
    printed = subprocess.run(["bash", "scripts/setup.sh", "--print-torch-command"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    ci = (ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8")
    torch = next(line for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
                 if line.startswith("torch=="))
    assert printed.startswith(f"python -m pip install --no-deps -c constraints.txt {torch} --index-url ")
    assert ci.count(f"run: {printed}\n") == 1  # the site job's step; the test jobs run setup.sh
    assert "bash scripts/setup.sh" in (ROOT / "scripts/serve.sh").read_text(encoding="utf-8")
    assert "bash scripts/setup.sh --test" in (ROOT / "scripts/test.sh").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = (ROOT / "docs/setup.md").read_text(encoding="utf-8")
    assert "bash scripts/serve.sh" in readme and "bash scripts/test.sh" in readme and "scripts/setup.sh" in readme
    assert '--8<-- "snippets/serve.sh"' in setup and '--8<-- "snippets/test.sh"' in setup
    assert "scripts/setup.sh" in setup and "CPU" in setup


# --- two cold builds ---------------------------------------------------------------------------

def commit_epoch() -> str:
    out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip().isdigit(), out.stderr
    return out.stdout.strip()


def cold_copy(dest: Path) -> Path:
    repo = copy_repo(dest)
    shutil.rmtree(repo / ".cache", ignore_errors=True)  # cold: no cached runs to reuse
    return repo


def differing(a: Path, b: Path) -> list[str]:
    names = lambda root: {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}  # noqa: E731
    left, right = names(a), names(b)
    out = [f"only in the first build: {n}" for n in sorted(left - right)]
    out += [f"only in the second build: {n}" for n in sorted(right - left)]
    out += [f"differs: {n}" for n in sorted(left & right) if not filecmp.cmp(a / n, b / n, shallow=False)]
    return out


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    epoch = commit_epoch()
    sites = []
    for name in ("first", "second-copy"):  # different folders, different path lengths
        repo = cold_copy(tmp_path_factory.mktemp(name) / "repo")
        site = repo / "site"
        result = mkdocs_build(repo, site, SOURCE_DATE_EPOCH=epoch)
        assert result.returncode == 0, result.stderr
        sites.append(site)
    return sites, epoch


@pytest.mark.build
def test_two_cold_builds_of_one_commit_are_byte_identical(two_builds):
    (a, b), _ = two_builds
    diff = differing(a, b)
    details = []
    for line in diff[:5]:
        name = line.split(": ", 1)[1]
        if line.startswith("differs") and not name.endswith(".gz"):
            x, y = (a / name).read_bytes(), (b / name).read_bytes()
            at = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            details.append(f"  {name} at byte {at}: {x[max(0, at - 60):at + 60]!r}\n"
                           f"  {' ' * len(name)}   vs {y[max(0, at - 60):at + 60]!r}")
    message = "the two builds differ:\n" + "\n".join(diff) + "\n" + "\n".join(details)
    assert not diff, message
