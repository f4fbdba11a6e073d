"""Shared fixtures: the real site built once with --strict, throwaway copies of the repository, and
the course's lessons as they are in the tree (tests parametrized over LESSONS hold for every lesson
that exists, whatever it teaches).

The tests run in four layers, each a pytest marker (`bash scripts/test.sh --layer NAME`; CI runs
them as parallel jobs, `.ci/run` all of them):

- fast (no marker): in process, on literal inputs and small fixture trees: the guard, numbers,
  printed output, proposals, records, tinylm, cross references. What an author runs while writing
  (`bash scripts/test.sh --fast`, about half a minute). A test here may not build, serve, start a
  lesson's worker, run a lesson or a script that does, or open a browser: `_fast_stays_fast` below
  fails it, saying which layer it belongs to.
- engine: lessons run in real workers, on a small fixture tree (tests/test_engine.py).
- build: real `mkdocs build --strict`, serve and Zensical builds of repository copies, and every
  read of the session's built site (`built_site`, `lesson_html`); only these parametrize over the
  course's lessons.
- browser: Debian's Chromium through Playwright, on the built site; waits on states, never on times.
  Every page a reader opens loads once a palette (test_browser); a behaviour of the kit's own
  script (report link, back, lazy mounting, tabbing) is tried on one lesson page (kit_lesson_params).

`scripts/test.sh` runs them in one process a core (pytest-xdist), a test file's tests in one
process (they share its module's copies and serves); the built site is built once for all.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from coursekit.core.engine import TWICE
from scripts.drive import ROOT, copy_repo, mkdocs_build  # re-exported for the tests
from tests.harness import Lesson, lessons, site_config

LESSONS: list[Lesson] = lessons(ROOT)
# A browser test's wait for a state (ms): a loaded machine reaches it late, a broken page never.
LOADED = 120_000


def lesson_params(lessons=None, having=None):
    """pytest.param for each lesson (id `l10`), or for those for which `having(lesson)` holds."""
    chosen = [lesson for lesson in (LESSONS if lessons is None else lessons) if having is None or having(lesson)]
    return [pytest.param(lesson, id=lesson.id) for lesson in chosen]


def kit_lesson_params(having=None):
    """pytest.param for the one lesson a test of the kit's own behaviour runs on (in the browser: the
    report link, the back button, lazy mounting, tabbing; the runner's exit on a failing check):
    that behaviour is the kit's, the same for every lesson, and what differs by lesson (its blocks'
    heights, its text, its widgets, its requests, its output) is read on each by other tests. Of the lessons for which `having(lesson)` holds, the one with the most code
    fences (the hardest for lazy layout), the first in course order if several have as many."""
    chosen = [lesson for lesson in LESSONS if having is None or having(lesson)]
    fences = {lesson.id: len(re.findall(r"^ {0,3}(?:```|~~~)", lesson.markdown(), re.M)) for lesson in chosen}
    return lesson_params(sorted(chosen, key=lambda lesson: -fences[lesson.id])[:1])


def reader_pages() -> dict[str, str]:
    """Every page a reader opens, by a short name (`lesson-l10`, `notebook-l10`, `code-attention`, …):
    its path under the site."""
    pages = {"home": "", "setup": "setup/", "authoring": "authoring/", "404": "404.html"}
    pages.update({f"lesson-{lesson.id}": lesson.url for lesson in LESSONS})
    pages.update({f"notebook-{lesson.id}": lesson.notebook_url for lesson in LESSONS})
    pages.update({f"code-{p.stem}": f"code/{p.stem}/" for p in sorted((ROOT / "docs/code").glob("*.md"))})
    return pages


def seed_of(lesson: Lesson) -> Path:
    """The author's own text of a lesson, when the author handed one in (tests/data/lessonNN-seed.txt)."""
    return ROOT / f"tests/data/lesson{lesson.number}-seed.txt"


def edit(repo: Path, path: str, old: str, new: str) -> int:
    """Replace `old` by `new` once in repo/path; the line `old` started on."""
    file = repo / path
    text = file.read_text(encoding="utf-8")
    assert old in text, old
    file.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real repository built once with `mkdocs build --strict`: once for the whole run, whatever
    the number of pytest-xdist workers (the first to ask builds it under a lock, the others read it).
    Each lesson that runs runs twice (engine.TWICE): a lesson whose numbers differ between two runs
    of the same tree fails here, naming the statement, before any drift."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # xdist: one basetemp a worker
    site, said = shared / "built-site", shared / "built-site.json"
    with open(shared / "built-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not said.exists():
            result = mkdocs_build(ROOT, site, **{TWICE: "1"})
            said.write_text(json.dumps([result.returncode, result.stdout + result.stderr]), encoding="utf-8")
    returncode, log = json.loads(said.read_text(encoding="utf-8"))
    assert returncode == 0, log
    return site


@pytest.fixture(scope="session", params=lesson_params())
def lesson_html(request, built_site) -> str:
    """Each lesson's built page, in turn (a test asking for it runs once per lesson)."""
    return request.param.html(built_site)


@pytest.fixture
def repo_copy(tmp_path) -> Path:
    """A copy of the repository with the real one's run cache (keyed by content: never stale)."""
    return copy_repo(tmp_path / "repo", with_cache=True)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, driven by Playwright; its pages wait up to LOADED for a state."""
    from scripts.drive import chromium

    with chromium() as b:
        yield _Patient(b)


class _Patient:
    """A browser whose new pages wait for states as long as a loaded machine needs."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        page.set_default_timeout(LOADED)
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


# mkdocs.yml's palettes: the reader's preference (from its media query) -> Material's scheme, toggle name
PALETTES = {("dark" if "dark" in p["media"] else "light"): (p["scheme"], p["toggle"]["name"])
            for p in site_config()["theme"]["palette"]}


def in_each_scheme(page):
    """For a page opened with color_scheme="dark": yields "dark" (as a reader who prefers it meets the
    page), then switches the palette with its toggle, as a reader does, and yields "light"."""
    (dark, toggle), (light, _) = PALETTES["dark"], PALETTES["light"]
    page.locator(f'body[data-md-color-scheme="{dark}"]').wait_for()
    yield "dark"
    page.get_by_title(toggle).first.click()
    page.locator(f'body[data-md-color-scheme="{light}"]').wait_for()
    yield "light"


@pytest.fixture(scope="session")
def base_url(built_site):
    """The built site on a local port."""
    from scripts.drive import serve

    with serve(built_site) as url:
        yield url


LAYERS = ("engine", "build", "browser")
# What a fast test may not start: a builder, a serve, a lesson's worker, a lesson, or a script that
# builds or runs lessons (argv words); and the fixtures that build the site or open a browser.
SLOW_ARGV = re.compile(r"\bmkdocs\b|zensical|coursekit\.core\.worker|\blessons\.l\d+|\brun-lessons\b|"
                       r"scripts/(bound_numbers|confirm_shown|changes|bench_\w+)\.py")
SLOW_FIXTURES = {"built_site": "build", "lesson_html": "build", "repo_copy": "build", "base_url": "browser",
                 "browser": "browser"}


class SlowInFastLayer(AssertionError):
    pass


def _refused(nodeid: str):
    """subprocess.Popen.__init__ that refuses what a fast test may not start."""
    real = subprocess.Popen.__init__

    def guarded(self, args, *more, **options):
        argv = [args] if isinstance(args, str | bytes | os.PathLike) else list(args)
        if any(SLOW_ARGV.search(str(a)) for a in argv):
            raise SlowInFastLayer(f"{nodeid} starts {' '.join(map(str, argv))}: mark it "
                                  "@pytest.mark.engine (it runs lessons) or @pytest.mark.build (it builds or serves)")
        real(self, args, *more, **options)

    return guarded


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A test without a layer marker is refused what only a slower layer may do, in its own code and
    in every fixture it sets up (a module's fixture is set up by its first test)."""
    if any(item.get_closest_marker(layer) for layer in LAYERS):
        return (yield)
    for name, layer in SLOW_FIXTURES.items():
        if name in item.fixturenames:
            raise SlowInFastLayer(f"{item.nodeid} uses the fixture {name}: mark it @pytest.mark.{layer}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess.Popen, "__init__", _refused(item.nodeid))
        return (yield)
