"""What a lesson's run read, so its cached result is kept exactly as long as that is unchanged; and
what it may not read, because nothing could key it (the wall clock, the network, a random draw
with no seed set): refused at the line of the lesson's own code that read it.

The sources are data (SOURCES, GENERATORS); `install` sets them up in a worker
(coursekit.core.worker), which then answers with `files()` and `keyed()`; the engine checks a
recorded run's reads with `current`. What each keyed read is recorded under is a dependency name
next to the files': `env:NAME` (a variable's value; `env:*` the whole environment, when the code
iterated it) and `day:` (the calendar day). Values are kept as digests, never as text (an
environment variable may hold a token).

Only calls from the course's own code count (lessons/, tinylm/, page blocks under docs/, any file
of the repository outside the kit): torch, the standard library and the kit read the clock and the
environment for their own purposes. A network access counts from wherever it starts, and is
reported at the innermost line of the lesson's own code.
"""

from __future__ import annotations

import ctypes
import datetime
import functools
import gc
import hashlib
import os
import random  # noqa: F401 - a module the tables name
import sys
import sysconfig
import time  # noqa: F401 - a module the tables name
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class Source:
    """Something a run may read: how it is read (`calls`: functions by their dotted names, or audit
    events), and either how the run is keyed by it or why it is refused."""

    what: str  # in the authors' words
    how: Literal["file", "module", "env", "day", "refuse", "network"]
    calls: tuple[str, ...]
    keyed: str = ""  # how the run is keyed by it
    refused: str = ""  # why it can't be keyed: the message, after the call
    instead: str = ""  # what to write instead
    given: tuple[tuple[str, int], ...] = ()  # calls that read nothing refused when given this many arguments


SOURCES = (
    Source("数据文件", "file", ("open",), keyed="文件的内容（仓库里的文件，构建自己的 .cache/ 和 site/ 不可读）"),
    Source("模块", "module", ("exec",), keyed="仓库里每个执行过的模块文件的代码，不论是 import、importlib 还是别的方式载入的"),
    Source("环境变量", "env", ("os.environ", "os.getenv"), keyed="读过的变量的名字和值（遍历了 os.environ 就是全部变量）"),
    Source("日期", "day", ("datetime.date.today",), keyed="当天的日期：换了一天就重新运行"),
    Source("钟表时间", "refuse",
           ("time.time", "time.time_ns", "time.ctime", "time.localtime", "time.gmtime", "time.asctime",
            "time.strftime", "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today"),
           refused="读的是钟表时间，每次运行都不同，构建没法把结果当作核对过的缓存",
           instead="要日期就用 date.today()（换了一天会重新运行）；要某个时刻就把它写成常数",
           given=(("time.ctime", 1), ("time.localtime", 1), ("time.gmtime", 1), ("time.asctime", 1), ("time.strftime", 2))),
    Source("系统的随机源", "refuse", ("os.urandom", "os.getrandom"),
           refused="读的是系统的随机源，每次运行都不同，构建没法把结果当作核对过的缓存",
           instead="用设了种子的生成器，比如 random.Random(0)"),
    Source("网络", "network",
           ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
            "socket.sendto", "socket.sendmsg"),
           refused="连接了网络，网上的内容构建核对不了，也没法缓存", instead="把数据存成仓库里的文件再读"),
)


@dataclass(frozen=True)
class Generator:
    """A global random generator: drawn from in a top-level statement (or a page block) before any
    of its seeds was set in this run, the run can't repeat and is refused at that statement."""

    name: str  # in the authors' words
    state: str  # the function returning its state
    seeds: tuple[str, ...]  # what sets its seed (a seed of None does not count)
    hint: str  # what to write first


GENERATORS = (
    Generator("Python 的 random", "random.getstate", ("random.seed",), "random.seed(0)"),
    Generator("torch 的默认生成器", "torch.get_rng_state", ("torch.manual_seed", "torch.random.manual_seed"),
              "torch.manual_seed(0)"),
    Generator("numpy 的全局生成器", "numpy.random.get_state", ("numpy.random.seed",), "numpy.random.seed(0)"),
)


class Refused(Exception):
    """A read the kit can't key, at `where` (file, line) of the lesson's own code."""

    def __init__(self, message: str, where: tuple[str, int] | None) -> None:
        super().__init__(message)
        self.where = where


def today() -> str:
    return datetime.date.today().isoformat()


def digest(value: str | None) -> str:
    return "unset" if value is None else hashlib.sha256(value.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def _whole_environment() -> str:
    return digest("\0".join(f"{k}={v}" for k, v in sorted(os.environ.items())))


def current(root: Path, dep: str, lesson) -> str:
    """What a recorded dependency reads as now: a file's hash (coursekit.core.digests), a variable's
    value, the day."""
    from coursekit.core import digests

    kind, _, name = dep.partition(":")
    if kind == "env" and name == "*":
        return _whole_environment()
    if kind == "env":
        return digest(os.environ.get(name))
    if kind == "day":
        return today()
    return digests.file_hash(root, dep, lesson)


# ---- in the worker -----------------------------------------------------------------------------

_state: dict = {"root": "", "libraries": (), "files": set(), "keyed": {}, "refused": [], "seeded": set(), "inside": 0}
# Standard library modules that only pass a read on: the caller that counts is the one before them.
PLUMBING = ("os", "_collections_abc", "collections.abc")  # by module name (CPython 3.11 freezes them: no file)


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, *(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib"))}
    return tuple(os.path.realpath(d) + os.sep for d in dirs if d)


@functools.lru_cache(maxsize=4096)
def course_file(filename: str) -> str | None:
    """The file as the repository names it, if it is the course's own (not the kit, not a library,
    not a hidden folder such as .venv or .cache); else None. (Remembered: the root is set once.)"""
    root = _state["root"]
    if not root or not filename or filename.startswith("<"):
        return None
    full = os.path.realpath(os.path.join(root, filename))
    if not full.startswith(root + os.sep) or full.startswith(_state["libraries"]):
        return None
    rel = os.path.relpath(full, root)
    parts = rel.split(os.sep)
    if parts[0] == "coursekit" or any(p.startswith(".") for p in parts):
        return None
    return Path(rel).as_posix()


def _caller() -> tuple[str, int] | None:
    """(file, line) of the code that made the read, past this module and PLUMBING, if it is the
    course's own code; None for a library's or the kit's call, and for a read the kit's own call of
    the original made (date.today reads the clock through time.time)."""
    if _state["inside"]:
        return None
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename == __file__ or frame.f_globals.get("__name__") in PLUMBING):
        frame = frame.f_back
    if frame is None:
        return None
    rel = course_file(frame.f_code.co_filename)
    return (rel, frame.f_lineno) if rel else None


def _innermost() -> tuple[str, int] | None:
    frame = sys._getframe(1)
    while frame is not None:
        rel = course_file(frame.f_code.co_filename)
        if rel:
            return rel, frame.f_lineno
        frame = frame.f_back
    return None


def refuse(message: str, where: tuple[str, int] | None) -> None:
    """Raise it at once, and note it: code that catches it still fails its run (`check`)."""
    err = Refused(message, where)
    _state["refused"].append(err)
    raise err


def check() -> None:
    """A refusal the code caught and went on: its run fails all the same."""
    if _state["refused"]:
        err = _state["refused"][0]
        _state["refused"].clear()
        raise err


def files() -> list[str]:
    """The course's files this process has read or executed (data files, modules however imported)."""
    return sorted(_state["files"])


def keyed() -> dict[str, str]:
    """Every other keyed read so far: dependency name -> digest."""
    return dict(_state["keyed"])


def _resolve(dotted: str):
    """(owner, attribute) of a dotted name: the longest module imported (install imports them all),
    then attributes."""
    parts = dotted.split(".")
    cut = next(n for n in range(len(parts) - 1, 0, -1) if ".".join(parts[:n]) in sys.modules)
    owner = sys.modules[".".join(parts[:cut])]
    for name in parts[cut:-1]:
        owner = getattr(owner, name)
    return owner, parts[-1]


def _original(original, *args, **kwargs):
    """The replaced function itself; what it reads on its way is not the course's read."""
    _state["inside"] += 1
    try:
        return original(*args, **kwargs)
    finally:
        _state["inside"] -= 1


def _replace(dotted: str, guard) -> None:
    """Have guard(original, *args, **kwargs) answer the calls of a function of a module or a class
    (a class method of a built-in type such as datetime.date is set in its type's dictionary: the
    worker is forked and ends with the page, so nothing else sees it)."""
    owner, name = _resolve(dotted)
    if not isinstance(owner, type):
        original = getattr(owner, name)
        setattr(owner, name, lambda *args, **kwargs: guard(original, *args, **kwargs))
        return
    raw = next(c.__dict__[name] for c in owner.__mro__ if name in c.__dict__)  # its own, or inherited
    method = classmethod(lambda cls, *args, **kwargs: guard(raw.__get__(None, cls), *args, **kwargs))
    gc.get_referents(owner.__dict__)[0][name] = method
    ctypes.pythonapi.PyType_Modified(ctypes.py_object(owner))


def _refusing(source: Source, dotted: str):
    enough = dict(source.given).get(dotted)  # None: every call is refused

    def guard(original, *args, **kwargs):
        where = _caller()
        given = [a for a in args if a is not None] + [v for v in kwargs.values() if v is not None]
        if where is not None and (enough is None or len(given) < enough):
            refuse(f"{dotted}() {source.refused}；{source.instead}", where)
        return _original(original, *args, **kwargs)
    return guard


def _day(original, *args, **kwargs):
    if _caller() is not None:
        _state["keyed"]["day:"] = _original(today)
    return _original(original, *args, **kwargs)


def _seeding(generator: Generator):
    def guard(original, *args, **kwargs):
        if (args and args[0] is not None) or any(kwargs.get(k) is not None for k in ("seed", "a")):
            _state["seeded"].add(generator.name)
        return _original(original, *args, **kwargs)
    return guard


class _RecordedEnviron(os._Environ):
    """os.environ noting what the course's own code read of it."""

    def __getitem__(self, key):
        try:
            value = super().__getitem__(key)
        except KeyError:
            self._note(key, None)
            raise
        self._note(key, value)
        return value

    def __iter__(self):
        if _caller() is not None:
            _state["keyed"]["env:*"] = _original(_whole_environment)
        return super().__iter__()

    @staticmethod
    def _note(key, value) -> None:
        if isinstance(key, str) and _caller() is not None:
            _state["keyed"][f"env:{key}"] = digest(value)


def _env(_source: Source) -> None:
    os.environ.__class__ = _RecordedEnviron  # os.getenv reads through it


INSTALL = {  # how each kind of source is set up (the audited kinds are read by the hook below)
    "env": _env,
    "day": lambda source: [_replace(dotted, _day) for dotted in source.calls],
    "refuse": lambda source: [_replace(dotted, _refusing(source, dotted)) for dotted in source.calls],
}


def install(root: Path) -> None:
    """Set up every source in this process (a worker, once, before the lesson runs)."""
    import numpy.random  # noqa: F401 - the modules the tables name (the zygote imported them already)
    import torch.random  # noqa: F401
    _state["root"] = os.path.realpath(root)
    _state["libraries"] = _library_dirs()
    course_file.cache_clear()
    for source in SOURCES:
        INSTALL.get(source.how, lambda s: None)(source)
    for generator in GENERATORS:
        for dotted in generator.seeds:
            _replace(dotted, _seeding(generator))
    audited = {event: source for source in SOURCES if source.how in ("file", "module", "network") for event in source.calls}
    sys.addaudithook(lambda event, args: _audit(audited.get(event), event, args))


def _audit(source: Source | None, event: str, args) -> None:
    if source is None or not args:
        return
    if source.how == "network":
        refuse(f"{event} {source.refused}；{source.instead}", _innermost())
    elif source.how == "module":
        name = getattr(args[0], "co_filename", "")
        rel = course_file(name) if name.endswith(".py") else None
        if rel:
            _state["files"].add(rel)
    elif _reads(args):
        try:
            name = os.fsdecode(os.fspath(args[0]))
        except TypeError:
            return  # a file descriptor
        rel = course_file(name)
        if rel and not rel.endswith(".pyc"):
            _state["files"].add(rel)


def _reads(args) -> bool:
    """An open for reading only (what is written is refused elsewhere: coursekit.core.worker)."""
    if len(args) >= 2 and isinstance(args[1], str):
        return not any(c in args[1] for c in "wax+")
    if len(args) >= 3 and isinstance(args[2], int):
        return not args[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)
    return True


def _comparable(value):
    """A generator's state as something == compares: a tensor by its bytes, and a state tuple's arrays
    (numpy's) by theirs; Python's tuple of ints as it is."""
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        return value.numpy().tobytes()
    return tuple(v.tobytes() if hasattr(v, "tobytes") else v for v in value)


_STATES: list = []  # (generator, its state function), resolved at first use


def _states() -> list:
    if not _STATES:
        for generator in GENERATORS:
            owner, name = _resolve(generator.state)
            _STATES.append((generator, getattr(owner, name)))
    return [(g, _comparable(state())) for g, state in _STATES]


@contextmanager
def statement(path: str, line: int):
    """Around one top-level statement (or a page block): a global generator it drew from while none
    of its seeds had been set in this run is refused at its line."""
    before = _states()
    yield
    for (generator, was), (_, now) in zip(before, _states()):
        if was != now and generator.name not in _state["seeded"]:
            refuse(f"用了没有种子的随机数（{generator.name}）：这次运行还没有设种子，每次构建抽到的数都不同，"
                   f"页面上的数会变；先写 {generator.hint}", (course_file(path) or path, line))
