"""What the MkDocs hooks make, made for Zensical before it builds: the notebooks as pages, and a
configuration that names them (coursekit.zensical_adapter)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

from coursekit.core import engine, notebook, pagetext, stamps
from coursekit.extensions import checks

CONFIG = "mkdocs.yml"
ZENSICAL = '<a href="https://zensical.org/" target="_blank" rel="noopener">Zensical</a>'
MATERIAL_ONLY = {"partials/search.html"}  # Material 9.8.1's search box with an aria-label added
NOTEBOOK_NAV = re.compile(r"^(\s*-\s*[^:\n]+:\s*)(lessons/\d+-notebook)\.ipynb\s*$", re.M)


def _root() -> Path:
    root = Path.cwd()
    if not (root / CONFIG).is_file():
        raise SystemExit(f"{root}: 没有 {CONFIG}：请在课程仓库的根目录运行")
    return root


def _cache(root: Path) -> Path:
    return root / ".cache/coursekit"


def notebooks(root: Path) -> tuple[list[str], list[str]]:
    """Each lesson's notebook, made from its run (the run cache makes this quick when nothing
    changed): (their paths under .cache/coursekit/ipynb, the failing lessons' messages)."""
    build = engine.Build(root, _cache(root), planner=checks.plan)
    try:
        build.prefetch()
        return notebook.write_all(build, root, _cache(root) / notebook.MADE)
    finally:
        build.close()


def _notebook_page(nb_path: Path, uri: str) -> str:
    number = re.match(r"lessons/0*(\d+)-", uri).group(1)
    markdown, _ = notebook.to_markdown(json.loads(pagetext.read(nb_path)), number, Path(uri).name)
    return f"---\ntitle: {notebook.title_of(number)}\nsearch:\n  exclude: true\n---\n\n{markdown}"


def _place_notebooks(root: Path, docs: Path, uris: list[str]) -> None:
    """Each made notebook (`uris`, under .cache/coursekit/ipynb) into the staged `docs`: its page
    as lessons/NN-notebook.md, the .ipynb to download beside it, where MkDocs puts it."""
    for uri in uris:
        made = _cache(root) / notebook.MADE / uri
        (docs / uri).with_suffix(".md").write_text(_notebook_page(made, uri), encoding="utf-8")
        download = docs / uri[: -len(".ipynb")] / Path(uri).name
        download.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(made, download)


def config_text(root: Path, text: str) -> str:
    """mkdocs.yml as Zensical is to read it from the staging folder: the notebooks' nav entries
    name their Markdown pages, the theme is Zensical's classic variant with the staged overrides,
    the footer is the extension's to add,
    and Zensical watches what pages show besides their text (the site is built inside the staging
    folder: Zensical keeps it within the configuration's). Text edits, not a YAML round trip: the file's tags stay as written."""
    out = NOTEBOOK_NAV.sub(lambda m: f"{m.group(1)}{m.group(2)}.md", text)
    # the theme's folder (staged: see stage), and Zensical's classic variant, the one Material's overrides fit
    out, custom = re.subn(r"^(\s*)(custom_dir:\s*)(\S+)\s*$",
                          lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}\n{m.group(1)}variant: classic",
                          out, flags=re.M)
    repository = re.search(r"^\s*repository:\s*(.+?)\s*$", out, re.M)
    out, footer = re.subn(r"^(\s*)- coursekit\.extensions\.checks\s*$",
                          lambda m: f"{m.group(1)}- coursekit.extensions.checks:\n{m.group(1)}    footer: true\n"
                                    f"{m.group(1)}    repository: {repository.group(1) if repository else repr('')}",
                          out, flags=re.M)
    # Zensical converts a page again only when its text changes; a file it watches rebuilds every
    # page (a lesson's run, a listing, an include): mkdocs.yml's watch list, from the repository
    out, watch = re.subn(r"^(watch:[ \t]*\n)((?:[ \t]+-[ \t]*\S+[ \t]*\n)+)",
                         lambda m: m.group(1) + re.sub(r"(-[ \t]*)(\S+)", lambda e: f"{e.group(1)}{root / e.group(2)}",
                                                       m.group(2)), out, flags=re.M)
    if not custom or not footer or not watch:
        raise SystemExit(f"{root / CONFIG}: 找不到 theme.custom_dir、watch 或 markdown_extensions 里的 "
                         "coursekit.extensions.checks：Zensical 适配器要改写它们")
    return out


def stage(root: Path) -> tuple[Path, list[str]]:
    """The staging folder's configuration (docs/ copied beside it, with the notebook pages), and
    the messages of lessons whose notebook could not be made."""
    uris, errors = notebooks(root)
    folder = _cache(root) / "zensical"
    docs = folder / "docs"
    shutil.rmtree(docs, ignore_errors=True)
    shutil.copytree(root / "docs", docs)
    _place_notebooks(root, docs, uris)
    # Material's own partials copied with a change (MATERIAL_ONLY) do not fit Zensical's templates
    shutil.rmtree(folder / "overrides", ignore_errors=True)
    shutil.copytree(root / "overrides", folder / "overrides", ignore=lambda d, names: [
        n for n in names if (Path(d) / n).relative_to(root / "overrides").as_posix() in MATERIAL_ONLY])
    credit = folder / "overrides/partials/copyright.html"  # the page's last line names the builder
    if credit.is_file():
        credit.write_text(re.sub(r"本站用 .*? 生成", f"本站用 {ZENSICAL} 生成", credit.read_text(encoding="utf-8"), flags=re.S),
                          encoding="utf-8")
    config = folder / CONFIG
    config.write_text(config_text(root, (root / CONFIG).read_text(encoding="utf-8")), encoding="utf-8")
    return config, errors


def _zensical(*args: str) -> list[str]:
    return [sys.executable, "-m", "zensical", *args]


# the lessons' code runs inside Zensical's process tree: its bytecode written under lessons/ and
# tinylm/, which Zensical watches, would start another rebuild
ENV = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


def build() -> int:
    root = _root()
    config, errors = stage(root)
    code = subprocess.run(_zensical("build", "--clean", "-f", str(config)), cwd=root, env=ENV).returncode
    if code == 0:  # where `mkdocs build` puts it
        shutil.rmtree(root / "site", ignore_errors=True)
        shutil.move(config.parent / "site", root / "site")
    for message in errors:
        print(f"Error: {message}", file=sys.stderr)
    return code or (1 if errors else 0)


def serve(address: str) -> int:
    """`zensical serve` on the staging folder, kept in step with docs/ (a page saved there is
    copied over, and Zensical rebuilds it) and with the lessons' code (the notebooks are made
    again; Zensical, watching lessons/ and tinylm/, converts the pages again with the new runs)."""
    root = _root()
    config, errors = stage(root)
    for message in errors:
        print(f"Error: {message}", file=sys.stderr)
    server = subprocess.Popen(_zensical("serve", "-a", address, "-f", str(config)), cwd=root, env=ENV)
    stop = threading.Event()
    threading.Thread(target=_follow, args=(root, config.parent / "docs", stop), daemon=True).start()
    try:
        return server.wait()
    except KeyboardInterrupt:
        server.terminate()
        return server.wait()
    finally:
        stop.set()


def _stamps(folder: Path) -> dict[Path, tuple]:
    """Each file's time with the digest of its bytes: an edit that put the time back is seen too
    (the digest is read again only when the file's stamp moved, coursekit.core.stamps)."""
    out = {}
    for path in folder.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            try:
                out[path] = (path.stat().st_mtime_ns, stamps.digest(path))
            except OSError:
                pass
    return out


def _follow(root: Path, docs: Path, stop: threading.Event, every: float = 0.1) -> None:
    pages, code = _stamps(root / "docs"), {**_stamps(root / "lessons"), **_stamps(root / "tinylm")}
    while not stop.wait(every):
        now = _stamps(root / "docs")
        for path in [p for p, t in now.items() if pages.get(p) != t]:
            target = docs / path.relative_to(root / "docs")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for path in set(pages) - set(now):
            (docs / path.relative_to(root / "docs")).unlink(missing_ok=True)
        pages = now
        after = {**_stamps(root / "lessons"), **_stamps(root / "tinylm")}
        if after != code:
            code = after
            uris, errors = notebooks(root)
            for message in errors:
                print(f"Error: {message}", file=sys.stderr)
            _place_notebooks(root, docs, uris)
