"""A build's page blocks: each runs in its lesson's worker after the page's earlier blocks (they
share a namespace), and its answer is kept under the run's key, the kit's digest and the chain of
the blocks before it, valid while every file of tinylm and lessons the worker had imported or read by
then reads as it did (it may import or read what the run did not). A block that runs again after
earlier ones came from the cache has its worker run those first, so it sees what they defined."""

from __future__ import annotations

import functools
import threading

from coursekit.core import digests


class PageBlocks:
    """The blocks of one build (coursekit.core.engine.Build: its runs, its workers, its store)."""

    def __init__(self, build) -> None:
        self.build = build
        self._lock = threading.Lock()
        self._blocks: dict[tuple[str, str], dict[str, tuple[str, str, str]]] = {}  # (lesson id, page) -> chain -> (previous, code, where)
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

    def execute(self, lesson_id: str, page: str, previous: str, code: str, where: str, worker=None, run=None) -> dict:
        """Run a page block after the page's earlier blocks (`previous`: their chain); {'output': …}
        or {'error': …}. Kept under the run, the kit and the chain, valid while every file of tinylm
        and lessons the worker had imported or read by then reads as it did."""
        build = self.build
        run = run or build.run(lesson_id)
        if run.error:
            raise run.error
        here = digests.chain(previous, code)
        with self._lock:
            self._blocks.setdefault((lesson_id, page), {})[here] = (previous, code, where)
        path = build.store.folder / "blocks" / f"{run.key}-{self.tooling}" / f"{here}.json"
        known = build.store.read(path)
        if isinstance(known.get("answer"), dict) and isinstance(known.get("deps"), dict) \
                and build.unchanged(lesson_id, known["deps"]):
            self._note_deps(page, lesson_id, known["deps"])
            return known["answer"]
        worker = worker or build.worker(lesson_id)
        answer = self._catch_up(worker, lesson_id, page, previous)
        if answer is None:
            answer = worker.ask(("exec", code, where, page), f"运行 {where} 的代码块")
        deps = {rel: digests.file_hash(build.root, rel, run.lesson) for rel in answer.pop("deps", [])}
        deps.update(answer.pop("reads", {}))  # its variables and day (coursekit.core.reads)
        if "error" not in answer:
            worker.played[page] = here
            build.store.write(path, {"answer": answer, "deps": deps})
            self._note_deps(page, lesson_id, deps)
        return answer

    def _catch_up(self, worker, lesson_id: str, page: str, previous: str) -> dict | None:
        """Have the worker run the page's earlier blocks first when it has not (they came from the
        cache, or another worker ran them): a block may use what they defined. An error of theirs
        is the answer; None when the worker is ready."""
        if worker.played.get(page, "") == previous:
            return None
        with self._lock:
            known = dict(self._blocks.get((lesson_id, page), {}))
        earlier = []
        while previous and previous in known:
            previous, code, where = known[previous]
            earlier.append((code, where))
        if previous:  # an earlier block this build never saw: run as asked (as before)
            return None
        worker.ask(("forget", page), "重新开始这一页的代码块")
        for code, where in reversed(earlier):
            answer = worker.ask(("exec", code, where, page), f"运行 {where} 的代码块")
            if "error" in answer:
                return answer
        return None

    def _note_deps(self, page: str, lesson_id: str, deps: dict) -> None:
        with self._lock:
            _, before = self.page_deps.get(page, (lesson_id, {}))
            self.page_deps[page] = (lesson_id, {**before, **deps})
