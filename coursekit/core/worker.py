"""The process a lesson's code runs in: one per lesson and page, forked from a zygote process that
has torch imported already, so starting one costs milliseconds and nothing the code does reaches
the build tool, another lesson or the next rebuild.

The zygote (`python -m coursekit.core.worker ROOT FD`) receives, over a Unix socket, one end of a new
socket per worker with the worker's settings; it forks, and the child serves that socket.

Requests come over a multiprocessing connection, answers go back the same way:

    ("run", name, title)  -> run one experiment file whole (coursekit.core.runner.run_file)
    ("eval", [expr, ...]) -> each expression's value, flattened to numbers, in the lesson namespace
    ("apply", function, argument) -> function(namespace, origin, argument), a function of the kit
                             over the lesson's values (origin: name -> its first experiment file)
    ("exec", code, where, context) -> run a page block in its namespace (coursekit.core.blocks.Context,
                             as a dict), return what it printed

Every answer is a dict; a failure is {"error": {...}} naming the file and line it happened at.
A time limit per request is kept here by faulthandler (it dumps the stack, so the parent can name
the line, and exits) and again by the parent, which kills the process if that is not enough.
"""

from __future__ import annotations

import faulthandler
import json
import linecache
import os
import re
import signal
import socket
import sys
import traceback
from contextlib import contextmanager, redirect_stdout
from multiprocessing.connection import Connection
from pathlib import Path

# Folders `mkdocs serve` watches: lesson code may read them, never write into them.
WATCHED = ("docs", "lessons", "tinylm", "snippets", "overrides", "coursekit", "templates", "mkdocs.yml")
WRITE_EVENTS = {"os.remove", "os.rename", "os.rmdir", "os.mkdir", "shutil.rmtree", "shutil.move", "os.truncate",
                "os.symlink", "os.link", "os.chmod", "os.utime"}
# The build's own state (its cache, its sealing key, the site it writes): lesson code may neither
# read nor write it.
BUILD_STATE = (".cache", "site")
# Another program would run without these rules (it could read the key, or write anything).
SPAWN_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "pty.spawn"}


def zygote(root: str, fd: int) -> None:
    """Fork a worker for each request; note each worker's exit status at the end of its log."""
    channel = socket.socket(fileno=fd)
    sys.path[:0] = [root]
    os.chdir(root)
    import numpy  # noqa: F401 - imported once here, shared by every worker
    import torch
    import torch._dynamo  # torch.optim imports it on first use: 1–3 s per worker otherwise

    torch.set_num_threads(1)
    logs: dict[int, str] = {}

    def reap(*_):
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            try:  # appended, never created: a log its build has already removed stays removed
                fd = os.open(logs.pop(pid, os.devnull), os.O_WRONLY | os.O_APPEND)
            except OSError:
                continue
            with os.fdopen(fd, "a", encoding="utf-8") as log:
                log.write(f"\n[exit {os.waitstatus_to_exitcode(status)}]\n")

    signal.signal(signal.SIGCHLD, reap)
    while True:
        message, fds, _, _ = socket.recv_fds(channel, 65536, 1)
        if not message:
            return  # the build is over
        job = json.loads(message)
        pid = os.fork()
        if pid == 0:
            channel.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                serve(Connection(fds[0]), root, job["package"], job["settings"], job["log"])
            finally:
                os._exit(0)
        os.close(fds[0])
        logs[pid] = job["log"]
        channel.send(str(pid).encode())


def serve(conn, root: str, package: str, settings: dict, log_path: str) -> None:
    try:  # the build made it; one that has already removed it (it stopped at once) gets no new one
        fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
    except OSError:
        fd = os.open(os.devnull, os.O_WRONLY)
    log = os.fdopen(fd, "a", encoding="utf-8", buffering=1)  # the worker's log, open while it lives
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 0)
    os.dup2(log.fileno(), 1)  # what C code prints goes to the log, never into the build's output
    os.dup2(log.fileno(), 2)
    sys.stdout = sys.stderr = log
    sys.path[:0] = [root]
    os.chdir(root)
    for name in settings["env"]["unset"]:  # the environment of the build that asked, not the zygote's
        os.environ.pop(name, None)
    os.environ.update(settings["env"]["set"])
    import torch

    torch.set_num_threads(1)  # same numbers on any machine; lessons run side by side on the cores
    from coursekit.core import reads, runner

    runner.quiet_imports()
    _refuse_writes(Path(root))
    reads.install(Path(root))
    namespaces: dict[str, dict] = {}
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        faulthandler.dump_traceback_later(settings["time_limit"], exit=True, file=log)
        try:
            answer = _handle(request, runner, package, settings, namespaces, root)
        except BaseException as err:  # SystemExit and KeyboardInterrupt too: the answer says so
            answer = {"error": _error(err, root)}
        finally:
            faulthandler.cancel_dump_traceback_later()
        conn.send(answer)


def _handle(request, runner, package, settings, namespaces, root) -> dict:
    from coursekit.core import reads

    op = request[0]
    if op == "run":
        _, name, title = request
        run = runner.run_file(package, name, title, limit=settings["output_limit"], around=reads.statement)
        reads.check()
        return {"statements": [(s.first, s.last, s.output) for s in run.statements], "path": run.path,
                "deps": reads.files(), "reads": reads.keyed()}
    if op == "eval":
        scope = _namespace(runner, package)
        return {"values": [evaluate(expr, scope) for expr in request[1]]}
    if op == "apply":  # the function came by reference (pickle imports its module here)
        _, function, argument = request
        return {"value": function(_namespace(runner, package), _origin(runner, package), argument)}
    if op == "forget":  # the namespace's blocks start over (coursekit.core.blocks.PageBlocks._catch_up)
        namespaces.pop(request[1], None)
        fingerprints.pop(request[1], None)
        return {}
    if op == "exec":
        return _exec(request[1], request[2], request[3], runner, package, settings, namespaces, root)
    raise ValueError(f"unknown request {op!r}")


def _exec(code: str, where: str, context: dict, runner, package, settings, namespaces, root) -> dict:
    """A page block, run as markdown-exec runs one: as a module of its own name (`__name__`, and in
    sys.modules), its code compiled without this file's future imports, in its working directory and
    with its terminal width; its namespace the one `context` names."""
    import types

    from coursekit.core import reads

    space, name = context["space"], context["name"]
    scope = namespaces.setdefault(space, _namespace(runner, package))
    scope["__name__"] = name
    sys.modules[name] = types.ModuleType(name)  # what dataclasses and others look a class's module up in
    path, _, line = where.rpartition(":")
    capture = runner.Capture(settings["output_limit"])
    source = "\n" * (int(line) if line.isdigit() else 0) + code
    linecache.cache[path] = (len(source), None, source.splitlines(True), path)  # a failing assert quotes it
    compiled = compile(source, path, "exec", dont_inherit=True)
    before = fingerprints.get(space) or fingerprint(_namespace(runner, package))
    demo = sys.modules.get("lessons.demo")
    if demo is not None:
        demo.EMBEDDED.clear()
    with redirect_stdout(capture), _running_in(root, context), reads.statement(path, int(line) + 1 if line.isdigit() else 1):
        exec(compiled, scope)
    reads.check()
    keyed = reads.keyed()
    if context["width"]:
        keyed.pop("env:COLUMNS", None)  # the block's own option set it: it is in the block's key
    answer = {"output": capture.take(), "deps": reads.files(), "reads": keyed}
    fingerprints[space] = after = fingerprint(_namespace(runner, package))
    changed = sorted(key for key, digest in before.items() if after.get(key, digest) != digest)
    if changed:  # values of the lesson the block changed in place (coursekit.core.widgets reports those read)
        answer["changed"] = changed
    demo = sys.modules.get("lessons.demo")
    if demo is not None and demo.EMBEDDED:  # the widgets it embedded, with the numbers they show
        answer["widgets"], demo.EMBEDDED[:] = list(demo.EMBEDDED), []
    return answer


@contextmanager
def _running_in(root: str, context: dict):
    """markdown-exec's `workdir` (relative to the repository's root) and `width` (COLUMNS) for the
    length of one block, put back after it."""
    width = str(context["width"]) if context["width"] else None
    columns = os.environ.get("COLUMNS")
    if width:
        os.environ["COLUMNS"] = width
    if context["workdir"]:
        os.chdir(os.path.join(root, context["workdir"]))
    try:
        yield
    finally:
        os.chdir(root)
        if width and columns is None:
            os.environ.pop("COLUMNS", None)
        elif width:
            os.environ["COLUMNS"] = columns


fingerprints: dict[str, dict[str, str]] = {}  # a namespace of page blocks -> its lesson's values after its last block


def fingerprint(scope: dict) -> dict[str, str]:
    """A digest of each value in the lesson's namespace that numbers can be read from (tensors,
    arrays, numbers, strings, and lists, tuples, dicts, dataclasses and torch modules of them), so
    a value a page block changed in place shows as a changed digest. Functions, classes, modules and
    other objects are left out."""
    import hashlib

    out = {}
    for name, value in scope.items():
        h = hashlib.blake2b(digest_size=12)
        if _digest(value, h.update, 0):
            out[name] = h.hexdigest()
    return out


def _digest(value, feed, depth: int) -> bool:
    import dataclasses

    import torch

    if depth > 4:
        return False
    if isinstance(value, torch.Tensor):
        t = value.detach().cpu().contiguous()
        feed(f"T{t.dtype}{tuple(t.shape)}".encode())
        try:
            feed(t.numpy().tobytes())
        except (TypeError, RuntimeError):  # a dtype numpy lacks (bfloat16)
            feed(repr(t.tolist()).encode())
        return True
    if type(value).__module__ == "numpy" and hasattr(value, "tobytes"):
        feed(f"A{value.dtype}{value.shape}".encode() + value.tobytes())
        return True
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        feed(f"{type(value).__name__}:{value!r}".encode())
        return True
    if isinstance(value, torch.nn.Module):
        return _digest(dict(value.state_dict()), feed, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple, dict)):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        feed(f"{type(value).__name__}[{len(value)}]".encode())
        for key, item in items:
            feed(repr(key).encode())
            if not _digest(item, feed, depth + 1):
                feed(b"?")
        return True
    return False


def evaluate(expr: str, scope: dict) -> dict:
    """{'numbers': [...]} for the expression's value in scope, or {'error': 'Type: message'}."""
    from coursekit.core.numbers import flatten

    try:
        return {"numbers": flatten(eval(expr, scope))}  # the lesson's own expression
    except BaseException as err:
        return {"error": f"{type(err).__name__}: {err}"}


def _error(err: BaseException, root: str) -> dict:
    """Type, message and the innermost frame in the lesson's own code (an experiment or a page block)."""
    frames = []
    for frame in traceback.extract_tb(err.__traceback__):
        name = frame.filename
        if name.startswith(root):
            name = Path(name).relative_to(root).as_posix()
        frames.append((name, frame.lineno))
    own = [f for f in frames if f[0].startswith(("docs/", "snippets/")) or re.match(r"lessons/l\d+/", f[0])]
    ours = own or [f for f in frames if f[0].startswith("tinylm/")]
    where = ours[-1] if ours else None  # the innermost line of the lesson's own code
    kind = type(err).__name__
    message = str(err)
    from coursekit.core.reads import Refused

    if isinstance(err, Refused):
        where = err.where  # the line that read it, whatever frames lie between
    elif isinstance(err, AssertionError):
        from coursekit.core.runner import check_message

        message = check_message(err)  # its own message, or the assert's source: never a bare AssertionError
    elif isinstance(err, SystemExit):
        message = f"代码调用了 sys.exit({err.code!r})；构建中的代码不能退出进程"
    elif isinstance(err, KeyboardInterrupt):
        message = "代码抛出了 KeyboardInterrupt"
    # what can't be UTF-8 (a lone surrogate) is shown escaped: it would stop the build's own log
    return {"type": kind, "message": message.encode("utf-8", "backslashreplace").decode("utf-8"), "where": where}


def _origin(runner, package: str) -> dict[str, int]:
    """Name -> the first experiment file that has it (its own or imported), by its place in EXPERIMENTS."""
    origin: dict[str, int] = {}
    for i, (name, _) in enumerate(runner.experiments(package) if package else ()):
        for key in getattr(sys.modules.get(f"{package}.{name}"), "__dict__", {}):
            origin.setdefault(key, i)
    return origin


def _namespace(runner, package: str) -> dict:
    """What a page's blocks start from: the lesson's names, or nothing on a page of no lesson."""
    return runner.namespace(package) if package else {}


def _refuse_writes(root: Path) -> None:
    """An audit hook: opening a watched file for writing, or changing a watched folder, fails; so
    does touching the build's own state at all and starting another program. (What it reads is
    noted by coursekit.core.reads.)"""
    watched = [str(root / name) for name in WATCHED]
    state = [str(root / name) for name in BUILD_STATE]

    def full(path) -> str | None:
        try:
            name = os.fspath(path)
            return os.path.abspath(os.fsdecode(name))  # a relative path, bytes or a Path alike
        except (TypeError, ValueError):
            return None

    def inside(path, folders) -> bool:
        name = full(path)
        return name is not None and any(name == w or name.startswith(w + os.sep) for w in folders)

    def writes(event: str, args) -> bool:
        if event == "open" and len(args) >= 2 and isinstance(args[1], str):
            return any(c in args[1] for c in "wax+")
        if event == "open" and len(args) >= 3 and isinstance(args[2], int):
            return bool(args[2] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        return event in WRITE_EVENTS

    def hook(event: str, args) -> None:
        if event in SPAWN_EVENTS:
            raise PermissionError(f"构建时运行的代码不能启动别的程序：{args[0] if args else event}")
        if (event == "open" or event in WRITE_EVENTS or event in ("os.listdir", "os.scandir")) and args \
                and inside(args[0], state):
            raise PermissionError(f"构建时运行的代码不能读写构建自己的缓存：{args[0]}")
        if writes(event, args) and args and inside(args[0], watched):
            raise PermissionError(f"构建时运行的代码不能写入受监视的源文件夹：{args[0]}")

    sys.addaudithook(hook)


if __name__ == "__main__":
    zygote(sys.argv[1], int(sys.argv[2]))
