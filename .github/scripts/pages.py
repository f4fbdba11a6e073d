"""Reconcile the gh-pages branch with the repository: main's site at the root, one preview per open PR.

Run by .github/workflows/pages.yml after every CI run, daily, and by hand. Each run rebuilds the
whole branch from the state of the repository, so a run that is cancelled or never starts loses
nothing; the next one:

- takes main's newest site whose CI run succeeded (tests included), or keeps the one published;
- for every open pull request, takes the site of the newest successful CI run of its current head
  commit, or keeps its published preview; the CI run's artifacts are hostile data (a pull
  request's CI runs the pull request's own ci.yml): the preview description must name the API's
  own PR number in canonical form and the head commit, and the site must hold only regular files
  and folders, within a size and a file-count limit; whatever goes wrong with one pull request's
  data costs that pull request its preview (said in its comment and the job summary), never the
  run, main's site or another preview;
- comments each new preview's address on its pull request, with the short form of the CI run's
  report of what readers see changed (changes.json, hostile data too: checked field by field,
  bounded, and rendered here, every string of it as inline code) and a link to its full form at
  `<preview>/_changes/`;
- drops the previews of closed pull requests and, over the total cap, the least recently updated;
- writes .nojekyll (no Jekyll over anyone's files) and a manifest, and force-pushes the tree as a
  single orphan commit, leased on the commit it read, so the branch never grows a history.

Nothing from a pull request is executed: its files are only checked, copied and pushed.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unicodedata
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

PREVIEWS = "pr-preview"
MANIFEST = f"{PREVIEWS}/previews.json"
BLOCK = 4096  # what a file costs at least, however small (du ignores empty files; this does not)
MB = 1024 * 1024
PREVIEW_LIMIT = 200 * MB  # one preview
TOTAL_LIMIT = 500 * MB  # all previews together (GitHub Pages sites are limited to 1 GB)
MAX_PREVIEWS = 20
MAX_FILES = 20_000  # per site, and as many folders
MAX_DEPTH = 32  # folders in a path: shutil.copytree recurses once per level
MAX_PATH = 1024  # bytes of a path inside a site, far under PATH_MAX wherever the site is copied
MAX_DESCRIPTION = 4096  # bytes of preview.json
MAX_REPORT = 16384  # bytes of changes.json, the short form of what the pull request changes
REPORT_ROWS = 10  # changed numbers and page names a report may carry
REPORT_TEXT = 300  # characters of one string in it
MAX_NESTING = 32  # of JSON read from a branch or a pull request: json.loads recurses once per level
CI_WORKFLOW = ".github/workflows/ci.yml"


class Unsafe(Exception):
    """Data from a pull request (or an old branch) that must not be published."""


# --- pure logic, tested offline -----------------------------------------------------------------

def canonical_number(value: object) -> int | None:
    """A pull request number written canonically ("7", never "007", "+7", " 7" or 7.0), else None."""
    if isinstance(value, str) and re.fullmatch(r"[1-9][0-9]{0,6}", value):
        return int(value)
    return None


def check_name(rel: str, name: str) -> None:
    """Unsafe unless git can add `rel` (whose last part is `name`) and shutil can copy it anywhere."""
    # .git, what git refuses as one (core.protectNTFS), and the files it reads: a .gitattributes can make
    # `git add` fail (working-tree-encoding), a .gitignore hide files
    if re.fullmatch(r"(\.git(attributes|ignore|modules)?|git~1)[. ]*(:.*)?", name, re.IGNORECASE | re.DOTALL):
        raise Unsafe(f"{rel!r}: a .git entry or a file git reads")
    if rel.count("/") >= MAX_DEPTH:
        raise Unsafe(f"{rel[:80]!r}...: deeper than {MAX_DEPTH} levels")
    if len(os.fsencode(rel)) > MAX_PATH:
        raise Unsafe(f"{rel[:80]!r}...: a path longer than {MAX_PATH} bytes")


def site_cost(root: Path, limit: int = PREVIEW_LIMIT, max_files: int = MAX_FILES) -> int:
    """Bytes a site costs (each file rounded up to whole blocks); Unsafe unless it is a plain site.

    At most `max_files` files (folders are not files) and as many folders."""
    if root.is_symlink() or not root.is_dir():
        raise Unsafe(f"{root.name}: not a folder")
    if not (root / "index.html").is_file() or (root / "index.html").is_symlink():
        raise Unsafe("no index.html")
    total = files = folders = 0
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            mode = path.lstat().st_mode
            rel = path.relative_to(root).as_posix()
            check_name(rel, name)
            if stat.S_ISDIR(mode):
                folders += 1
                if folders > max_files:
                    raise Unsafe(f"more than {max_files} folders")
                continue
            if not stat.S_ISREG(mode):
                raise Unsafe(f"{rel}: not a regular file or folder")
            files += 1
            total += max(1, -(-path.stat().st_size // BLOCK)) * BLOCK
            if files > max_files:
                raise Unsafe(f"more than {max_files} files")
            if total > limit:
                raise Unsafe(f"more than {limit // MB} MB")
    return total


def parse_json(text: str, max_nesting: int = MAX_NESTING):
    """json.loads, but ValueError for arrays and objects nested deeper than `max_nesting`, before parsing."""
    depth, in_string, escaped = 0, False, False
    for c in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (c == "\\", c != '"')
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > max_nesting:
                raise ValueError(f"JSON nested more than {max_nesting} deep")
        elif c in "]}":
            depth -= 1
    return json.loads(text)


def read_description(path: Path, number: int, head_sha: str) -> None:
    """The CI run's preview.json must describe a deploy of PR `number` (the API's) at `head_sha`."""
    if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_DESCRIPTION:
        raise Unsafe("preview.json: missing, not a regular file, or too big")
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except ValueError:  # UnicodeDecodeError included
        raise Unsafe("preview.json: not JSON") from None
    if not isinstance(data, dict):
        raise Unsafe("preview.json: not an object")
    if canonical_number(data.get("number")) != number:
        raise Unsafe(f"preview.json: number {data.get('number')!r} is not PR {number}")
    if data.get("head_sha") != head_sha or data.get("action") != "deploy":
        raise Unsafe("preview.json: not a deploy of the PR's head commit")


def _fields(data: object, keys: set[str], what: str) -> dict:
    if not isinstance(data, dict) or set(data) != keys:
        raise Unsafe(f"changes.json: {what} is not an object with exactly {', '.join(sorted(keys))}")
    return data


def _count(value: object, what: str, least: int = 0) -> int:
    if type(value) is not int or not least <= value <= 10**7:
        raise Unsafe(f"changes.json: {what} is not a whole number from {least} to 10000000")
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or len(value) > REPORT_TEXT:
        raise Unsafe(f"changes.json: {what} is not a string of at most {REPORT_TEXT} characters")
    return value


def code(text: str, most: int = 120) -> str:
    """A pull request's string as inline code in a comment: one line, no backtick or table bar, no
    control, format or direction character (shown as ?), at most `most` characters."""
    text = "".join(c if c == " " or (c.isprintable() and unicodedata.category(c) not in ("Cf", "Co")) else "?"
                   for c in text)
    text = text.replace("`", "ˋ").replace("|", "¦")
    return f"`` {text[:most]}{'…' if len(text) > most else ''} ``"


BASES = {"same", "published", "given", "none"}
COUNTS = {"added", "removed", "edited", "numbers", "untouched", "text", "reran"}
ROW = {"page", "line", "old", "new", "expr", "edited"}


def read_report(path: Path) -> dict:
    """The CI run's changes.json (scripts/changes.py --summary), checked field by field; Unsafe otherwise."""
    if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_REPORT:
        raise Unsafe(f"changes.json: missing, not a regular file, or more than {MAX_REPORT} bytes")
    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except ValueError:  # UnicodeDecodeError included
        raise Unsafe("changes.json: not JSON") from None
    _fields(data, {"format", "base", "compared", "counts", "untouched", "rows"}, "the report")
    if type(data["format"]) is not int or data["format"] != 1:
        raise Unsafe("changes.json: not format 1")
    base = _fields(data["base"], {"how", "commit"}, "base")
    if base["how"] not in BASES or not (base["commit"] == "" or
                                         (isinstance(base["commit"], str) and re.fullmatch(r"[0-9a-f]{40}", base["commit"]))):
        raise Unsafe("changes.json: base is not one of the kinds, or its commit is no commit")
    if type(data["compared"]) is not bool:
        raise Unsafe("changes.json: compared is not true or false")
    for key, value in _fields(data["counts"], COUNTS, "counts").items():
        _count(value, f"counts.{key}")
    for key in ("untouched", "rows"):
        if not isinstance(data[key], list) or len(data[key]) > REPORT_ROWS:
            raise Unsafe(f"changes.json: {key} is not a list of at most {REPORT_ROWS}")
    for i, page in enumerate(data["untouched"]):
        _text(page, f"untouched[{i}]")
    for i, row in enumerate(data["rows"]):
        _fields(row, ROW, f"rows[{i}]")
        _count(row["line"], f"rows[{i}].line", 1)
        for key in ("page", "old", "new", "expr"):
            _text(row[key], f"rows[{i}].{key}")
        if type(row["edited"]) is not bool:
            raise Unsafe(f"changes.json: rows[{i}].edited is not true or false")
    return data


def report_text(data: dict, full: str) -> str:
    """The comment's part on what readers see changed, from a checked report; `full`: the full
    report's address (made here, never taken from the report), or ""."""
    link = f"（[完整报告]({full})）" if full else ""
    sha = data["base"]["commit"]
    base = {"same": f"和本 PR 的基准提交 `{sha[:12]}` 上 `main` 的构建比较",
            "published": "和网站上发布的 `main`" + (f"（`{sha[:12]}`）" if sha else "") + "比较，不是本 PR 的基准提交",
            "given": "和给定的基准比较", "none": ""}[data["base"]["how"]]
    if not data["compared"]:
        return f"**读者看到的变化**：没有比较（找不到能用的 `main` 清单）{link}。"
    n = data["counts"]
    out = [f"**读者看到的变化**{link}：{base}。", ""]
    out.append(f"- 数变了 {n['numbers']} 个；新增 {n['added']} 页，删除 {n['removed']} 页，改动 {n['edited']} 页；"
               f"重新运行 {n['reran']} 讲。")
    if n["untouched"]:
        names = "、".join(code(p) for p in data["untouched"])
        more = f" 等 {n['untouched']} 页" if n["untouched"] > len(data["untouched"]) else ""
        out.append(f"- **这次没有改动、却显示了不同的数或输出的页**：{names}{more}")
    if n["text"]:
        out.append(f"- 另有 {n['text']} 页源文件没改、文字变了（导航、引用的文件之类），见完整报告。")
    if data["rows"]:
        out += ["", "| 页 | 行 | 原来现算 | 现在现算 | 表达式 |", "| --- | ---: | --- | --- | --- |"]
        out += [f"| {code(r['page'], 60)}{'' if r['edited'] else '（未改动）'} | {r['line']} | {code(r['old'])} | "
                f"{code(r['new'])} | {code(r['expr'])} |" for r in data["rows"]]
        if n["numbers"] > len(data["rows"]):
            out += ["", f"还有 {n['numbers'] - len(data['rows'])} 个，见完整报告。"]
    elif not n["numbers"]:
        out.append("- 没有一个数变了。")
    return "\n".join(out)


@dataclass
class Preview:
    number: int
    head_sha: str
    updated: str  # ISO 8601, the pull request's last activity: the oldest are pruned first
    path: Path
    cost: int = 0
    new: bool = False  # published by this run (the PR gets a comment)
    report: dict | None = None  # the checked changes.json
    report_problem: str = ""  # why there is none


@dataclass
class Choice:
    kept: list[Preview] = field(default_factory=list)
    dropped: dict[int, str] = field(default_factory=dict)  # number: why


def choose(previews: list[Preview], open_numbers: set[int], total_limit: int = TOTAL_LIMIT,
           max_previews: int = MAX_PREVIEWS) -> Choice:
    """Open pull requests' previews, most recently updated first, while they fit the caps."""
    choice = Choice()
    total = 0
    for p in sorted(previews, key=lambda p: (p.updated, p.number), reverse=True):
        if p.number not in open_numbers:
            choice.dropped[p.number] = "closed"
        elif len(choice.kept) >= max_previews:
            choice.dropped[p.number] = f"more than {max_previews} previews"
        elif total + p.cost > total_limit:
            choice.dropped[p.number] = f"all previews together would exceed {total_limit // MB} MB"
        else:
            choice.kept.append(p)
            total += p.cost
    choice.kept.sort(key=lambda p: p.number)
    return choice


def assemble(out: Path, main_site: Path, main_sha: str, kept: list[Preview]) -> None:
    """The whole gh-pages tree: main's site, the previews, .nojekyll and the manifest."""
    if (main_site / PREVIEWS).exists():
        raise Unsafe(f"main's site has its own {PREVIEWS}/")
    shutil.copytree(main_site, out, symlinks=True)
    (out / PREVIEWS).mkdir()
    for p in kept:
        shutil.copytree(p.path, out / PREVIEWS / f"pr-{p.number}", symlinks=True)
    (out / ".nojekyll").write_bytes(b"")
    manifest = {"main": main_sha, "previews": {
        str(p.number): {"head_sha": p.head_sha, "updated": p.updated, "bytes": p.cost} for p in kept}}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def read_manifest(tree: Path | None) -> dict:
    try:
        data = parse_json((tree / MANIFEST).read_text(encoding="utf-8")) if tree else {}
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict) or not isinstance(data.get("previews"), dict):
        return {"main": None, "previews": {}}
    return data


def extract(archive: bytes, dest: Path, limit: int = PREVIEW_LIMIT) -> None:
    """An artifact's zip into `dest`: plain files only, no path leaving `dest`, within `limit`."""
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        infos = z.infolist()
        files = sum(not i.is_dir() for i in infos)  # the limit counts files; folders have their own
        if sum(i.file_size for i in infos) > limit or files > MAX_FILES or len(infos) - files > MAX_FILES:
            raise Unsafe("artifact too big")
        for info in infos:
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts or "\\" in info.filename:
                raise Unsafe(f"artifact path {info.filename!r}")
            kind = (info.external_attr >> 16) & 0o170000
            if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                raise Unsafe(f"artifact entry {info.filename!r} is not a file or folder")
            target = dest.joinpath(*name.parts)
            try:
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with z.open(info) as src, open(target, "xb") as dst:
                    shutil.copyfileobj(src, dst)
            except OSError as err:  # a name twice, a file where a folder should be
                raise Unsafe(f"artifact entry {info.filename!r}: {err.strerror}") from None


def git(*args: str, cwd: Path, env: dict | None = None) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"git {args[0]}: {result.stderr.strip()}")
    return result.stdout.strip()


def fetch_current(remote: str, into: Path, env: dict) -> str | None:
    """Check out gh-pages' tree into `into` (as data: git runs nothing from it); its commit, or None."""
    into.mkdir(parents=True)
    git("init", "-q", cwd=into, env=env)
    found = subprocess.run(["git", "ls-remote", "--exit-code", remote, "refs/heads/gh-pages"], cwd=into, env=env,
                           capture_output=True, text=True)
    if found.returncode == 2:
        return None  # no branch yet
    if found.returncode != 0:
        raise RuntimeError(f"git ls-remote: {found.stderr.strip()}")
    git("fetch", "-q", "--depth", "1", remote, "refs/heads/gh-pages", cwd=into, env=env)
    git("-c", "core.symlinks=false", "checkout", "-q", "FETCH_HEAD", cwd=into, env=env)
    shutil.rmtree(into / ".git")
    return found.stdout.split()[0]


def push(tree: Path, remote: str, lease: str | None, env: dict, message: str) -> str:
    """`tree` as the single, parentless commit of gh-pages; refused if gh-pages moved from `lease`."""
    work = Path(tempfile.mkdtemp())
    genv = {**env, "GIT_DIR": str(work / ".git"), "GIT_WORK_TREE": str(tree),
            "GIT_AUTHOR_NAME": "github-actions[bot]", "GIT_COMMITTER_NAME": "github-actions[bot]",
            "GIT_AUTHOR_EMAIL": "41898282+github-actions[bot]@users.noreply.github.com",
            "GIT_COMMITTER_EMAIL": "41898282+github-actions[bot]@users.noreply.github.com"}
    try:
        git("init", "-q", str(work), cwd=work, env=env)
        git("-c", "core.autocrlf=false", "add", "-A", ".", cwd=tree, env=genv)
        git("commit", "-q", "--no-verify", "-m", message, cwd=tree, env=genv)
        sha = git("rev-parse", "HEAD", cwd=tree, env=genv)
        git("push", "-q", f"--force-with-lease=refs/heads/gh-pages:{lease or ''}", remote,
            "HEAD:refs/heads/gh-pages", cwd=tree, env=genv)
        return sha
    finally:
        shutil.rmtree(work, ignore_errors=True)


# --- GitHub -------------------------------------------------------------------------------------

class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # artifact downloads redirect to storage: follow them without the token


class GitHub:
    def __init__(self, repo: str, token: str, api: str):
        self.repo, self.token, self.api = repo, token, api.rstrip("/")
        self.opener = urllib.request.build_opener(_NoRedirect)

    def request(self, method: str, path: str, body: dict | None = None):
        req = urllib.request.Request(
            f"{self.api}/{path}", method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Bearer {self.token}", "Accept": "application/vnd.github+json",
                     "X-GitHub-Api-Version": "2022-11-28"})
        with self.opener.open(req, timeout=60) as r:
            return json.load(r)

    def get(self, path: str):
        return self.request("GET", path)

    def pages(self, path: str, key: str | None = None) -> list:
        out = []
        for page in range(1, 11):
            sep = "&" if "?" in path else "?"
            data = self.get(f"{path}{sep}per_page=100&page={page}")
            items = data[key] if key else data
            out += items
            if len(items) < 100:
                break
        return out

    def artifact(self, run_id: int, name: str, dest: Path, limit: int) -> bool:
        """Download and extract one artifact of a run into `dest`; False if it is gone."""
        found = [a for a in self.get(f"repos/{self.repo}/actions/runs/{run_id}/artifacts?name={name}")["artifacts"]
                 if a["name"] == name and not a["expired"]]
        if not found:
            return False
        if found[0]["size_in_bytes"] > limit:
            raise Unsafe(f"artifact {name} is {found[0]['size_in_bytes'] // MB} MB")
        req = urllib.request.Request(f"{self.api}/repos/{self.repo}/actions/artifacts/{found[0]['id']}/zip",
                                     headers={"Authorization": f"Bearer {self.token}"})
        try:
            self.opener.open(req, timeout=60)
            raise RuntimeError("artifact download did not redirect")
        except urllib.error.HTTPError as err:
            if err.code not in (301, 302, 303, 307, 308):
                raise
            location = err.headers["Location"]
        with urllib.request.urlopen(location, timeout=300) as r:  # a signed address: no token sent
            archive = r.read(limit + 1)
        if len(archive) > limit:
            raise Unsafe(f"artifact {name} too big")
        dest.mkdir(parents=True)
        extract(archive, dest, limit)
        return True

    def successful_runs(self, **query: str) -> list[dict]:
        q = "&".join(f"{k}={v}" for k, v in {**query, "status": "success"}.items())
        runs = self.get(f"repos/{self.repo}/actions/workflows/ci.yml/runs?{q}&per_page=20")["workflow_runs"]
        return [r for r in runs if r.get("path") == CI_WORKFLOW and r.get("conclusion") == "success"]

    def open_pulls(self) -> list[dict]:
        return self.pages(f"repos/{self.repo}/pulls?state=open")

    def comment(self, number: int, body: str) -> None:
        """One comment per pull request, updated: the first line marks it."""
        marker = "<!-- pr-preview -->"
        for c in self.pages(f"repos/{self.repo}/issues/{number}/comments"):
            if c.get("user", {}).get("login") == "github-actions[bot]" and c.get("body", "").startswith(marker):
                self.request("PATCH", f"repos/{self.repo}/issues/comments/{c['id']}", {"body": f"{marker}\n{body}"})
                return
        self.request("POST", f"repos/{self.repo}/issues/{number}/comments", {"body": f"{marker}\n{body}"})


def pages_url(owner: str, name: str, configured: str) -> str:
    base = configured or (f"https://{owner}.github.io/" if name.lower() == f"{owner}.github.io".lower()
                          else f"https://{owner}.github.io/{name}/")
    return base.rstrip("/") + "/"


def main() -> int:
    repo, token = os.environ["REPO"], os.environ["GH_TOKEN"]
    server = os.environ.get("GITHUB_SERVER_URL", "https://github.com")
    gh = GitHub(repo, token, os.environ.get("GITHUB_API_URL", "https://api.github.com"))
    owner, name = repo.split("/")
    base = pages_url(owner, name, os.environ.get("PAGES_BASE_URL", ""))
    auth = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_COUNT": "1",
           "GIT_CONFIG_KEY_0": f"http.{server}/.extraheader", "GIT_CONFIG_VALUE_0": f"AUTHORIZATION: basic {auth}"}
    remote = f"{server}/{repo}.git"
    return reconcile(gh, repo, remote, env, base, Path(tempfile.mkdtemp()))


def reconcile(gh: GitHub, repo: str, remote: str, env: dict, base: str, work: Path) -> int:
    """One publishing run: read gh-pages, decide, push, comment. 0 when published."""
    current = work / "current"
    lease = fetch_current(remote, current, env)
    tree = current if lease else None
    manifest = read_manifest(tree)

    # main: the newest successful push to main, or what is published
    main_site, main_sha = None, None
    for run in gh.successful_runs(branch="main", event="push")[:1]:
        if run["head_repository"]["full_name"] != repo:
            continue
        if run["head_sha"] == manifest.get("main") and tree and (tree / "index.html").is_file():
            break
        dest = work / "main"
        try:
            if gh.artifact(run["id"], "site", dest, 900 * MB):
                site_cost(dest, 900 * MB, 200_000)
                main_site, main_sha = dest, run["head_sha"]
        except Unsafe as err:
            print(f"::warning::main's site of run {run['id']} not used: {err}")
    if main_site is None and tree and (tree / "index.html").is_file():
        main_site, main_sha = work / "kept-main", manifest.get("main")
        shutil.copytree(tree, main_site, ignore=lambda d, names: {PREVIEWS, ".nojekyll"} if Path(d) == tree else set())
    if main_site is None:
        print("::error::no site of main to publish (no successful CI run of main with a site artifact)")
        return 1

    # previews: every open pull request's newest successful build of its head, or its published one
    previews, open_numbers, problems = [], set(), {}
    for pr in gh.open_pulls():
        number = pr["number"]
        open_numbers.add(number)
        try:
            found, problem = pull_preview(gh, pr, manifest, tree, work)
        except Exception as err:  # whatever one PR's data breaks costs only its preview
            found, problem = None, reason(err)
            print(f"::warning::PR #{number}: not published: {problem}")
        if problem:
            problems[number] = problem
        if found:
            previews.append(found)
    for number in manifest["previews"]:  # published, now closed: dropped by choose()
        n = canonical_number(number)
        if n and n not in open_numbers and tree and (tree / PREVIEWS / f"pr-{n}").is_dir():
            previews.append(Preview(n, "", "", tree / PREVIEWS / f"pr-{n}"))
    choice = choose(previews, open_numbers)

    out = work / "out"
    assemble(out, main_site, main_sha or "", choice.kept)
    kept = ", ".join(f"#{p.number}" for p in choice.kept) or "none"
    sha = push(out, remote, lease, env, f"Pages: main {(main_sha or '?')[:12]}, previews {kept}")
    print(f"gh-pages is now {sha}: main {main_sha}, previews {kept}")
    for number, why in sorted(choice.dropped.items()):
        print(f"dropped the preview of PR #{number}: {why}")

    try:
        summarize(env, f"gh-pages is now `{sha[:12]}`: main `{(main_sha or '?')[:12]}`, previews {kept}.",
                  choice, problems)
    except OSError as err:  # the site is published; the summary repeats the log
        print(f"::warning::could not write the job summary: {err}")
    try:
        comment(gh, base, choice, manifest, problems)
    except (urllib.error.URLError, OSError) as err:  # the site is published; a comment is a courtesy
        print(f"::warning::could not comment on a pull request: {err}")
    return 0


def pull_preview(gh: GitHub, pr: dict, manifest: dict, tree: Path | None,
                 work: Path) -> tuple[Preview | None, str]:
    """The PR's newest fit build of its head, else its published preview; and why a build was refused, or ""."""
    number, sha = pr["number"], pr["head"]["sha"]
    published = manifest["previews"].get(str(number), {})
    problem = ""
    if published.get("head_sha") != sha:
        found, problem = newest_build(gh, pr, work)
        if found:
            return found, ""
    old = tree / PREVIEWS / f"pr-{number}" if tree else None
    if old is not None and old.is_dir() and published:
        try:
            return Preview(number, published.get("head_sha", ""), pr["updated_at"], old, site_cost(old)), problem
        except Unsafe as err:
            print(f"::warning::PR #{number}: published preview dropped: {err}")
    return None, problem


def newest_build(gh: GitHub, pr: dict, work: Path) -> tuple[Preview | None, str]:
    """The preview of the PR head's newest successful CI run fit to publish; why the last unfit one was not."""
    number, sha = pr["number"], pr["head"]["sha"]
    head_repo = (pr["head"].get("repo") or {}).get("full_name")
    problem = ""
    for run in gh.successful_runs(event="pull_request", head_sha=sha) if head_repo else []:
        if run["head_sha"] != sha or (run.get("head_repository") or {}).get("full_name") != head_repo:
            continue  # not a build of this head from this head's repository (null: a deleted fork)
        try:
            found = run_preview(gh, run, pr, work / f"pr-{number}-{run['id']}")
        except Exception as err:  # the artifacts are the PR's data; an older run may still do
            problem = f"run {run['id']}: {reason(err)}"
            print(f"::warning::PR #{number}, run {run['id']}: not published: {reason(err)}")
            continue
        if found:
            return found, ""
    return None, problem


def run_preview(gh: GitHub, run: dict, pr: dict, dest: Path) -> Preview | None:
    """One CI run's preview of `pr`, checked; None if its artifacts are gone."""
    number, sha = pr["number"], pr["head"]["sha"]
    if not gh.artifact(run["id"], "preview", dest / "description", MAX_DESCRIPTION + MAX_REPORT):
        return None
    read_description(dest / "description/preview.json", number, sha)
    if not gh.artifact(run["id"], "site", dest / "site", PREVIEW_LIMIT):
        return None
    found = Preview(number, sha, pr["updated_at"], dest / "site", site_cost(dest / "site"), new=True)
    try:  # the report is a courtesy: without one the preview is published all the same
        found.report = read_report(dest / "description/changes.json")
    except Unsafe as err:
        found.report_problem = reason(err)
        print(f"::warning::PR #{number}, run {run['id']}: report not used: {found.report_problem}")
    return found


def reason(err: BaseException) -> str:
    """Why a PR's data was refused, as one short line of plain text: its words may be the PR's own."""
    text = str(err)
    if not isinstance(err, Unsafe):
        text = f"{type(err).__name__}: {text}" if text else type(err).__name__
    return " ".join(text.split()).replace("`", "'")[:300]


def summarize(env: dict, published: str, choice: Choice, problems: dict[int, str]) -> None:
    """The run in the job summary (Markdown), when GitHub gives the step one."""
    path = env.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    lines = [f"- PR #{n}: not published: `{why}`" for n, why in sorted(problems.items())]
    lines += [f"- PR #{n}: preview dropped: {why}" for n, why in sorted(choice.dropped.items())]
    with open(path, "a", encoding="utf-8") as f:
        f.write("\n".join(["### Pages", "", published, "", *lines]) + "\n")


def comment(gh: GitHub, base: str, choice: Choice, manifest: dict, problems: dict[int, str]) -> None:
    for p in choice.kept:
        if p.new:
            address = f"{base}{PREVIEWS}/pr-{p.number}/"
            full = f"{address}_changes/" if (p.path / "_changes/index.html").is_file() else ""
            report = (report_text(p.report, full) if p.report else
                      f"**读者看到的变化**：这次构建的报告不能用（`{p.report_problem or 'changes.json: missing'}`）。")
            gh.comment(p.number, f"**站点预览**：{address}\n\n"
                                 f"由本 PR 的提交 {p.head_sha} 构建（Pages 部署完成后即可打开）。"
                                 f"每次推送都会更新；PR 关闭时预览会被删除。\n\n{report}")
    for number, why in choice.dropped.items():
        if str(number) in manifest["previews"]:
            text = "PR 已关闭" if why == "closed" else f"所有预览的总大小或数量超过上限（{why}），最久没有更新的先撤下"
            gh.comment(number, f"站点预览已删除：{text}。")
    kept = {p.number for p in choice.kept}
    for number, why in problems.items():  # last: what this PR's newest build needs fixing
        state = "未更新（仍是之前发布的预览）" if number in kept else "未发布"
        gh.comment(number, f"站点预览{state}：本 PR 的 CI 构建结果不能发布（`{why}`）。")


if __name__ == "__main__":
    sys.exit(main())
