"""A build's page blocks: each runs in its lesson's worker after the earlier blocks of its namespace
(a lesson page's blocks share one, the lesson's; on a page of no lesson a block has its own, or the
one of its `session=`, as markdown-exec has it: `Context`), and its answer is kept under the run's
key, the kit's digest, the chain of the blocks before it and its context, valid while every file of
tinylm and lessons the worker had imported or read by then reads as it did (it may import or read
what the run did not). A block that runs again after earlier ones came from the cache has its worker
run those first, so it sees what they defined; a failing one among them runs too (what it defined
before failing stays, as in a notebook), except one that stopped its worker."""

from __future__ import annotations

import functools
import json
import re
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from coursekit.core import digests


def module_name(session: str, n: int, block_id: str = "", title: str = "") -> str:
    """The module a block runs as (`__name__`, a class's `__module__`), named as markdown-exec names
    it (formatters/python.py, _code_block_id): `n` counts the blocks of the page in that session."""
    if block_id:
        label = f"id {block_id}"
    else:
        label = (f"session {session}; n{n}" if session else f"n{n}") + (f"; title {title}" if title else "")
    return re.sub(r"[^a-zA-Z\d]+", "_", f"<code block: {label}>")


def inside(root: Path, folder: str) -> bool:
    """`folder` (relative to the repository's root) is a folder of the repository."""
    path = (root / folder).resolve()
    return path.is_dir() and path.is_relative_to(root.resolve())


@dataclass(frozen=True)
class Context:
    """What a block runs with besides its code: its namespace in the worker (`space`: its page's, a
    session's of the page, or its own), its module name, and markdown-exec's `workdir` (a folder of
    the repository, relative to its root) and `width` (COLUMNS; 0: the build's)."""

    space: str
    name: str = module_name("", 1)
    workdir: str = ""
    width: int = 0

    @classmethod
    def of(cls, page: str, of_lesson: bool, session: str, n: int, block_id: str = "", title: str = "",
           workdir: str = "", width: int = 0) -> Context:
        """The context of a page's `n`th block of `session` ("": none written): a lesson page's blocks
        share the page's namespace (the lesson's values); on a page of no lesson a block without a
        session has its own, the blocks of one session name share one (markdown-exec's sessions)."""
        if of_lesson:
            space = page
        else:
            space = f"{page}#session {session}" if session else f"{page}#n{n}"
        return cls(space, module_name(session, n, block_id, title), workdir, width)

    def key(self) -> str:
        """What of it changes a block's answer (the chain names the namespace's earlier blocks)."""
        return json.dumps({k: v for k, v in asdict(self).items() if k != "space"}, sort_keys=True)


class PageBlocks:
    """The blocks of one build (coursekit.core.engine.Build: its runs, its workers, its store)."""

    def __init__(self, build) -> None:
        self.build = build
        self._lock = threading.Lock()
        self._blocks: dict[tuple[str, str], dict[str, tuple[str, str, str, Context]]] = {}  # (lesson id, space) -> chain -> (previous, code, where, context)
        self._fatal: set[str] = set()  # the chains of blocks that stopped their worker: never run again to catch up
        self.page_deps: dict[str, tuple[str, dict[str, str]]] = {}  # page -> (lesson id, the files its blocks read: their hashes)

    @functools.cached_property
    def tooling(self) -> str:
        """The kit's files, its code as it behaves (comments aside): page blocks are kept under them
        (a block may import the kit, and the kit's example lesson is read by one). Read when a
        block is first looked up, so a build whose pages all come from the page cache never reads it;
        each file is read again only when its stamp says it may have changed (a serve rebuild)."""
        from coursekit import KIT as kit
        from coursekit.core.lexicon import GLOSSARY

        files = [p for p in sorted(kit.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
        return digests.sha(*(f"{p.relative_to(kit).as_posix()}\0" + digests.kit_file(p) for p in files),
                           "glossary\0" + digests.kit_file(GLOSSARY))  # the course's words: what proposals read

    def execute(self, lesson_id: str, page: str, previous: str, code: str, where: str, worker=None, run=None,
                context: Context | None = None) -> dict:
        """Run a page block after the earlier blocks of its namespace (`previous`: their chain);
        {'output': …} or {'error': …}. Kept under the run, the kit, the chain and its context, valid
        while every file of tinylm and lessons the worker had imported or read by then reads as it did."""
        build = self.build
        context = context or Context(page)
        run = run or build.run(lesson_id)
        if run.error:
            raise run.error
        here = digests.chain(previous, code)
        with self._lock:
            self._blocks.setdefault((lesson_id, context.space), {})[here] = (previous, code, where, context)
        kept = digests.sha(here, context.key())
        path = build.store.folder / "blocks" / f"{run.key}-{self.tooling}" / f"{kept}.json"
        known = build.store.read(path)
        if isinstance(known.get("answer"), dict) and isinstance(known.get("deps"), dict) \
                and build.unchanged(lesson_id, known["deps"]):
            self._note_deps(page, lesson_id, known["deps"])
            return known["answer"]
        worker = worker or build.worker(lesson_id)
        self._catch_up(worker, lesson_id, context.space, previous)
        answer = self._ask(worker, here, code, where, context)
        deps = {rel: digests.file_hash(build.root, rel, run.lesson) for rel in answer.pop("deps", [])}
        deps.update(answer.pop("reads", {}))  # its variables and day (coursekit.core.reads)
        worker.played[context.space] = here  # failing or not, it ran there: a later block runs after it
        if "error" not in answer:
            build.store.write(path, {"answer": answer, "deps": deps})
            self._note_deps(page, lesson_id, deps)
        return answer

    def _ask(self, worker, here: str, code: str, where: str, context: Context) -> dict:
        try:
            return worker.ask(("exec", code, where, asdict(context)), f"运行 {where} 的代码块")
        finally:
            if worker.dead:  # it stopped the worker (engine.LessonError): the page reports it at this block
                with self._lock:
                    self._fatal.add(here)

    def _catch_up(self, worker, lesson_id: str, space: str, previous: str) -> None:
        """Have the worker run the namespace's earlier blocks first when it has not (they came from
        the cache, or another worker ran them): a block may use what they defined. One that failed
        runs too (each block reports its own failure), one that stopped its worker does not."""
        if worker.played.get(space, "") == previous:
            return
        with self._lock:
            known = dict(self._blocks.get((lesson_id, space), {}))
            fatal = set(self._fatal)
        earlier = []
        while previous and previous in known:
            here = previous
            previous, code, where, context = known[here]
            if here not in fatal:
                earlier.append((here, code, where, context))
        if previous:  # an earlier block this build never saw: run as asked (as before)
            return
        worker.ask(("forget", space), "重新开始这一页的代码块")
        for here, code, where, context in reversed(earlier):
            self._ask(worker, here, code, where, context)
            worker.played[space] = here

    def _note_deps(self, page: str, lesson_id: str, deps: dict) -> None:
        with self._lock:
            _, before = self.page_deps.get(page, (lesson_id, {}))
            self.page_deps[page] = (lesson_id, {**before, **deps})
