"""The engine: each lesson's code runs once per build in a worker process of its own, and every
result is cached by what it depends on.

- A lesson's run (its EXPERIMENTS files, in order, through coursekit.core.runner) depends on the text of
  its own files (and of the data file binding their comments' numbers), on the syntax trees (not the
  comments) of every tinylm and lessons module it imported, on the runner's code (the kit's, not
  under lessons/) and on the Python, torch and numpy versions. The worker reports what it imported,
  so the record says exactly what to look at next time. Editing lesson 25 reruns lesson 25 and the
  lessons that import it; a prose edit reruns nothing. The runs are kept, sealed, a few per lesson,
  least recently used out (coursekit.core.store; digests: coursekit.core.digests).
- Page blocks and inline bindings are cached under the run's key: a block by its code, what it runs
  with and the code of the blocks before it in its namespace (a lesson page's blocks share one:
  coursekit.core.blocks), a binding by its expression.
- Workers are forked from a server that imported torch once; independent lessons run in
  parallel on the available cores. A worker lives for one page at most, so a block that patches
  torch or changes a tensor in place cannot leak into the next page or the next rebuild.
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from importlib import metadata
from multiprocessing.connection import Connection
from pathlib import Path
from typing import ClassVar

from coursekit.core import CourseError, blocks, digests, names, reads, stamps, store, syntax

TIME_LIMIT = 60.0  # seconds per experiment file or page block; a lesson may set TIME_LIMIT
OUTPUT_LIMIT = 100_000  # characters printed per file or block; a lesson may set OUTPUT_LIMIT
AFFECTS_OUTPUT = ("torch", "numpy")  # packages whose version can change a printed number
SITE = "site"  # the lesson id of blocks on pages of no lesson: they run in a worker with no lesson run
# Set to 1 (CI's tests do: tests/conftest.py built_site), each lesson that runs runs twice, each time
# in a fresh worker, and a statement printing otherwise fails it; a run kept without it runs again.
TWICE = "COURSEKIT_RUN_TWICE"
FORMAT = 7  # bump when the cache layout, or what a recorded run has passed, changes
LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # a runner label a lesson may ask for (RUNNER)


class LessonError(Exception):
    """Something in a lesson's code failed; `where` is (file, line) when known, `file` the
    experiment file that was running (the page names the block that shows it)."""

    def __init__(self, message: str, where: tuple[str, int] | None = None, ran: bool = True,
                 file: str | None = None) -> None:
        super().__init__(message)
        self.where = where
        self.ran = ran  # False: refused before it ran
        self.file = file


@dataclass
class Lesson:
    package: str  # lessons.l10
    number: str  # "10"
    title: str
    experiments: list[tuple[str, str]]
    time_limit: float = TIME_LIMIT
    output_limit: int = OUTPUT_LIMIT
    runner: str = ""  # the label of the CI runner it needs (RUNNER = "gpu"); "": any (coursekit.core.spread)

    @property
    def folder(self) -> str:
        return self.package.replace(".", "/")

    @property
    def id(self) -> str:
        return self.package.split(".")[-1]


def find_lessons(root: Path) -> dict[str, Lesson]:
    """{'l10': Lesson, …}: every lessons/lNN package that lists EXPERIMENTS, read without importing it
    (each __init__.py read again only when its stamp says it may have changed)."""
    found = {}
    for init in sorted((root / "lessons").glob("l[0-9]*/__init__.py")):
        lesson = _declared.get(init, _declaration)
        if lesson is not None:
            found[lesson.id] = lesson
    return found


def _declaration(init: Path) -> Lesson | None:
    tree = syntax.parse(init.read_text(encoding="utf-8"))
    names, lines = {}, {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                names[node.targets[0].id] = ast.literal_eval(node.value)
                lines[node.targets[0].id] = node.lineno
            except ValueError:
                pass
    if "EXPERIMENTS" not in names:
        return None
    lesson_id = init.parent.name
    runner = names.get("RUNNER", "")
    if not (isinstance(runner, str) and (runner == "" or LABEL.fullmatch(runner))):
        raise CourseError(f"lessons/{lesson_id}/__init__.py:{lines['RUNNER']}: RUNNER 应是 CI 运行器的标签，"
                          f"字母、数字和 . _ -，比如 RUNNER = \"gpu\"；写的是 {runner!r}")
    return Lesson(
        package=f"lessons.{lesson_id}", number=lesson_id[1:],
        title=(ast.get_docstring(tree) or lesson_id).strip().split("\n")[0],
        experiments=[tuple(e) for e in names["EXPERIMENTS"]],
        time_limit=float(names.get("TIME_LIMIT", TIME_LIMIT)),
        output_limit=int(names.get("OUTPUT_LIMIT", OUTPUT_LIMIT)),
        runner=runner,
    )


_declared = stamps.Remembered()  # a lesson's __init__.py -> its Lesson (None: not a lesson)


SITE_LESSON = Lesson(package="", number="", title="网站的页面", experiments=[])


def lesson_of(page: str) -> str | None:
    """The lesson a page under docs/lessons/ belongs to: docs/lessons/10-attention.md -> 'l10'."""
    m = re.fullmatch(r"(?:.*/)?docs/lessons/(\d+)-[^/]*\.md", page)
    return f"l{m.group(1)}" if m else None


def versions() -> dict[str, str]:
    """Python's version and those of AFFECTS_OUTPUT, without a local build tag (torch's +cpu, +cu126):
    a run a GPU runner's CUDA build of torch made serves a build with its CPU build (coursekit.core.spread)."""
    found = {"python": platform.python_version()}
    for name in AFFECTS_OUTPUT:
        try:
            found[name] = metadata.version(name).split("+")[0]
        except metadata.PackageNotFoundError:
            found[name] = "-"
    return found


def runner_digest(root: Path) -> str:
    """The runner's code as it behaves (coursekit.core.runner: how every experiment file runs and what
    of its printing is kept) and what a run may read (coursekit.core.reads): a run depends on them as
    on the lesson modules it imported. The ones the workers import: the tree's own kit when it has
    one (they start in the tree), else this one."""
    from coursekit import KIT

    def kit(rel: str) -> str:
        path = root / "coursekit" / rel
        return digests.kit_file(path if path.is_file() else KIT / rel)

    return digests.sha(kit("core/runner.py"), kit("core/reads.py"))


@dataclass
class FileResult:
    name: str
    title: str
    path: str
    statements: list[tuple[int, int, str]]

    def output(self, lines: tuple[int, int] | None = None) -> str:
        """What the file printed, or what the statements within lines [first, last] printed."""
        if lines is None:
            return "".join(s[2] for s in self.statements)
        return "".join(out for first, last, out in self.statements if first >= lines[0] and last <= lines[1])


@dataclass
class PlannedBlock:
    """A block of a lesson's page that runs in the lesson's worker: its code, where it is
    (`page:line`) and what it runs with (its namespace is the page's)."""

    code: str
    where: str
    context: blocks.Context


@dataclass
class PagePlan:
    """What a lesson's page will ask of its run, in its order: the expressions it binds, and its
    blocks that run in the lesson's worker."""

    page: str
    exprs: list[str]
    blocks: list[PlannedBlock]


@dataclass
class Run:
    lesson: Lesson
    key: str
    files: list[FileResult]
    error: LessonError | None = None
    clashes: list[names.Clash] = field(default_factory=list)  # names two of its files define with different values
    executed: bool = False  # this build ran it (False: from the cache)
    seconds: float = 0.0

    def file(self, path: str) -> FileResult | None:
        return next((f for f in self.files if f.path == path), None)


class Zygote:
    """The process workers are forked from (coursekit.core.worker.zygote), started once per process;
    under TWICE a second one, its strings hashed with another seed (`hash_seed`), for the second runs."""

    _lock = threading.Lock()
    _instances: ClassVar[dict[str | None, Zygote]] = {}  # by hash seed

    def __init__(self, root: Path, hash_seed: str | None = None) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {**os.environ, "PYTHONHASHSEED": hash_seed} if hash_seed else None
        self.process = subprocess.Popen(
            [sys.executable, "-m", "coursekit.core.worker", str(root), str(theirs.fileno())],
            pass_fds=[theirs.fileno()], cwd=root, stdin=subprocess.DEVNULL, env=env)
        theirs.close()
        self.channel, self.root, self.lock = ours, Path(root), threading.Lock()
        self.env = dict(os.environ)  # what the zygote started with; each worker gets the build's (env_now)

    def env_now(self) -> dict:
        """How this process's environment differs from the zygote's now: a worker reads the build's."""
        now = dict(os.environ)
        return {"set": {k: v for k, v in now.items() if self.env.get(k) != v},
                "unset": sorted(set(self.env) - set(now))}

    @classmethod
    def get(cls, root: Path, hash_seed: str | None = None) -> Zygote:
        with cls._lock:
            z = cls._instances.get(hash_seed)
            if z is None or z.root != Path(root) or z.process.poll() is not None:
                z = cls._instances[hash_seed] = Zygote(root, hash_seed)
            return z

    def fork(self, job: dict) -> tuple[int, Connection]:
        ours, theirs = socket.socketpair()
        with self.lock:
            socket.send_fds(self.channel, [json.dumps(job).encode()], [theirs.fileno()])
            pid = int(self.channel.recv(64))
        theirs.close()
        return pid, Connection(ours.detach())


class Worker:
    """One lesson's process. Requests wait at most the time limit (plus a grace period)."""

    def __init__(self, root: Path, lesson: Lesson, hash_seed: str | None = None) -> None:
        self.lesson = lesson
        fd, self.log = tempfile.mkstemp(prefix=f"coursekit-{lesson.number}-", suffix=".log")
        os.close(fd)
        # The log only explains a death; it goes at close, or when the process exits without closing.
        self._drop_log = weakref.finalize(self, _unlink, self.log)
        zygote = Zygote.get(root, hash_seed)
        settings = {"time_limit": lesson.time_limit, "output_limit": lesson.output_limit, "env": zygote.env_now()}
        self.pid, self.conn = zygote.fork({"package": lesson.package, "settings": settings, "log": self.log})
        self.dead: LessonError | None = None
        self.played: dict[str, str] = {}  # a namespace of page blocks -> the chain of the last block it ran there

    def ask(self, request: tuple, what: str) -> dict:
        if self.dead:
            raise self.dead
        try:
            self.conn.send(request)
            if self.conn.poll(self.lesson.time_limit + 5):
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        self.dead = self._why_dead(what)
        raise self.dead

    def _log(self) -> str:
        return Path(self.log).read_text(encoding="utf-8", errors="replace")

    def _why_dead(self, what: str) -> LessonError:
        deadline = time.monotonic() + 2  # the zygote notes the exit status in the log when it reaps
        while "[exit " not in self._log() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.kill()
        log = self._log()
        if "Timeout" in log:
            return LessonError(f"{what}超过时间上限 {self.lesson.time_limit:g} 秒，已停止"
                               f"（可在 {self.lesson.folder}/__init__.py 里设 TIME_LIMIT）", _innermost(log))
        code = re.findall(r"\[exit (-?\d+)\]", log)
        lines = [s for s in log.strip().splitlines() if s and not s.startswith("[exit")]
        tail = " ".join(lines[-2:])[-300:]
        return LessonError(f"{what}时工作进程意外退出（退出码 {code[-1] if code else '未知'}）"
                           f"{('：' + tail) if tail else ''}", _innermost(log))

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass

    def close(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass
        self.kill()
        self._drop_log()


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _innermost(log: str) -> tuple[str, int] | None:
    """The first lesson frame of a faulthandler dump (most recent call first)."""
    for m in re.finditer(r'File "([^"]+)", line (\d+)', log):
        name = m.group(1)
        for top in ("/docs/", "/lessons/l", "/tinylm/"):
            if top in "/" + name:
                return top[1:] + ("/" + name).split(top, 1)[1], int(m.group(2))
    return None


class Build:
    """One build's lessons: their runs, cached or executed, scheduled in parallel; their workers; the
    bindings evaluated in them. What it keeps is in its store (coursekit.core.store), the page blocks
    it runs in `blocks` (coursekit.core.blocks)."""

    def __init__(self, root: Path, cache: Path | None = None, planner=None, time_scale: float = 1.0) -> None:
        self.root = Path(root)
        self.planner = planner  # (root, lesson) -> PagePlan | None: what the lesson's page will ask
        self.cache = cache or self.root / ".cache/coursekit"
        self.store = store.Store(self.cache)
        self.blocks = blocks.PageBlocks(self)
        # time_scale: a lesson run on a slower machine than it asks for (a GPU lesson on CPU: coursekit.core.spread)
        self.lessons = {s: replace(lesson, time_limit=lesson.time_limit * time_scale)
                        for s, lesson in find_lessons(self.root).items()}
        self.versions = versions()
        self._runs: dict[str, Future] = {}
        self._workers: dict[str, Worker] = {}
        self._pool = ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1))
        self._lock = threading.Lock()
        self.executed_seconds = 0.0
        self.reruns = 0
        self.twice = os.environ.get(TWICE) == "1"

    # ---- runs ---------------------------------------------------------------------------------
    def prefetch(self, lesson_ids=None) -> None:
        """Start every lesson whose cached run is stale, in parallel; first the empty run of the
        pages of no lesson (SITE), which come first in a site's navigation: queued behind every
        lesson, they kept the pages after them from converting while the lessons ran."""
        for lesson_id in lesson_ids or [SITE, *self.lessons]:
            self._future(lesson_id)

    def run(self, lesson_id: str) -> Run:
        return self._future(lesson_id).result()

    def executed(self) -> list[Lesson]:
        """The lessons this build ran, in course order (the rest came from the cache)."""
        with self._lock:
            futures = dict(self._runs)
        ran = [s for s, f in futures.items() if f.done() and not f.exception() and f.result().executed]
        return [self.lessons[s] for s in sorted(ran, key=lambda s: (len(s), s)) if s in self.lessons]

    def has_run(self, lesson_id: str) -> bool:
        """Whether the cache holds a run of the lesson that reads as the tree does now (nothing runs)."""
        return self._cached(self.lessons[lesson_id]) is not None

    def lesson(self, lesson_id: str) -> Lesson:
        """The lesson of a lesson id ('l10'); SITE: the pages of no lesson (nothing runs before their blocks)."""
        return SITE_LESSON if lesson_id == SITE else self.lessons[lesson_id]

    def _future(self, lesson_id: str) -> Future:
        with self._lock:
            if lesson_id not in self._runs:
                self._runs[lesson_id] = self._pool.submit(self._run, lesson_id)
            return self._runs[lesson_id]

    # ---- the run cache: a few runs per lesson, each valid while what it read is unchanged ----------
    def _own_files(self, lesson: Lesson) -> list[str]:
        if not lesson.package:
            return []
        return [f"{lesson.folder}/__init__.py"] + [f"{lesson.folder}/{n}.py" for n, _ in lesson.experiments]

    def _cached(self, lesson: Lesson) -> Run | None:
        """The lesson's most recently used recorded run whose files, variables and day all read as they
        did then (coursekit.core.reads)."""
        for path in self.store.runs(lesson.package or SITE):
            record = self.store.read(path)
            if record.get("format") != FORMAT or record.get("versions") != self.versions:
                continue
            if record.get("runner") != runner_digest(self.root):
                continue
            if record.get("experiments") != [list(e) for e in lesson.experiments]:
                continue
            if self.twice and not record.get("repeated"):
                continue
            if any(reads.current(self.root, dep, lesson) != h for dep, h in record["deps"].items()):
                continue
            self.store.use(path)
            return Run(lesson, record["key"], [FileResult(**f) for f in record["files"]],
                       clashes=[names.Clash.from_entry(c) for c in record["clashes"]])
        return None

    def _run(self, lesson_id: str) -> Run:
        lesson = self.lesson(lesson_id)
        cached = self._cached(lesson)
        if cached is not None:
            return cached  # its files were scanned for typed numbers when it was recorded
        fixed = self._fixed_print_numbers(lesson)  # about 25 ms a lesson: only when the lesson runs
        if fixed is not None:
            return Run(lesson, "", [], fixed)
        start = time.perf_counter()
        worker = Worker(self.root, lesson) if lesson.experiments else None  # nothing to run (SITE)
        files, deps, keyed, error = [], set(self._own_files(lesson)), {}, None
        if lesson.package:  # what its comments bind: its page's problems change with it (comment_problems)
            from coursekit.core.comments import bindings_file

            deps.add(bindings_file(lesson.folder))
        for name, title in lesson.experiments:
            path = f"{lesson.folder}/{name}.py"
            try:
                answer = worker.ask(("run", name, title), f"运行 {path} ")
            except LessonError as err:
                error = err
                error.file = path
                break
            if "error" in answer:
                error = _lesson_error(answer["error"], f"运行 {path} 出错", path)
                break
            files.append(FileResult(name, title, answer["path"], [tuple(s) for s in answer["statements"]]))
            deps.update(answer["deps"])
            keyed.update(answer["reads"])  # its variables and day, as the worker read them
        clashes: list[names.Clash] = []
        if error is None and files:  # while the worker holds every file's names
            answer = worker.ask(("apply", names.clashes, lesson.package), "比较各实验文件的名字")
            if "error" in answer:
                error = _lesson_error(answer["error"], "比较各实验文件的名字出错")
            else:
                clashes = [names.Clash.from_entry(c) for c in answer["value"]]
        if error is None and self.twice and files:
            error = self._repeat(lesson, files)
        dep_hashes = {rel: digests.file_hash(self.root, rel, lesson) for rel in sorted(deps)} | keyed
        key = digests.sha(json.dumps(self.versions, sort_keys=True), json.dumps(dep_hashes, sort_keys=True), str(FORMAT),
                          runner_digest(self.root))
        run = Run(lesson, key, files, error, clashes, executed=True, seconds=time.perf_counter() - start)
        if error is None:
            self.store.record(lesson.package or SITE, key, {
                "format": FORMAT, "versions": self.versions, "experiments": lesson.experiments, "runner": runner_digest(self.root),
                "deps": dep_hashes, "key": key, "files": [f.__dict__ for f in files], "repeated": self.twice,
                "clashes": [c.entry() for c in clashes]})
            if worker is not None:
                self._prepare_page(run, worker)
        if worker is not None:
            worker.close()  # at most one worker per core alive: the page asks for another only on a miss
        with self._lock:
            self.executed_seconds += run.seconds
        return run

    def _repeat(self, lesson: Lesson, files: list[FileResult]) -> LessonError | None:
        """The lesson run again in a fresh worker (TWICE), forked from a zygote hashing strings with
        another seed (so the order of a set of strings may change, as it does from one build to the
        next): the first statement that printed otherwise, with what it printed each time. A random
        draw with no seed is refused at its line before this (coursekit.core.reads), so what is left
        here is what nothing names (an unseeded random.Random(), uuid4, a set's order, threads)."""
        worker = Worker(self.root, lesson, hash_seed="2" if os.environ.get("PYTHONHASHSEED") == "1" else "1")
        try:
            for first in files:
                answer = worker.ask(("run", first.name, first.title), f"第二次运行 {first.path} ")
                if "error" in answer:
                    return _lesson_error(answer["error"], f"第二次运行 {first.path} 出错（第一次没有）", first.path)
                for (line, _, was), (_, _, now) in zip(first.statements, answer["statements"]):
                    if was != now:
                        return LessonError(unrepeatable(was, now), (first.path, line), file=first.path)
        finally:
            worker.close()
        return None

    def _fixed_print_numbers(self, lesson: Lesson) -> LessonError | None:
        """Numbers the lesson's code would print as typed text instead of computing them."""
        from coursekit.core import printed

        if not lesson.package:
            return None
        lines = []  # (file, line, the guard's words for it)
        for path in sorted((self.root / lesson.folder).glob("*.py")):
            rel = path.relative_to(self.root).as_posix()
            try:
                lines += [(rel, line[0].line, printed.describe(line))
                          for line in printed.by_line(printed.fixed_numbers(rel, path.read_text(encoding="utf-8")))]
            except (OSError, SyntaxError, ValueError):
                continue  # running the file reports it, with its line
        if not lines:
            return None
        (rel, line, message), others = lines[0], [f"{r}:{n}" for r, n, _ in lines[1:]]
        more = f"（另有 {len(others)} 行：{'、'.join(others[:3])}{'…' if len(others) > 3 else ''}）" if others else ""
        return LessonError(message + more, (rel, line), ran=False)

    def comment_problems(self, lesson_id: str) -> list:
        """The claims the lesson's own files make in their comments and docstrings, and in its
        experiments' titles (coursekit.core.comments.lesson_problems): the page's problems."""
        from coursekit.core import comments

        lesson = self.lessons[lesson_id]
        return comments.lesson_problems(self.root, lesson, self._own_files(lesson),
                                        lambda exprs: self.evaluate(lesson_id, exprs))

    def _prepare_page(self, run: Run, worker: Worker) -> None:
        """While the worker still holds the lesson, evaluate what its page will ask for (the bindings
        what its data file binds its own comments and docstrings to, which comment_problems checks, and the page's)
        and run its blocks, in the page's order, into the caches the page reads: a page that asked
        for more would run the lesson again in a worker of its own, one page after another. What a
        page asks is the planner's to say (coursekit.extensions.checks.plan): the engine reads no page."""
        from coursekit.core import comments

        if not run.lesson.package:
            return
        plan = self.planner(self.root, run.lesson) if self.planner is not None else None
        exprs = (comments.lesson_expressions(self.root, run.lesson.folder, self._own_files(run.lesson))
                 + (plan.exprs if plan else []))
        try:
            if exprs:
                self.evaluate(run.lesson.id, exprs, worker=worker, run=run)
            previous = ""
            for block in plan.blocks if plan else ():  # one failing is reported by the page; the next still run
                self.execute(run.lesson.id, plan.page, previous, block.code, block.where, worker=worker, run=run,
                             context=block.context)
                previous = digests.chain(previous, block.code)
        except LessonError:
            pass  # the page asks again and reports it

    # ---- a live worker that has run the lesson --------------------------------------------------
    def worker(self, lesson_id: str) -> Worker:
        """The lesson's live worker that has run it; a new one runs it again (`reruns`)."""
        run = self.run(lesson_id)
        if run.error:
            raise run.error
        with self._lock:
            worker = self._workers.get(lesson_id)
        if worker is None or worker.dead:
            self.reruns += 1  # a page asked for something its lesson's run did not prepare
            worker = Worker(self.root, run.lesson)
            for name, title in run.lesson.experiments:
                answer = worker.ask(("run", name, title), f"运行 {run.lesson.folder}/{name}.py ")
                if "error" in answer:
                    worker.close()
                    raise _lesson_error(answer["error"], "再次运行出错", f"{run.lesson.folder}/{name}.py")
            with self._lock:
                self._workers[lesson_id] = worker
        return worker

    def done_with(self, lesson_id: str) -> None:
        """A page has used the lesson's worker: nothing it did may reach another page."""
        with self._lock:
            worker = self._workers.pop(lesson_id, None)
        if worker is not None:
            worker.close()

    # ---- bindings and page blocks ----------------------------------------------------------------
    def evaluate(self, lesson_id: str, exprs: list[str], worker: Worker | None = None, run: Run | None = None) -> list[dict]:
        """Each expression's numbers ({'numbers': [...]}) or {'error': ...}, cached under the run."""
        run = run or self.run(lesson_id)
        if run.error:
            raise run.error
        path = self.cache / "evals" / f"{run.key}.json"
        known = self.store.read(path)
        missing = sorted({e for e in exprs if e not in known})
        if missing:
            answer = (worker or self.worker(lesson_id)).ask(("eval", missing), "计算绑定的表达式")
            known.update(zip(missing, answer["values"]))
            self.store.write(path, known)
        return [known[e] for e in exprs]

    def apply(self, lesson_id: str, function, argument):
        """`function(namespace, origin, argument)` run in the lesson's worker, over its values (the names
        its experiments defined; origin: each name's first experiment file, by its place in
        EXPERIMENTS): a function of the kit, importable by its module's name, and an argument and an
        answer that pickle (coursekit.core.candidates.answers, for the proposer). Not cached."""
        run = self.run(lesson_id)
        if run.error:
            raise run.error
        return self.worker(lesson_id).ask(("apply", function, argument), "在本讲的值上计算")["value"]

    def execute(self, lesson_id: str, page: str, previous: str, code: str, where: str,
                worker: Worker | None = None, run: Run | None = None, context: blocks.Context | None = None) -> dict:
        """A page block run after the earlier blocks of its namespace (coursekit.core.blocks.PageBlocks.execute)."""
        return self.blocks.execute(lesson_id, page, previous, code, where, worker, run, context)

    def unchanged(self, lesson_id: str, deps: dict) -> bool:
        """Everything in `deps` (a file's path, a variable, the day -> its digest) reads as it did."""
        lesson = self.lesson(lesson_id)
        return all(isinstance(h, str) and reads.current(self.root, dep, lesson) == h for dep, h in deps.items())

    def close(self) -> None:
        with self._lock:
            workers, self._workers = list(self._workers.values()), {}
        for w in workers:
            w.close()
        self._pool.shutdown(wait=True, cancel_futures=True)  # a run still going ends (its worker is gone) before the tree may go


def unrepeatable(was: str, now: str) -> str:
    """What a statement that printed otherwise the second time is told: the first line that differs."""
    pairs = itertools.zip_longest(was.splitlines(), now.splitlines(), fillvalue="")
    first, second = next(((a, b) for a, b in pairs if a != b), (was, now))
    return (f"同一份代码运行两次，这条语句打印的不一样：第一次「{first[:80]}」，第二次「{second[:80]}」；"
            "有什么没有固定下来（没有种子的生成器如 random.Random()、uuid4、集合里字符串的顺序、线程的先后……），"
            "页面上的数每次构建都会变")


def _lesson_error(info: dict, what: str, file: str | None = None) -> LessonError:
    """A failing assert says what it checked (its message, or its source: coursekit.core.worker);
    any other exception its type and message."""
    where = tuple(info["where"]) if info.get("where") else None
    if info["type"] == reads.Refused.__name__:  # it says what it read and what to write instead
        return LessonError(info["message"], where, file=file)
    if info["type"] == "AssertionError":
        return LessonError(f"核对失败{'：' + info['message'] if info['message'] else ''}", where, file=file)
    return LessonError(f"{what}：{info['type']}{': ' + info['message'] if info['message'] else ''}", where, file=file)


@dataclass
class Current:
    """The build the Markdown extension uses: the MkDocs hooks open and close one per build (and
    start every stale lesson in parallel); under other builders (Zensical) each lesson page
    opens one of its own, which reads the same cache."""

    build: Build | None = None  # set by the MkDocs hooks for the length of a build
    root: Path | None = None
    collects: bool = False  # an adapter collects the problems and ends the build (the MkDocs hooks); otherwise the extension raises them
    problems: dict = field(default_factory=dict)  # page path -> the problems of the page just converted
    records: dict = field(default_factory=dict)  # path -> what it showed that code computed (coursekit.core.manifest)
    adapter_state: dict = field(default_factory=dict)  # an adapter's state across serve rebuilds (MkDocs loads its hooks anew)


current = Current()
