"""Our one-shot `mkdocs build` against Jupyter Book 1 on the same N-lesson course (issue 21, item 3).
Prints, asserts nothing.

    python scripts/bench_jb.py [--sizes 1 20] [--repeat 3] [--repin]

Jupyter Book is installed with the exact pins of scripts/bench_jb_requirements.txt into its own
virtual environment, .cache/bench/jupyter-book/venv (git-ignored), which is reused while its pins
still match; nothing goes into the Python environment this script runs in. `--repin` makes that
file anew from what pip resolves for jupyter-book==1.0.4.post1, torch==2.13.0, numpy and ipykernel.

For each size N, the course is the one scripts/bench_scale.py makes (the first lesson plus N-1
renamed copies, made with scripts/new_lesson.py). The book has the site's pages at the same paths:
each lesson a MyST Markdown notebook made from its page (our `{=...}` annotations and markdown-exec
blocks taken out, admonitions turned into MyST ones, `--8<--` includes written in) with the lesson's
experiment files, whole and in EXPERIMENTS order, as code cells at the end of the section that first
shows them; the other pages (home, code pages, setup, authoring) as plain MyST pages. The kernel is an
ipykernel registered in the venv, with PYTHONPATH set to the course copy so that `tinylm` and
`lessons` import from it.

Rows, each measured for both tools in the same run (ours first on even repeats, Jupyter Book first on
odd ones), median of --repeat:
- cold: no caches (our .cache/ and site removed; the book's _build/, with its jupyter-cache, removed);
- nothing changed: the same build again;
- one lesson's prose edited: a new sentence at the end of one paragraph of the first lesson's page
  (and so of its chapter);
- one lesson's code edited: a new comment line at the top of the first lesson's first experiment file
  (and so of its code cell). It changes no number the page states; both tools re-run that lesson.
Each edit is new text every repeat, so neither tool can answer it from an earlier result.

Measured (Jupyter Book 1.0.4.post1, Sphinx 7.4.7, MyST-NB 1.4.0, jupyter-cache 1.0.1; both tools'
rows in one run, interleaved, medians of 3, 2-core machine, each edit new text every repeat):

| rebuild | N | ours s | Jupyter Book s | ours / JB |
| --- | --- | ---: | ---: | ---: |
| cold | 1 | 6.23 | 7.16 | 0.87 |
| cold | 20 | 21.60 | 107.57 | 0.20 |
| nothing changed | 1 | 0.89 | 1.56 | 0.57 |
| nothing changed | 20 | 1.24 | 1.88 | 0.66 |
| one lesson's prose edited | 1 | 1.56 | 2.21 | 0.70 |
| one lesson's prose edited | 20 | 1.62 | 2.11 | 0.77 |
| one lesson's code edited | 1 | 5.69 | 8.35 | 0.68 |
| one lesson's code edited | 20 | 5.76 | 6.55 | 0.88 |

Both goals are met: ours is faster in every row, and at 20 lessons a no-op rebuild takes 1.39× and a
prose edit 1.04× our 1-lesson figure. A code edit at 20 lessons reruns that lesson and its page's
blocks only: the other lessons' blocks are kept, since none of the files they read changed. Where the
remaining time of a no-op build at 20 lessons goes (profiled): loading `mkdocs.yml`, which imports
the theme, the plugins and the Markdown extensions, about a third; rendering Material's templates
for the 49 pages (its navigation, mostly), about a quarter; starting Python and MkDocs, about a
tenth; the rest is restoring the kept conversions, writing the pages and the kit's bookkeeping
(page keys, sealed records, the manifest, the footer). No lesson code runs, no worker starts, jieba and
nbconvert stay unloaded. Jupyter Book's no-op reads its pickled environment and writes nothing;
its cold build runs the notebooks one after another, one kernel (and one torch import) each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

# bench_scale's course: one function, no side effects on import beyond reading the lesson list.
from bench_scale import BASE, EXPERIMENT, make_course  # noqa: E402
from scripts.drive import course_lessons  # noqa: E402

HERE = ROOT / ".cache/bench/jupyter-book"
VENV = HERE / "venv"
STAMP = VENV / "bench-jb-stamp.json"
REQUIREMENTS = ROOT / "scripts/bench_jb_requirements.txt"
# numpy at the course's own pin (requirements.txt): torch imports it when present, as in our build
TOP_LEVEL = ["jupyter-book==1.0.4.post1", "torch==2.13.0", "numpy==2.4.6", "ipykernel"]
KERNEL = "bench-jb"
SHOWN = ["jupyter-book", "sphinx", "myst-nb", "myst-parser", "jupyter-cache", "nbclient", "ipykernel",
         "torch", "numpy"]
ROWS = [("cold", "cold"), ("noop", "nothing changed"), ("prose", "one lesson's prose edited"),
        ("code", "one lesson's code edited")]


class Failed(SystemExit):
    """A step that cannot go on: says what it was and the tail of what it printed, and exits 1."""

    def __init__(self, what: str, proc: subprocess.CompletedProcess | None = None, lines: int = 40) -> None:
        text = f"bench_jb: {what}"
        if proc is not None:
            tail = "\n".join(((proc.stdout or "") + (proc.stderr or "")).strip().splitlines()[-lines:])
            text += f" (exit {proc.returncode}); the last lines it printed:\n{tail}"
        super().__init__(text)  # SystemExit with a message: printed to stderr, exit status 1


def run(cmd: list[str], what: str, lines: int = 40, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode:
        raise Failed(what, proc, lines)
    return proc


# ---------------------------------------------------------------- the Jupyter Book environment

def venv_python() -> Path:
    return VENV / "bin/python"


def pins() -> dict[str, str]:
    """name → version of every `name==version` line of the requirements file."""
    if not REQUIREMENTS.exists():
        raise Failed(f"{REQUIREMENTS.relative_to(ROOT)} is missing: run with --repin to make it")
    out = {}
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            if not sep:
                raise Failed(f"{REQUIREMENTS.name}: every line must pin with ==, not {line!r}")
            out[canonical(name)] = version.strip()
    return out


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def installed(python: Path) -> dict[str, str]:
    proc = run([str(python), "-m", "pip", "list", "--format=json"], "listing the venv's packages")
    return {canonical(p["name"]): p["version"] for p in json.loads(proc.stdout)}


UNPINNED = ("pip", "setuptools", "wheel")  # what `python -m venv` brings


def mismatches(want: dict[str, str], have: dict[str, str]) -> list[str]:
    """What keeps the venv from being exactly the pins: a version off, a package missing or unpinned."""
    # torch==2.13.0 is met by the CPU build 2.13.0+cpu (a local version label, as PEP 440 matches it)
    off = [f"{n}=={v} (have {have.get(n, 'none')})" for n, v in want.items()
           if have.get(n, "").split("+")[0] != v]
    return off + [f"{n} {v} (not pinned)" for n, v in have.items() if n not in want and n not in UNPINNED]


def stamp_text() -> str:
    return json.dumps({"requirements": hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest(),
                       "python": sys.version, "kernel": KERNEL})


def new_venv() -> None:
    shutil.rmtree(VENV, ignore_errors=True)
    HERE.mkdir(parents=True, exist_ok=True)
    # torch goes into the venv as its own pinned copy rather than through --system-site-packages:
    # with the main environment visible, pip would count its packages (Jinja2, Pygments,
    # markdown-it-py, …, at mkdocs' versions) as already installed, so Jupyter Book would run on a mix
    # of the two environments' versions and the pins would not say what ran. Here the CPU wheel of
    # torch lies on disk and installs in seconds.
    run([sys.executable, "-m", "venv", str(VENV)], f"creating the virtual environment {VENV}")


def ensure_venv() -> None:
    want = pins()
    if STAMP.exists() and STAMP.read_text() == stamp_text() and venv_python().exists():
        try:
            if not mismatches(want, installed(venv_python())):
                return
        except Failed:
            pass
        print("bench_jb: the Jupyter Book venv no longer matches its pins; making it anew", file=sys.stderr)
    print(f"bench_jb: installing Jupyter Book into {VENV.relative_to(ROOT)} …", file=sys.stderr, flush=True)
    new_venv()
    run([str(venv_python()), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)],
        f"installing {REQUIREMENTS.name} into the venv", lines=25)
    bad = mismatches(want, installed(venv_python()))
    if bad:
        raise Failed("the venv does not hold the pinned versions: " + ", ".join(bad))
    register_kernel()
    STAMP.write_text(stamp_text())


def register_kernel() -> None:
    # inside the venv (<venv>/share/jupyter/kernels), found by the venv's jupyter-book and nowhere else
    run([str(venv_python()), "-m", "ipykernel", "install", "--prefix", str(VENV), "--name", KERNEL,
         "--display-name", "Python (bench-jb venv)"], "registering the venv's ipykernel")


def repin() -> None:
    """Resolve the top-level requirements in a fresh venv and write every resolved version as a pin."""
    new_venv()
    run([str(venv_python()), "-m", "pip", "install", "-q", *TOP_LEVEL], "resolving " + " ".join(TOP_LEVEL),
        lines=25)
    have = installed(venv_python())
    listed = sorted((n, v.split("+")[0]) for n, v in have.items() if n not in UNPINNED)
    REQUIREMENTS.write_text(
        "# Jupyter Book 1 and what it needs, for scripts/bench_jb.py only, as pip resolved\n"
        f"# {' '.join(TOP_LEVEL)} (python scripts/bench_jb.py --repin; Python {platform.python_version()}).\n"
        "# torch==2.13.0 is met by its CPU build (2.13.0+cpu).\n"
        + "".join(f"{n}=={v}\n" for n, v in listed), encoding="utf-8")
    register_kernel()
    STAMP.write_text(stamp_text())
    print(f"wrote {REQUIREMENTS.relative_to(ROOT)}: {len(listed)} pins", file=sys.stderr)


# ---------------------------------------------------------------- the book

ANNOTATION = re.compile(r"\{=[^{}\n]*\}|\{示意\}")
FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")
ADMONITION = re.compile(r'^(\s*)(?:!!!|\?\?\?\+?)\s+([\w-]+)(?:\s+"(.*)")?\s*$')
FILE_REF = re.compile(r'file="([^"]*)"')


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def drop_exec_blocks(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """The lines without markdown-exec blocks, and for each line kept, the files the dropped blocks
    just before it named (so a block's place is known after it is gone)."""
    out, refs, pending, i = [], [], [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m and "exec=" in m.group(3):
            pending += [ref.split(":")[0] for ref in " ".join(FILE_REF.findall(m.group(3))).split()]
            close = re.compile(rf"^\s*{m.group(2)}`*\s*$")
            i += 1
            while i < len(lines) and not close.match(lines[i]):
                i += 1
            i += 1
            continue
        out.append(lines[i])
        refs.append(pending)
        pending = []
        i += 1
    if pending:
        out.append("")
        refs.append(pending)
    return out, refs


def admonitions(lines: list[str]) -> tuple[list[str], int]:
    """Material's `!!! kind "title"` / `??? kind "title"` blocks as MyST `:::{admonition}` blocks (their
    content unindented by four); the depth of nesting found, for the outer fence's colons."""
    out, depth, i, in_fence = [], 0, 0, None
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        if fence and (in_fence is None or line.strip().startswith(in_fence)):
            in_fence = fence.group(2) if in_fence is None else None
        m = ADMONITION.match(line) if in_fence is None else None
        if not m:
            out.append(line)
            i += 1
            continue
        pad, kind, title = m.group(1), m.group(2), m.group(3) or m.group(2).capitalize()
        j, body = i + 1, []
        while j < len(lines) and (not lines[j].strip() or indent_of(lines[j]) > len(pad)):
            body.append(lines[j][len(pad) + 4:] if lines[j].strip() else "")
            j += 1
        while body and not body[-1]:
            body.pop()
            j -= 1
        inner, inner_depth = admonitions(body)
        if not any(x.strip() for x in inner):  # it held only a markdown-exec block: a directive needs content
            inner = ["（这里原是构建时运行的代码块；代码在本节末尾的代码单元里。）"]
        colons = ":" * (3 + inner_depth)
        out += [f"{pad}{colons}{{admonition}} {title}", f"{pad}:class: {kind}", ""]
        out += [f"{pad}{x}" if x else "" for x in inner]
        out += [f"{pad}{colons}"]
        depth = max(depth, inner_depth + 1)
        i = j
    return out, depth


SNIPPET = re.compile(r'^(\s*)--8<-- "([^"]+)"\s*$')
ATTR_FENCE = re.compile(r"^(\s*`{3,})\{\.([\w-]+)[^}]*\}\s*$")


def snippet(repo: Path, ref: str) -> str | None:
    """What `--8<-- "path"` or `--8<-- "path:section"` brings in, or None if there is no such file."""
    path, _, section = ref.partition(":")
    file = repo / path
    if not file.is_file():
        return None
    text = file.read_text(encoding="utf-8")
    if section:
        name = re.escape(section)
        m = re.search(rf"^.*--8<-- \[start:{name}\].*\n(.*?)^.*--8<-- \[end:{name}\]", text, re.S | re.M)
        text = m.group(1) if m else text
    return text.rstrip("\n")


def page_lines(repo: Path, text: str) -> list[str]:
    """A page's Markdown as MyST sees the same content: front matter, `{=...}` annotations dropped;
    included files (`--8<--`) written in, as the site's build includes them; `{.python title=…}`
    fences plain ones. markdown-exec blocks are left for drop_exec_blocks."""
    if text.startswith("---\n"):
        text = text.split("\n---\n", 1)[1]
    out = []
    for line in ANNOTATION.sub("", text).split("\n"):
        m, fence = SNIPPET.match(line), ATTR_FENCE.match(line)
        included = snippet(repo, m.group(2)) if m else None
        if included is not None:
            out += [m.group(1) + x if x else "" for x in included.split("\n")]
        elif fence:
            out.append(fence.group(1) + fence.group(2))
        else:
            out.append(line)
    return out


def plain_page(repo: Path, text: str) -> str:
    """A page that is not a lesson, as a MyST Markdown page."""
    lines, _ = admonitions(drop_exec_blocks(page_lines(repo, text))[0])
    return "\n".join(lines).rstrip("\n") + "\n"


def chapter(repo: Path, lesson) -> str:
    """A lesson as a MyST Markdown notebook: its page's prose, its experiment files as code cells."""
    plain, refs = drop_exec_blocks(page_lines(repo, lesson.markdown()))
    lines, _ = admonitions(plain)
    where, section = {}, 0  # experiment file → the section (0 = before the first `## `) that first shows it
    for line, named in zip(plain, refs):
        section += line.startswith("## ")
        for ref in named:
            where.setdefault(ref, section)
    cells: dict[int, list[str]] = {}
    at = 0
    for name, _title in lesson.experiments:
        path = f"{lesson.folder}/{name}.py"
        at = max(at, where.get(path, at))  # in EXPERIMENTS order, where the page first shows it
        code = (repo / path).read_text(encoding="utf-8").rstrip("\n")
        cells.setdefault(at, []).append(f"```{{code-cell}} ipython3\n{code}\n```\n")
    out, section = [], 0
    for line in lines:
        if line.startswith("## "):
            out += [""] + cells.pop(section, [])
            section += 1
        out.append(line)
    out += [""] + [c for s in sorted(cells) for c in cells[s]]
    head = ("---\njupytext:\n  text_representation:\n    extension: .md\n    format_name: myst\n"
            f"kernelspec:\n  name: {KERNEL}\n  display_name: Python (bench-jb venv)\n  language: python\n"
            "---\n\n")
    return head + "\n".join(out).rstrip("\n") + "\n"


def write_if_changed(path: Path, text: str) -> None:
    # Sphinx tells an edited source by its time stamp: a file rewritten with the same text would count
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def write_book(repo: Path, book: Path) -> None:
    book.mkdir(parents=True, exist_ok=True)
    lessons = course_lessons(repo)
    write_if_changed(book / "_config.yml", """\
title: 手写小模型，看懂大模型（基准用）
author: bench
only_build_toc_files: true
execute:
  execute_notebooks: cache
  timeout: 600
parse:
  myst_enable_extensions: [colon_fence, dollarmath]
sphinx:
  config:
    language: zh_CN
""")
    # the site's pages at the same paths (so the pages' relative links resolve): the home page, the
    # lessons (each a notebook), then the other pages
    others = sorted(p.relative_to(repo / "docs").as_posix() for p in (repo / "docs").rglob("*.md")
                    if p.name != "index.md" and p.parent.name != "lessons")
    chapters = [Path(x.page).relative_to("docs").with_suffix("").as_posix() for x in lessons]
    chapters += [x.removesuffix(".md") for x in others]
    write_if_changed(book / "_toc.yml", "format: jb-book\nroot: index\nchapters:\n"
                     + "".join(f"- file: {x}\n" for x in chapters))
    pages = {"index.md": plain_page(repo, (repo / "docs/index.md").read_text(encoding="utf-8"))}
    pages |= {x: plain_page(repo, (repo / "docs" / x).read_text(encoding="utf-8")) for x in others}
    pages |= {Path(x.page).relative_to("docs").as_posix(): chapter(repo, x) for x in lessons}
    for name, text in pages.items():
        (book / name).parent.mkdir(parents=True, exist_ok=True)
        write_if_changed(book / name, text)


# ---------------------------------------------------------------- the builds

def source_date_epoch() -> str:
    proc = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
    return proc.stdout.strip() or "1700000000"


def ours(repo: Path, site: Path, epoch: str) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": epoch}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    if proc.returncode:
        raise Failed(f"mkdocs build of {repo} failed", proc)
    return seconds


def jupyter_book(repo: Path, book: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(repo), "JUPYTER_PLATFORM_DIRS": "1",
           "PATH": f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("VIRTUAL_ENV", None)
    start = time.perf_counter()
    proc = subprocess.run([str(VENV / "bin/jupyter-book"), "build", str(book), "-q"], cwd=book, env=env,
                          capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - start
    # MyST-NB reports a notebook that failed to execute as a warning; the book still builds
    said = proc.stdout + proc.stderr
    if proc.returncode or re.search(r"[Ee]xecuting notebook failed|Execution Failed|Traceback", said):
        raise Failed(f"jupyter-book build of {book} failed", proc)
    return seconds


def check_executed(book: Path, repo: Path) -> None:
    """Every chapter's HTML shows the outputs of its code cells, and none is an error."""
    for lesson in course_lessons(repo):
        page = book / "_build/html" / Path(lesson.page).relative_to("docs").with_suffix(".html")
        html = page.read_text(encoding="utf-8") if page.exists() else ""
        if html.count('class="cell_output') < len(lesson.experiments) - 1 or "output traceback" in html:
            raise Failed(f"{page} does not show its code cells' outputs: the notebook did not execute")


def marker() -> str:
    # letters only: a digit in the page's prose would be a number the drift guard asks to bind
    return "".join(random.choice(string.ascii_lowercase) for _ in range(8))


def prose_edit(text: str, mark: str) -> str:
    """A sentence appended to the first plain paragraph after the first section heading."""
    lines = text.split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith("## "))
    for i in range(start + 1, len(lines)):
        paragraph_end = i + 1 < len(lines) and not lines[i + 1].strip()
        if lines[i].strip() and not re.match(r"\s|[#`!?<|>*-]|\d+\.", lines[i]) and paragraph_end:
            lines[i] += f"这一句是为测量构建时间加上的（{mark}）。"
            return "\n".join(lines)
    raise Failed("no paragraph to edit in the first lesson's page")


def code_edit(text: str, mark: str) -> str:
    return f"# 为测量构建时间加上的注释 {mark}\n" + text  # above every shown section: no listing moves


def measure(n: int, repeat: int, epoch: str, keep: bool = False) -> dict[str, tuple[list[float], ...]]:
    """For each row, (our seconds, Jupyter Book's seconds), one of each per repeat."""
    work = Path(tempfile.mkdtemp(prefix=f"bench-jb-{n}-"))
    times: dict[str, tuple[list[float], list[float]]] = {key: ([], []) for key, _ in ROWS}
    try:
        print(f"bench_jb: N={n}: making the course …", file=sys.stderr, flush=True)
        repo, site, book = make_course(work / "repo", n), work / "site", work / "book"
        page, experiment = repo / BASE.page, repo / EXPERIMENT
        originals = {path: path.read_text(encoding="utf-8") for path in (page, experiment)}
        for r in range(repeat):
            for path, text in originals.items():
                path.write_text(text, encoding="utf-8")
            write_book(repo, book)
            order = (0, 1) if r % 2 == 0 else (1, 0)
            for key, label in ROWS:
                if key == "cold":
                    shutil.rmtree(repo / ".cache", ignore_errors=True)
                    shutil.rmtree(site, ignore_errors=True)
                    shutil.rmtree(book / "_build", ignore_errors=True)
                elif key == "prose":
                    page.write_text(prose_edit(page.read_text(encoding="utf-8"), marker()), encoding="utf-8")
                elif key == "code":
                    code = code_edit(experiment.read_text(encoding="utf-8"), marker())
                    experiment.write_text(code, encoding="utf-8")
                write_book(repo, book)
                for side in order:
                    seconds = ours(repo, site, epoch) if side == 0 else jupyter_book(repo, book)
                    times[key][side].append(seconds)
                if key == "cold" and r == 0:
                    check_executed(book, repo)
                print(f"bench_jb: N={n} repeat {r + 1}/{repeat} {label}: ours {times[key][0][-1]:.2f} s, "
                      f"Jupyter Book {times[key][1][-1]:.2f} s", file=sys.stderr, flush=True)
        return times
    finally:
        if keep:
            print(f"bench_jb: N={n}: kept {work} (repo/, site/, book/)", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def versions() -> str:
    venv = installed(venv_python())
    main_env = {n: metadata.version(n)
                for n in ("mkdocs", "mkdocs-material", "markdown-exec", "mkdocs-jupyter", "torch", "numpy")}
    return ("ours: Python " + platform.python_version() + ", "
            + ", ".join(f"{n} {v}" for n, v in main_env.items())
            + "\nJupyter Book venv: " + ", ".join(f"{n} {venv.get(n, '?')}" for n in SHOWN))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repin", action="store_true", help="resolve the pins anew and write them")
    parser.add_argument("--keep", action="store_true",
                        help="keep each size's course, site and book (their folder is printed)")
    args = parser.parse_args()
    began = time.perf_counter()
    if args.repin:
        repin()
    ensure_venv()
    epoch = source_date_epoch()
    results = {n: measure(n, args.repeat, epoch, args.keep) for n in args.sizes}
    med = {(key, n): tuple(statistics.median(t) for t in results[n][key])
           for n in args.sizes for key, _ in ROWS}

    print(f"\n{os.cpu_count()} cores · {BASE.page} plus renamed copies · medians of {args.repeat}")
    print("| rebuild | N | ours s | Jupyter Book s | ours / JB |")
    print("| --- | --- | ---: | ---: | ---: |")
    for key, label in ROWS:
        for n in args.sizes:
            a, b = med[key, n]
            print(f"| {label} | {n} | {a:.2f} | {b:.2f} | {a / b:.2f} |")
    print("\nevery run (s), ours / Jupyter Book:")
    for key, label in ROWS:
        for n in args.sizes:
            a, b = results[n][key]
            runs = " ".join(f"{x:.2f}" for x in a) + " / " + " ".join(f"{x:.2f}" for x in b)
            print(f"- {label}, N={n}: {runs}")
    print("\n" + versions())

    small, large = min(args.sizes), max(args.sizes)
    faster = [f"{label} N={n}" for key, label in ROWS for n in args.sizes if med[key, n][0] >= med[key, n][1]]
    print("\ngoals (issue 21):")
    print("- ours faster in every row: "
          + ("met" if not faster else "not met (slower or equal: " + "; ".join(faster) + ")"))
    for key, label in (("noop", "nothing changed"), ("prose", "prose edit")):
        a, b = med[key, small][0], med[key, large][0]
        print(f"- {label} at N={large} within 1.5× of our N={small} figure: "
              f"{'met' if b <= 1.5 * a else 'not met'} ({b:.2f} s vs {a:.2f} s, {b / a:.2f}×)")
    print(f"\nthe whole run took {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
