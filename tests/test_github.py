"""The GitHub workflows and templates, checked offline: pinned, least privilege, fork-safe."""

import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import urllib.error
import zipfile
import zlib

import pytest
import yaml

from tests.conftest import ROOT, mkdocs_build

WORKFLOWS = sorted((ROOT / ".github/workflows").glob("*.yml"))
SHA_PIN = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")


def load(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def steps(workflow):
    for job_id, job in workflow["jobs"].items():
        for step in job.get("steps", []):
            yield job_id, step


def test_there_are_ci_and_pages_workflows_and_they_parse():
    names = {p.name: load(p) for p in WORKFLOWS}
    assert {"ci.yml", "pages.yml"} <= names.keys()
    assert set(names["ci.yml"]["on"]) == {"push", "pull_request"}
    assert set(names["pages.yml"]["on"]) == {"workflow_run", "schedule", "workflow_dispatch"}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit(path):
    for job, step in steps(load(path)):
        if "uses" in step:
            assert SHA_PIN.match(step["uses"]), (job, step["uses"])
    text = path.read_text(encoding="utf-8")
    assert all("# v" in line for line in text.splitlines() if "uses:" in line)  # the tag, for people


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_permissions_are_empty_by_default_and_granted_per_job(path):
    workflow = load(path)
    assert workflow["permissions"] == {}
    for job_id, job in workflow["jobs"].items():
        assert "permissions" in job, job_id


def test_no_pull_request_target_and_no_credentials_left_by_checkout():
    for path in WORKFLOWS:
        assert "pull_request_target" not in load(path)["on"]
        for job, step in steps(load(path)):
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step.get("with", {}).get("persist-credentials") is False, (path.name, job)


def test_no_expression_is_expanded_inside_a_shell_script():
    for path in WORKFLOWS:
        for job, step in steps(load(path)):
            assert "${{" not in step.get("run", ""), (path.name, job, step.get("name"))


def test_ci_runs_every_layer_of_the_test_command_as_its_own_job():
    """The matrix is the layers the test command knows, which are the markers tests/conftest.py
    allows plus the unmarked fast layer: together, every test."""
    from tests.conftest import LAYERS

    job = load(ROOT / ".github/workflows/ci.yml")["jobs"]["test"]
    assert job["strategy"]["matrix"]["layer"] == ["fast", *LAYERS]
    assert job["strategy"]["fail-fast"] is False  # a failing layer does not hide another's verdict
    assert [s["run"] for s in job["steps"] if "run" in s] == ['bash scripts/test.sh --layer "$LAYER"']
    test_sh = (ROOT / "scripts/test.sh").read_text(encoding="utf-8")
    assert "[fast]=\"not engine and not build and not browser\"" in test_sh
    assert all(f"[{layer}]=\"{layer}\"" in test_sh for layer in LAYERS)
    assert "exec bash scripts/test.sh\n" in (ROOT / ".ci/run").read_text(encoding="utf-8")  # all layers


def writes(job) -> set[str]:
    return {k for k, v in (job.get("permissions") or {}).items() if v == "write"}


def test_ci_cannot_write_at_all():
    """A pull request runs its own ci.yml; ours asks for nothing beyond reading in any job."""
    ci = load(ROOT / ".github/workflows/ci.yml")
    assert all(not writes(job) for job in ci["jobs"].values())


def test_one_reconciling_publisher_is_the_only_writer_of_gh_pages():
    """Main and the previews are published by the same serialized run, which never cancels a running one.

    GitHub cancels a *pending* run when another queues in its group; with one publisher that rebuilds
    the whole branch each time, the run that replaced it publishes everything the cancelled one would.
    """
    workflows = {p.name: load(p) for p in WORKFLOWS}
    writers = {(name, job_id) for name, w in workflows.items() for job_id, job in w["jobs"].items() if writes(job)}
    assert writers == {("pages.yml", "publish")}
    pages = workflows["pages.yml"]
    assert pages["concurrency"]["cancel-in-progress"] is False
    group = pages["concurrency"]["group"]
    for name, w in workflows.items():
        if name != "pages.yml":
            groups = [w.get("concurrency")] + [j.get("concurrency") for j in w["jobs"].values()]
            assert all(group not in str(g) for g in groups if g), name
    assert "gh-pages" not in (ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8")
    assert pages["on"]["schedule"], "a daily run removes previews of PRs closed while no CI could run"
    assert pages["on"]["workflow_run"]["workflows"] == ["CI"]


def test_the_privileged_workflow_runs_nothing_from_the_pull_request():
    pages = load(ROOT / ".github/workflows/pages.yml")
    job = pages["jobs"]["publish"]
    assert "workflow_run.conclusion == 'success'" in job["if"]
    (checkout, publish) = job["steps"]
    assert checkout["uses"].startswith("actions/checkout@")  # the default branch's script, nothing else
    assert checkout["with"] == {"persist-credentials": False, "sparse-checkout": ".github/scripts"}  # no ref
    assert publish["run"].strip() == "python3 .github/scripts/pages.py"
    assert set(publish["env"]) == {"GH_TOKEN", "REPO", "PAGES_BASE_URL"}


def test_zizmor_reports_nothing_unsuppressed():
    zizmor = shutil.which("zizmor")
    assert zizmor, "zizmor is in requirements-test.txt"
    result = subprocess.run([zizmor, "--offline", "--persona", "auditor", str(ROOT / ".github/workflows")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    for line in (ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8").splitlines():
        if "zizmor: ignore" in line:
            assert re.search(r"zizmor: ignore\[[\w-]+\] \S.{20,}", line), line  # with a written reason


def test_a_pull_requests_build_carries_its_report_into_the_preview():
    job = load(ROOT / ".github/workflows/ci.yml")["jobs"]["site"]
    names = [step.get("name") or step.get("with", {}).get("name") for step in job["steps"]]
    compare = next(s for s in job["steps"] if "scripts/changes.py" in s.get("run", ""))
    assert compare["if"] == "github.event_name == 'pull_request'" and "base_manifest.sh" in compare["run"]
    assert "--page site/_changes" in compare["run"] and "--summary preview/changes.json" in compare["run"]
    uploads = {s["with"]["name"]: s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact")}
    assert names.index(compare["name"]) < names.index("site")  # the page is in the site it uploads
    assert uploads["manifest"]["with"]["path"] == "site/coursekit-manifest.json" and "if" not in uploads["manifest"]
    assert uploads["preview"]["with"]["path"] == "preview/"  # preview.json and changes.json
    assert job["permissions"] == {"contents": "read", "actions": "read"}  # reads main's artifact, writes nothing


def test_issue_and_pull_request_templates():
    forms = {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (ROOT / ".github/ISSUE_TEMPLATE").glob("*.yml")}
    lesson = {f.get("id") for f in forms["lesson-error.yml"]["body"]}
    assert {"lesson", "section", "problem", "commit"} <= lesson
    assert forms["new-lesson.yml"]["body"]
    checklist = (ROOT / ".github/PULL_REQUEST_TEMPLATE.md").read_text(encoding="utf-8")
    assert checklist.count("- [ ]") >= 5 and "scripts/test.sh" in checklist


@pytest.mark.browser
def test_the_site_works_under_a_preview_subpath(browser, tmp_path):
    from scripts.drive import free_port, serve

    port = free_port()
    base = f"http://127.0.0.1:{port}/pr-preview/pr-7/"
    served = tmp_path / "pages"
    result = mkdocs_build(ROOT, served / "pr-preview/pr-7", SITE_URL=base)
    assert result.returncode == 0, result.stderr
    (served / "index.html").write_text("main site", encoding="utf-8")
    with serve(served, port):
        page = browser.new_page()
        failed = []
        page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.goto(base)
        page.locator("article a[href$='lessons/10-attention/']").click()  # instant navigation
        page.wait_for_url(base + "lessons/10-attention/")
        page.locator("summary", has_text="展开观看动态过程").click()
        page.get_by_role("button", name="3. Softmax").click()
        assert "0.4011" in page.locator(".tl-demo tr.is-made").inner_text()
        assert page.evaluate("getComputedStyle(document.querySelector('.tl-demo-view')).display") == "flex"
        box = page.locator("input.md-search__input")
        box.click()
        box.fill("查询向量")
        box.press("End")
        hit = page.locator(".md-search-result__item a[href*='pr-preview/pr-7/lessons/10-attention/']").first
        hit.wait_for(timeout=10000)
        assert failed == []
        page.close()


def test_zizmor_would_catch_an_injection_and_an_unpinned_action(tmp_path):
    bad = tmp_path / ".github/workflows/bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request_target\npermissions: {}\njobs:\n  x:\n    runs-on: ubuntu-24.04\n"
        "    permissions: {contents: read}\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - run: echo \"${{ github.event.pull_request.title }}\"\n", encoding="utf-8")
    result = subprocess.run([shutil.which("zizmor"), "--offline", str(bad.parent)], capture_output=True, text=True)
    assert result.returncode != 0
    for audit in ("template-injection", "unpinned-uses", "dangerous-triggers"):
        assert audit in result.stdout + result.stderr, audit


# --- the publisher's logic, offline on temporary folders and a local bare repository ---------------

def _load_pages():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pages_publisher", ROOT / ".github/scripts/pages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


pages = _load_pages()


@pytest.mark.parametrize("value, number", [
    ("7", 7), ("1234567", 1234567), ("007", None), ("0", None), ("+7", None), (" 7", None), ("7\n", None),
    ("12345678", None), ("１", None), ("٧", None), ("7.0", None), (7, None), (None, None), ("", None),
])
def test_only_canonical_pull_request_numbers_are_accepted(value, number):
    assert pages.canonical_number(value) == number


def site(path, text="main", files=None):
    path.mkdir(parents=True, exist_ok=True)
    (path / "index.html").write_text(text, encoding="utf-8")
    for name, data in (files or {}).items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    return path


def describe(path, number, sha, action="deploy"):
    path.mkdir(parents=True, exist_ok=True)
    (path / "preview.json").write_text(json.dumps({"number": number, "head_sha": sha, "action": action}))
    return path


@pytest.mark.parametrize("number, sha, action, ok", [
    ("5", "a" * 40, "deploy", True), ("005", "a" * 40, "deploy", False), ("6", "a" * 40, "deploy", False),
    (5, "a" * 40, "deploy", False), ("5", "b" * 40, "deploy", False), ("5", "a" * 40, "remove", False),
])
def test_a_preview_description_must_name_the_apis_number_and_head(tmp_path, number, sha, action, ok):
    path = describe(tmp_path, number, sha, action) / "preview.json"
    if ok:
        pages.read_description(path, 5, "a" * 40)
    else:
        with pytest.raises(pages.Unsafe):
            pages.read_description(path, 5, "a" * 40)


def test_a_site_must_be_plain_files_within_the_limits(tmp_path):
    import os

    good = site(tmp_path / "good", files={"a/b.html": b"x" * 5000, "empty.txt": b""})
    assert pages.site_cost(good) == 3 * 4096 + 4096  # index (1 block), b.html (2), the empty file (1)
    linked = site(tmp_path / "linked")
    (linked / "passwd").symlink_to("/etc/passwd")
    fifo = site(tmp_path / "fifo")
    os.mkfifo(fifo / "pipe")
    dotgit = site(tmp_path / "dotgit", files={".git/config": b"[core]"})
    many = site(tmp_path / "many", files={f"e/{i}": b"" for i in range(60)})  # du counts these as nothing
    for bad, limit, files in [(linked, 10**9, 100), (fifo, 10**9, 100), (dotgit, 10**9, 100),
                              (many, 10**9, 50), (many, 40 * 4096, 100), (tmp_path / "good/a", 10**9, 100)]:
        with pytest.raises(pages.Unsafe):
            pages.site_cost(bad, limit, files)


def test_closed_and_the_oldest_previews_over_the_caps_are_dropped(tmp_path):
    P = lambda n, updated, cost: pages.Preview(n, "s", updated, tmp_path, cost)  # noqa: E731
    mb = pages.MB
    previews = [P(1, "2026-01-01", 100 * mb), P(2, "2026-03-01", 300 * mb), P(3, "2026-02-01", 150 * mb),
                P(4, "2026-04-01", 10 * mb), P(5, "2026-05-01", 1 * mb)]
    choice = pages.choose(previews, open_numbers={1, 2, 3, 4}, total_limit=500 * mb, max_previews=10)
    assert [p.number for p in choice.kept] == [2, 3, 4]  # newest first: 4, 2, 3 fit; the oldest, 1, would make 560 MB
    assert choice.dropped == {5: "closed", 1: "all previews together would exceed 500 MB"}
    assert [p.number for p in pages.choose(previews, {1, 2, 3, 4}, 10**12, 2).kept] == [2, 4]
    assert pages.TOTAL_LIMIT <= 600 * mb and pages.PREVIEW_LIMIT <= 200 * mb  # well under Pages' 1 GB


def test_artifacts_are_extracted_as_plain_files_inside_their_folder(tmp_path):
    import io
    import stat
    import zipfile

    def archive(*entries):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            for name, data, mode in entries:
                info = zipfile.ZipInfo(name)
                info.external_attr = mode << 16
                z.writestr(info, data)
        return buf.getvalue()

    pages.extract(archive(("index.html", "ok", stat.S_IFREG | 0o644), ("a/b.css", "x", 0)), tmp_path / "ok")
    assert (tmp_path / "ok/a/b.css").read_text() == "x"
    for i, bad in enumerate([archive(("../escape", "x", 0)), archive(("/abs", "x", 0)),
                             archive(("link", "/etc/passwd", stat.S_IFLNK | 0o777)),
                             archive(("a", "x", 0), ("a/b", "y", 0)), archive(("a\\..\\b", "x", 0))]):
        with pytest.raises(pages.Unsafe):
            pages.extract(bad, tmp_path / f"bad{i}")
    assert not (tmp_path / "escape").exists()


class FakeGitHub:
    """The API as the publisher sees it: runs, open pull requests, artifacts (folders), comments."""

    def __init__(self):
        self.main_runs, self.pr_runs, self.pulls, self.artifacts, self.comments = [], {}, [], {}, []

    def successful_runs(self, **query):
        runs = self.main_runs if query.get("event") == "push" else self.pr_runs.get(query["head_sha"], [])
        if isinstance(runs, Exception):
            raise runs
        return runs

    def open_pulls(self):
        return self.pulls

    def artifact(self, run_id, name, dest, limit):
        src = self.artifacts.get((run_id, name))
        if src is None:
            return False
        if isinstance(src, bytes):  # a zip, downloaded: what GitHub.artifact does with it
            dest.mkdir(parents=True)
            pages.extract(src, dest, limit)
        else:
            shutil.copytree(src, dest, symlinks=True)
        return True

    def comment(self, number, body):
        self.comments.append((number, body))


def run_of(run_id, sha, repo="o/r"):
    return {"id": run_id, "head_sha": sha, "head_repository": {"full_name": repo}}


def pull(number, sha, updated, repo="o/r"):
    return {"number": number, "updated_at": updated, "head": {"sha": sha, "repo": {"full_name": repo}}}


def branch(remote, *args):
    out = subprocess.run(["git", "--git-dir", str(remote), *args], capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


@pytest.fixture
def remote(tmp_path):
    """A bare repository whose gh-pages was made by the old deploy: two commits and a pr-007 folder."""
    import os

    bare = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    old = site(tmp_path / "old", "old main", {"pr-preview/pr-007/index.html": b"never removed"})
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    git = lambda *a: subprocess.run(["git", *a], cwd=old, env=env, check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    for message in ("first", "second"):
        (old / "n.txt").write_text(message)
        git("add", "-A")
        git("commit", "-q", "-m", message)
    git("push", "-q", str(bare), "HEAD:refs/heads/gh-pages")
    assert branch(bare, "rev-list", "--count", "gh-pages").strip() == "2"
    return bare


def test_the_publisher_reconciles_gh_pages_and_keeps_one_commit(tmp_path, remote):
    import os

    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    gh, s5, s6, s8, s9 = FakeGitHub(), "5" * 40, "6" * 40, "8" * 40, "9" * 40
    gh.main_runs = [run_of(1, "m" * 40)]
    gh.artifacts[(1, "site")] = site(tmp_path / "a/main1", "main v1")
    gh.pulls = [pull(5, s5, "2026-01-05"), pull(6, s6, "2026-01-06"), pull(8, s8, "2026-01-08", "fork/r"),
                pull(9, s9, "2026-01-09", "fork/r")]
    gh.pr_runs = {s5: [run_of(15, s5)], s6: [run_of(16, s6)], s8: [run_of(18, s8, "fork/r")],
                  s9: [run_of(19, s9, "someone-else/r")]}
    gh.artifacts.update({
        (15, "preview"): describe(tmp_path / "a/d15", "5", s5), (15, "site"): site(tmp_path / "a/s15", "pr 5"),
        (16, "preview"): describe(tmp_path / "a/d16", "006", s6), (16, "site"): site(tmp_path / "a/s16", "pr 6"),
        (18, "preview"): describe(tmp_path / "a/d18", "8", s8), (18, "site"): site(tmp_path / "a/s18", "pr 8"),
        (19, "preview"): describe(tmp_path / "a/d19", "9", s9), (19, "site"): site(tmp_path / "a/s19", "pr 9"),
    })
    (tmp_path / "a/s18/secret").symlink_to("/etc/passwd")

    assert pages.reconcile(gh, "o/r", str(remote), env, "https://o.github.io/r/", tmp_path / "w1") == 0
    files = set(branch(remote, "ls-tree", "-r", "--name-only", "gh-pages").split())
    assert {".nojekyll", "index.html", "pr-preview/pr-5/index.html", "pr-preview/previews.json"} <= files
    assert not any(f.startswith(("pr-preview/pr-6", "pr-preview/pr-8", "pr-preview/pr-9", "pr-preview/pr-007"))
                   for f in files)  # "006" is not PR 6; a symlink; a run from another fork; the old leftover
    assert branch(remote, "show", "gh-pages:index.html") == "main v1"
    assert branch(remote, "rev-list", "--count", "gh-pages").strip() == "1"
    comments = dict(gh.comments)  # the refused are told why; PR 9's run is not its own, so not its data
    assert sorted(comments) == [5, 6, 8] and "https://o.github.io/r/pr-preview/pr-5/" in comments[5]
    assert "站点预览未发布" in comments[6] and "is not PR 6" in comments[6] and "not a regular file" in comments[8]

    # Two things happen while no publisher runs (their runs were cancelled while pending): main moves
    # on, PR 5 closes, PR 7 opens. The next run publishes all of it.
    s7 = "7" * 40
    gh.main_runs = [run_of(2, "n" * 40), run_of(1, "m" * 40)]
    gh.artifacts[(2, "site")] = site(tmp_path / "a/main2", "main v2")
    gh.pulls = [pull(7, s7, "2026-01-07")]
    gh.pr_runs[s7] = [run_of(17, s7)]
    gh.artifacts.update({(17, "preview"): describe(tmp_path / "a/d17", "7", s7),
                         (17, "site"): site(tmp_path / "a/s17", "pr 7")})
    gh.comments.clear()
    assert pages.reconcile(gh, "o/r", str(remote), env, "https://o.github.io/r/", tmp_path / "w2") == 0
    files = set(branch(remote, "ls-tree", "-r", "--name-only", "gh-pages").split())
    assert "pr-preview/pr-7/index.html" in files and not any(f.startswith("pr-preview/pr-5/") for f in files)
    assert branch(remote, "show", "gh-pages:index.html") == "main v2"
    assert branch(remote, "rev-list", "--count", "gh-pages").strip() == "1"
    assert sorted(n for n, _ in gh.comments) == [5, 7] and "PR 已关闭" in dict(gh.comments)[5]

    # Artifacts expire: the published main site and previews are kept, never replaced by nothing.
    gh.artifacts.clear()
    gh.main_runs = [run_of(3, "o" * 40)]
    assert pages.reconcile(gh, "o/r", str(remote), env, "https://o.github.io/r/", tmp_path / "w3") == 0
    assert branch(remote, "show", "gh-pages:index.html") == "main v2"
    assert branch(remote, "show", "gh-pages:pr-preview/pr-7/index.html") == "pr 7"


def test_a_push_is_refused_when_gh_pages_moved_since_it_was_read(tmp_path, remote):
    import os

    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    stale = branch(remote, "rev-parse", "gh-pages").strip()
    pages.push(site(tmp_path / "x", "someone else"), str(remote), stale, env, "moved")
    with pytest.raises(RuntimeError, match="push"):
        pages.push(site(tmp_path / "y", "late"), str(remote), stale, env, "late")
    assert branch(remote, "show", "gh-pages:index.html") == "someone else"


def test_no_main_site_means_no_publishing(tmp_path):
    import os

    bare = tmp_path / "empty.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    assert pages.reconcile(FakeGitHub(), "o/r", str(bare), env, "https://o.github.io/r/", tmp_path / "w") == 1
    assert branch(bare, "rev-parse", "gh-pages") is None


# --- one pull request's hostile data costs that pull request its preview, nothing more -------------

@pytest.fixture(autouse=True)
def no_job_summary(monkeypatch):
    """The publisher writes a job summary when GitHub gives it one; these tests' runs must not."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def zipped(files):
    """An artifact's zip as GitHub serves it, written by zipfile: name (a folder ends in /) to bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def raw_zip(*members):
    """A zip written field by field, to tell the lies zipfile would not: (name, data, fields to override)."""
    body, central = b"", b""
    for name, data, lies in members:
        name = name if isinstance(name, bytes) else name.encode()
        f = {"flags": 0, "method": 0, "crc": zlib.crc32(data), "csize": len(data), "size": len(data), **lies}
        fields = (f["flags"], f["method"], 0, 0, f["crc"], f["csize"], f["size"], len(name))
        central += struct.pack("<4s2H4H3L5H2L", b"PK\x01\x02", 20, 20, *fields, 0, 0, 0, 0, 0, len(body)) + name
        body += struct.pack("<4sH4H3L2H", b"PK\x03\x04", 20, *fields, 0) + name + data
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(body), 0)
    return body + central + end


def test_the_hand_written_zip_is_a_zip():
    assert zipfile.ZipFile(io.BytesIO(raw_zip(("index.html", b"pr 6", {})))).read("index.html") == b"pr 6"


def long_path(tmp_path):
    """A name that fits where the run extracts the artifact, but not where it assembles gh-pages."""
    room = 4095 - len(str(tmp_path / "w/pr-6-16/site")) - 1  # PATH_MAX, its NUL excluded
    parents = ["d" * 199] * ((room - 1) // 200)
    return "/".join(parents + ["f" * (room - 200 * len(parents))])


PAGE = b"pr 6 page"
HOSTILE = {  # PR 6's run 16: its artifacts ("preview", "site") or its run, and what its comment names
    "not a zip": (lambda t, s: {"preview": b"<html>not a zip</html>"}, "BadZipFile"),
    "bad CRC": (lambda t, s: {"site": raw_zip(("index.html", PAGE, {"crc": zlib.crc32(PAGE) ^ 1}))}, "BadZipFile"),
    "size shorter than the data": (lambda t, s: {"site": raw_zip(("index.html", PAGE, {"csize": 4, "size": 4}))},
                                   "BadZipFile"),
    "size longer than the data": (lambda t, s: {"site": raw_zip(("index.html", PAGE, {"csize": 900, "size": 900}))},
                                  "Error"),
    "unknown compression method": (lambda t, s: {"site": raw_zip(("index.html", PAGE, {"method": 77}))},
                                   "NotImplementedError"),
    "invalid UTF-8 name": (lambda t, s: {"site": raw_zip(("index.html", PAGE, {}), (b"\xff\xfe.html", b"x",
                                                                                      {"flags": 0x800}))},
                           "UnicodeDecodeError"),
    "preview.json 2000 deep": (lambda t, s: {"preview": "[" * 2000 + "]" * 2000}, "preview.json: not JSON"),
    "its runs cannot be listed": (lambda t, s: {"runs": urllib.error.URLError("timed out")}, "URLError"),
    "a folder git refuses": (lambda t, s: {"site": zipped({"index.html": PAGE, ".git /config": b"x"})}, ".git "),
    "a .gitattributes that fails git add": (lambda t, s: {"site": zipped({
        "index.html": PAGE, "a/.gitattributes": b"* working-tree-encoding=NO-SUCH\n"})}, ".gitattributes"),
    "folders 600 deep": (lambda t, s: {"site": zipped({"index.html": PAGE, "a/" * 600 + "f": b"x"})}, "deep"),
    "a path too long to copy": (lambda t, s: {"site": zipped({"index.html": PAGE, long_path(t): b"x"})}, "long"),
}


def two_pulls(tmp_path):
    """main's site and two open pull requests: PR 5 from this repository (run 15), PR 6 from a fork (run 16)."""
    gh, s5, s6 = FakeGitHub(), "5" * 40, "6" * 40
    gh.main_runs = [run_of(1, "m" * 40)]
    gh.artifacts[(1, "site")] = site(tmp_path / "a/main", "main v1")
    gh.pulls = [pull(5, s5, "2026-01-05"), pull(6, s6, "2026-01-06", "fork/r")]
    gh.pr_runs = {s5: [run_of(15, s5)], s6: [run_of(16, s6, "fork/r")]}
    return gh, s5, s6


@pytest.mark.parametrize("case", HOSTILE)
def test_one_pull_requests_hostile_data_drops_only_its_preview(tmp_path, remote, monkeypatch, case):
    build, named = HOSTILE[case]
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    gh, s5, s6 = two_pulls(tmp_path)
    gh.artifacts.update({(15, "preview"): describe(tmp_path / "a/d15", "5", s5),
                         (15, "site"): zipped({"index.html": b"pr 5", "css/": b"", "css/a.css": b"x"}),
                         (16, "preview"): describe(tmp_path / "a/d16", "6", s6),
                         (16, "site"): zipped({"index.html": PAGE})})
    hostile = build(tmp_path, s6)
    if "runs" in hostile:
        gh.pr_runs[s6] = hostile.pop("runs")
    if isinstance(hostile.get("preview"), str):
        (tmp_path / "a/d16/preview.json").write_text(hostile.pop("preview"))
    gh.artifacts.update({(16, name): data for name, data in hostile.items()})

    assert pages.reconcile(gh, "o/r", str(remote), env, "https://o.github.io/r/", tmp_path / "w") == 0
    files = set(branch(remote, "ls-tree", "-r", "--name-only", "gh-pages").split())
    assert branch(remote, "show", "gh-pages:index.html") == "main v1"
    assert branch(remote, "show", "gh-pages:pr-preview/pr-5/index.html") == "pr 5"
    assert "pr-preview/pr-5/css/a.css" in files
    assert not any(f.startswith("pr-preview/pr-6/") for f in files)
    comments = dict(gh.comments)
    assert sorted(comments) == [5, 6] and "pr-preview/pr-5/" in comments[5]
    assert comments[6].startswith("站点预览未发布") and named in comments[6], comments[6]
    text = summary.read_text(encoding="utf-8")
    assert "PR #6" in text and named in text and "PR #5" not in text, text


def test_json_from_a_pull_request_is_refused_before_it_is_nested_too_deep():
    assert pages.parse_json('{"a": "[[{{\\"]]", "b": [[1]]}', max_nesting=3) == {"a": '[[{{"]]', "b": [[1]]}
    deep = '[[["]]]", [1]]]]'  # 4 deep, its string's ]]] notwithstanding
    for text in ["[" * 4 + "]" * 4, '{"a": [{"b": [1]}]}', "[" * 2000, deep]:
        with pytest.raises(ValueError):
            pages.parse_json(text, max_nesting=3)
    with pytest.raises(ValueError):
        pages.parse_json("[" * 2000 + "]" * 2000)  # the default bound, long before json.loads would recurse


def test_the_file_limit_counts_files_not_folders(tmp_path):
    limit = pages.MAX_FILES
    folders = {"f/": b"", "f/g/": b""}
    full = {"index.html": b"i", **folders, **{f"f/g/{i}": b"" for i in range(limit - 1)}}
    pages.extract(zipped(full), tmp_path / "full")  # exactly the limit, and folders
    assert pages.site_cost(tmp_path / "full") == limit * pages.BLOCK
    with pytest.raises(pages.Unsafe, match="too big"):
        pages.extract(zipped({**full, "f/one-more": b""}), tmp_path / "over")
    (tmp_path / "full/f/one-more").write_bytes(b"")
    with pytest.raises(pages.Unsafe, match=f"more than {limit} files"):
        pages.site_cost(tmp_path / "full")


def test_the_publishers_readme_states_its_bounds():
    readme = (ROOT / ".github/scripts/README.md").read_text(encoding="utf-8")
    assert f"{pages.MAX_FILES:,} files (empty files count too; folders do not" in readme
    assert f"bounded apart, at {pages.MAX_FILES:,})" in readme
    assert f"deeper than {pages.MAX_DEPTH} levels or longer than {pages.MAX_PATH:,} bytes" in " ".join(readme.split())


# --- the report of what readers see changed: hostile data, checked and rendered by the publisher --

def report(**changes):
    """A changes.json as scripts/changes.py --summary writes it, with `changes` over its fields."""
    data = {"format": 1, "base": {"how": "same", "commit": "b" * 40}, "compared": True,
            "counts": {"added": 0, "removed": 0, "edited": 1, "numbers": 12, "untouched": 1, "text": 2, "reran": 1},
            "untouched": ["docs/lessons/10-attention.md"],
            "rows": [{"page": "docs/lessons/10-attention.md", "line": 88, "old": "[0.4011, 0.1978]",
                      "new": "[0.3999, 0.2001]", "expr": "weights[0]", "edited": False}]}
    for key, value in changes.items():
        *parents, last = key.split(".")
        node = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if value is DELETE:
            del node[last]
        else:
            node[int(last) if isinstance(node, list) else last] = value
    return data


DELETE = object()
ROW = report()["rows"][0]
BAD_REPORTS = {
    "not JSON": "{'format': 1}",
    "nested 2000 deep": "[" * 2000 + "]" * 2000,
    "too big": json.dumps(report(**{"rows.0.expr": "x" * 200})) + " " * pages.MAX_REPORT,
    "a list": json.dumps([report()]),
    "format 2": report(format=2),
    "format true": report(format=True),
    "an extra key": report(html="<b>x</b>"),
    "a key missing": report(compared=DELETE),
    "an unknown base": report(**{"base.how": "trust me"}),
    "a commit that is no commit": report(**{"base.commit": "HEAD; rm -rf /"}),
    "a count as text": report(**{"counts.numbers": "12"}),
    "a count as true": report(**{"counts.added": True}),
    "a negative count": report(**{"counts.removed": -1}),
    "a huge count": report(**{"counts.edited": 10**12}),
    "a float line": report(**{"rows.0.line": 88.0}),
    "line 0": report(**{"rows.0.line": 0}),
    "a row with an extra field": report(**{"rows.0.href": "javascript:alert(1)"}),
    "a string too long": report(**{"rows.0.old": "9" * (pages.REPORT_TEXT + 1)}),
    "too many rows": report(rows=[ROW] * (pages.REPORT_ROWS + 1)),
    "a page name that is a number": report(untouched=[7]),
    "edited as text": report(**{"rows.0.edited": "no"}),
}


@pytest.mark.parametrize("case", BAD_REPORTS)
def test_a_report_that_is_not_exactly_the_format_is_refused(tmp_path, case):
    bad = BAD_REPORTS[case]
    (tmp_path / "changes.json").write_text(bad if isinstance(bad, str) else json.dumps(bad), encoding="utf-8")
    with pytest.raises(pages.Unsafe, match=r"changes\.json"):
        pages.read_report(tmp_path / "changes.json")


def test_a_report_that_is_a_symlink_is_refused(tmp_path):
    (tmp_path / "real.json").write_text(json.dumps(report()), encoding="utf-8")
    (tmp_path / "changes.json").symlink_to(tmp_path / "real.json")
    with pytest.raises(pages.Unsafe, match="not a regular file"):
        pages.read_report(tmp_path / "changes.json")


EVIL = ("`` @octocat <img src=x onerror=alert(1)> [a](javascript:alert(1)) | \n# 标题\r\n"
        "\u202eevil\u2066 \x00 \ud800 <!-- ")


def outside_code(markdown: str) -> str:
    return re.sub(r"`` .*? ``", "", markdown)


def test_every_string_of_a_report_reaches_the_comment_as_inline_code_only(tmp_path):
    evil = report(untouched=[EVIL] * 3, rows=[{**ROW, "page": EVIL, "old": EVIL, "new": EVIL, "expr": EVIL}] * 2,
                  **{"counts.untouched": 40, "counts.numbers": 90})
    (tmp_path / "changes.json").write_text(json.dumps(evil), encoding="utf-8")
    text = pages.report_text(pages.read_report(tmp_path / "changes.json"), "https://o.github.io/r/pr-preview/pr-5/_changes/")
    rest = outside_code(text)
    for bad in ("@octocat", "<img", "javascript", "# 标题", "\u202e", "\u2066", "\x00", "\ud800", "<!--", "\r"):
        assert bad not in rest, bad
    assert all(c not in text for c in "\u202e\u2066\x00\ud800\r")  # not even inside code
    table = [line for line in text.split("\n") if line.startswith("| `` ")]
    assert len(table) == 2 and all(line.count(" | ") == 4 for line in table)  # bars defused: 5 cells a row
    assert "等 40 页" in text and "还有 88 个，见完整报告" in text
    assert "（[完整报告](https://o.github.io/r/pr-preview/pr-5/_changes/)）" in text
    assert "`` ˋˋ @octocat <img src=x onerror=alert(1)> [a](javascript:alert(1)) ¦" in text  # shown, defused


@pytest.mark.parametrize("based, expected", [
    ({"base.how": "same"}, "和本 PR 的基准提交 `bbbbbbbbbbbb` 上 `main` 的构建比较"),
    ({"base.how": "published", "base.commit": ""}, "和网站上发布的 `main`比较，不是本 PR 的基准提交"),
    ({"compared": False, "base.how": "none", "base.commit": ""}, "没有比较（找不到能用的 `main` 清单）"),
])
def test_the_comment_says_what_the_report_compared_with(based, expected):
    assert expected in pages.report_text(report(**based), "")


def test_the_publisher_comments_the_report_and_keeps_a_preview_whose_report_is_hostile(tmp_path, remote):
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1"}
    gh, s5, s6 = two_pulls(tmp_path)
    d15, d16 = describe(tmp_path / "a/d15", "5", s5), describe(tmp_path / "a/d16", "6", s6)
    (d15 / "changes.json").write_text(json.dumps(report()), encoding="utf-8")
    (d16 / "changes.json").write_text(json.dumps(report(**{"rows.0.line": "88`<script>`"})), encoding="utf-8")
    gh.artifacts.update({(15, "preview"): d15, (16, "preview"): d16,
                         (15, "site"): site(tmp_path / "a/s15", "pr 5", {"_changes/index.html": b"full"}),
                         (16, "site"): site(tmp_path / "a/s16", "pr 6")})

    assert pages.reconcile(gh, "o/r", str(remote), env, "https://o.github.io/r/", tmp_path / "w") == 0
    files = set(branch(remote, "ls-tree", "-r", "--name-only", "gh-pages").split())
    assert {"pr-preview/pr-5/_changes/index.html", "pr-preview/pr-6/index.html"} <= files
    comments = dict(gh.comments)
    assert "（[完整报告](https://o.github.io/r/pr-preview/pr-5/_changes/)）" in comments[5]
    assert "| `` docs/lessons/10-attention.md ``（未改动） | 88 | `` [0.4011, 0.1978] `` |" in comments[5]
    assert comments[6].startswith("**站点预览**：https://o.github.io/r/pr-preview/pr-6/")  # published all the same
    assert "这次构建的报告不能用（`changes.json: rows[0].line is not a whole number" in comments[6]
    assert "<script>" not in comments[6] and "完整报告" not in comments[6]


def test_ci_runs_each_stale_lesson_in_a_job_of_its_own_and_the_site_merges_their_records():
    """plan → lesson (a matrix of the kit's plan) → site (merge, build, save): the steps are the kit's
    commands, the matrix reads only what a plan's job holds, and the cache is read by prefix (this
    ref's newest, else main's) and written under the run's own key."""
    from coursekit.core import spread
    from coursekit.core.engine import TWICE

    jobs = load(ROOT / ".github/workflows/ci.yml")["jobs"]
    plan, lesson, site = jobs["plan"], jobs["lesson"], jobs["site"]
    run = lambda job: "\n".join(s.get("run", "") for s in job["steps"])  # noqa: E731
    uses = lambda job, action: [s for s in job["steps"] if s.get("uses", "").startswith(action + "@")]  # noqa: E731
    assert "python -m coursekit plan" in run(plan)
    (restore,) = uses(plan, "actions/cache/restore")
    key = restore["with"]["key"]
    assert restore["with"]["path"] == ".cache/coursekit" and key.startswith(restore["with"]["restore-keys"])
    assert "github.run_id" in key and "github.run_attempt" in key  # one entry a run: a cache entry is never overwritten
    assert lesson["needs"] == "plan" and lesson["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.matrix) }}"
    read = set(re.findall(r"matrix\.(\w+)", json.dumps(lesson)))
    assert read <= set(spread.Job("l0", spread.RUNS_ON, 1, 1.0).matrix()), read
    assert 'python -m coursekit run-lessons --into "runs/$LESSON"' in run(lesson)
    assert [s["with"]["name"] for s in uses(lesson, "actions/upload-artifact")] == ["runs-${{ matrix.lesson }}"]
    assert site["needs"] == ["plan", "lesson"] and "python -m coursekit merge-runs runs/*/" in run(site)
    names = [s.get("name", s.get("uses", "")) for s in site["steps"]]
    merge = next(i for i, s in enumerate(site["steps"]) if "merge-runs" in s.get("run", ""))
    build = next(i for i, s in enumerate(site["steps"]) if "mkdocs build" in s.get("run", ""))
    (save,) = uses(site, "actions/cache/save")
    assert merge < build < site["steps"].index(save), names
    assert save["with"] == {"path": ".cache/coursekit", "key": key}
    (site_restore,) = uses(site, "actions/cache/restore")
    assert site_restore["with"]["key"] == "${{ needs.plan.outputs.cache-key }}"  # the entry the plan read
    assert "pipefail" in site["steps"][build]["run"]  # the build's status survives its tee
    twice = lambda job: [s for s in job["steps"] if s.get("env", {}).get(TWICE) == "1"]  # noqa: E731
    assert len(twice(plan)) == len(twice(lesson)) == len(twice(site)) == 1  # repeated runs serve the tests too
    assert twice(site) == [site["steps"][build]]  # the build, which runs what the plan left to it
    (tests_restore,) = uses(jobs["test"], "actions/cache/restore")
    assert tests_restore["with"] == restore["with"] and not uses(jobs["test"], "actions/cache/save")


def test_a_fork_s_code_never_reaches_a_self_hosted_runner():
    step = next(s for s in load(ROOT / ".github/workflows/ci.yml")["jobs"]["plan"]["steps"]
                if "coursekit plan" in s.get("run", ""))
    assert "head.repo.full_name != github.repository" in step["env"]["FROM_FORK"]
    assert step["run"].index('RUNNERS=""') < step["run"].index("coursekit plan --attached \"$RUNNERS\"")
