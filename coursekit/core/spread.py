"""Lessons' runs spread over machines, as CI's matrix runs them and an author can run them here
(`python -m coursekit plan|run-lessons|merge-runs`: coursekit/__main__.py):

- `plan`: the lessons whose run has no cached result in a cache folder, one job each, on the runner
  it asks for (`RUNNER = "gpu"` in its package) when that runner is attached, else on GitHub's
  hosted one with its time limits SLOWER times longer; none when a few that ask for no runner are
  all there is to run (`matrix`: the site job runs them). A lesson's job runs what it imports too
  (the runner imports an earlier lesson's experiments quietly, in the same worker), so no job waits
  for another.
- `run`: chosen lessons run (with what their pages will ask of them: the bindings, the blocks) in the
  tree's own cache, where lesson code can't reach (coursekit.core.worker), and then their records
  are written into a folder of their own, sealed under its own key.
- `merge`: folders' records taken into a build's cache, each verified under its folder's key and
  sealed again under the cache's. A record that does not verify (rewritten, or copied over another
  lesson's or another folder's) is refused and named; the build then runs that lesson itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from coursekit.core import CourseError, engine, store

RUNS_ON = ("ubuntu-24.04",)  # GitHub's hosted runner, for every lesson that asks for no other
TIMEOUT = 30  # minutes a lesson's job may take on the runner it asks for
SLOWER = 10  # a lesson whose runner is not attached runs on RUNS_ON, its time limits this many times longer
MAX_TIMEOUT = 360  # minutes: GitHub's limit for a job on a hosted runner
# The build of torch a job installs (its wheel index under the PyTorch index), by the runner label it runs on.
TORCH = {"": "cpu", "gpu": "cu126"}
# What a lesson's run leaves in the cache, as (folder, depth below it): its record runs/<lesson>/<key>,
# its page's evaluations evals/<key> and blocks blocks/<key>-<kit>/<chain>.
KEPT = {"runs": 2, "evals": 1, "blocks": 2}


class SpreadError(CourseError):
    """A command asked for something it can't do: the message says what and where."""


@dataclass(frozen=True)
class Job:
    """One lesson's job in CI's matrix."""

    lesson: str  # l10
    runs_on: tuple[str, ...]
    timeout: int  # minutes
    time_scale: float  # its time limits, times this
    torch: str = TORCH[""]  # the build of torch it installs (TORCH)
    note: str = ""  # why it runs elsewhere than it asks (shown as a warning in its job)

    def matrix(self) -> dict:
        return {"lesson": self.lesson, "runs_on": list(self.runs_on), "timeout": self.timeout,
                "time_scale": self.time_scale, "torch": self.torch, "note": self.note}


def plan(root: Path, cache: Path, attached: set[str]) -> list[Job]:
    """A job for each lesson whose run has no cached result in `cache`, in course order; `attached`:
    the labels of the self-hosted runners CI has."""
    build = engine.Build(root, cache)
    try:
        stale = [s for s in build.lessons if not build.has_run(s)]
    finally:
        build.close()
    return [_job(build.lessons[s], attached) for s in sorted(stale, key=lambda s: (len(s), s))]


def matrix(jobs: list[Job], site_takes: int) -> list[Job]:
    """The jobs of the matrix: none when at most `site_takes` lessons are stale and none asks for a
    runner (the site job runs them in its own build, side by side on its cores: a job each would
    cost a job's start-up more than it saves), else all of them."""
    if len(jobs) <= site_takes and all(j.runs_on == RUNS_ON and j.time_scale == 1 for j in jobs):
        return []
    return jobs


def _job(lesson: engine.Lesson, attached: set[str]) -> Job:
    if not lesson.runner:
        return Job(lesson.id, RUNS_ON, TIMEOUT, 1.0)
    if lesson.runner in attached:
        return Job(lesson.id, ("self-hosted", lesson.runner), TIMEOUT, 1.0, TORCH.get(lesson.runner, TORCH[""]))
    return Job(lesson.id, RUNS_ON, min(TIMEOUT * SLOWER, MAX_TIMEOUT), float(SLOWER), note=
               f"第 {int(lesson.number)} 讲要 {lesson.runner} 运行器（{lesson.folder}/__init__.py 的 RUNNER），"
               f"CI 没有连上（仓库变量 COURSEKIT_RUNNERS 里没有 {lesson.runner}）：改在 {RUNS_ON[0]} 上运行，"
               f"时间上限放宽到 {SLOWER} 倍")


@dataclass
class Ran:
    """What `run` did: per lesson, the seconds it ran (None: its run was cached) or its error."""

    seconds: dict[str, float | None] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # `file:line: message`


def run(root: Path, wanted: list[str], into: Path, planner, time_scale: float = 1.0) -> Ran:
    """Run the lessons `wanted` ('l10' or '10') in the tree at `root` and write their records into
    the folder `into`, which must be empty or new."""
    into = Path(into)
    _empty(into)
    build = engine.Build(root, planner=planner, time_scale=time_scale)
    ran = Ran()
    try:
        ids = [_lesson_id(build, w) for w in wanted]
        build.prefetch(ids)
        runs = {s: build.run(s) for s in ids}
    finally:
        build.close()
    _empty(into)  # lesson code may write outside the tree: nothing it left there is taken for a record
    out = store.Store(into)
    for s, r in runs.items():
        if r.error is not None:
            where = f"{r.error.where[0]}:{r.error.where[1]}: " if r.error.where else f"{r.lesson.folder}: "
            ran.errors.append(where + str(r.error))
            continue
        for path in _records(build.store, r):
            data = build.store.read(path)
            if data:
                out.write(out.folder / path.relative_to(build.store.folder), data)
        ran.seconds[s] = r.seconds if r.executed else None
    return ran


def _empty(folder: Path) -> None:
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise SpreadError(f"{folder}: 不是空文件夹；run-lessons 只把记录写进新的或空的文件夹")


def _lesson_id(build: engine.Build, wanted: str) -> str:
    lesson_id = wanted if wanted.startswith("l") else f"l{wanted}"
    if lesson_id not in build.lessons:
        known = "、".join(build.lessons) or "（没有）"
        raise SpreadError(f"没有第 {wanted} 讲：lessons/{lesson_id}/__init__.py 不在或没有 EXPERIMENTS；现有 {known}")
    return lesson_id


def _records(kept: store.Store, r: engine.Run) -> list[Path]:
    """A run's record with what was kept under its key: its page's evaluations and blocks."""
    folder = kept.folder
    return [folder / "runs" / r.lesson.package / f"{r.key}.json", folder / "evals" / f"{r.key}.json",
            *sorted((folder / "blocks").glob(f"{r.key}-*/*.json"))]


@dataclass
class Merged:
    kept: int = 0
    refused: list[str] = field(default_factory=list)  # each: the file and why


def merge(folders: list[Path], into: Path) -> Merged:
    """Take the records `run` wrote into `folders` into the cache `into`: each verified under its
    own folder's key, sealed again under the cache's."""
    out, merged = store.Store(into), Merged()
    for folder in map(Path, folders):
        if not (folder / "seal.key").is_file():
            raise SpreadError(f"{folder}: 没有 seal.key，不是 run-lessons 写的文件夹")
        mine = store.Store(folder)
        for path in sorted(folder.rglob("*.json")):
            rel = path.relative_to(folder)
            if KEPT.get(rel.parts[0]) != len(rel.parts) - 1:
                merged.refused.append(f"{path}: 不是一讲的运行留下的记录，不收")
                continue
            data = mine.read(path)
            if not data:
                merged.refused.append(f"{path}: 封印不符（改过、截断过，或是从别的讲、别的文件夹复制来的），不收")
            elif rel.parts[0] == "runs":
                out.record(rel.parts[1], path.stem, data)
                merged.kept += 1
            else:
                out.write(out.folder / rel, data)
                merged.kept += 1
    return merged

