"""The GitHub workflows and templates, checked offline: pinned, least privilege, fork-safe."""

import re
import shutil
import subprocess

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


def test_there_are_ci_and_preview_workflows_and_they_parse():
    names = {p.name: load(p) for p in WORKFLOWS}
    assert {"ci.yml", "preview.yml"} <= names.keys()
    assert set(names["ci.yml"]["on"]) == {"push", "pull_request"}
    assert set(names["preview.yml"]["on"]) == {"workflow_run"}


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


def test_jobs_a_pull_request_runs_cannot_write():
    ci = load(ROOT / ".github/workflows/ci.yml")
    for job_id, job in ci["jobs"].items():
        writes = {k for k, v in job["permissions"].items() if v == "write"} if job["permissions"] else set()
        if writes:
            assert "github.event_name == 'push'" in job["if"] and "refs/heads/main" in job["if"], job_id


def test_the_privileged_workflow_runs_nothing_from_the_pull_request():
    preview = load(ROOT / ".github/workflows/preview.yml")
    job = preview["jobs"]["preview"]
    assert "workflow_run.event == 'pull_request'" in job["if"] and "conclusion == 'success'" in job["if"]
    uses = [s.get("uses", "") for _, s in steps(preview)]
    assert not any(u.startswith("actions/checkout@") for u in uses)  # no code of the PR is even fetched
    scripts = "\n".join(s.get("run", "") for _, s in steps(preview))
    assert "^[0-9]{1,7}$" in scripts and "RUN_HEAD_SHA" in scripts and "! -type f ! -type d" in scripts
    assert not re.search(r"(bash|sh|python|source|\.)\s+untrusted/", scripts)


def test_the_main_deploy_keeps_the_previews():
    ci = load(ROOT / ".github/workflows/ci.yml")
    deploy = [s for _, s in steps(ci) if "github-pages-deploy-action" in s.get("uses", "")]
    assert deploy and all(s["with"].get("clean-exclude") == "pr-preview/" for s in deploy)


def test_zizmor_reports_nothing_unsuppressed():
    zizmor = shutil.which("zizmor")
    assert zizmor, "zizmor is in requirements-test.txt"
    result = subprocess.run([zizmor, "--offline", "--persona", "auditor", str(ROOT / ".github/workflows")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    for line in (ROOT / ".github/workflows/preview.yml").read_text(encoding="utf-8").splitlines():
        if "zizmor: ignore" in line:
            assert re.search(r"zizmor: ignore\[[\w-]+\] \S.{20,}", line), line  # with a written reason


def test_issue_and_pull_request_templates():
    forms = {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (ROOT / ".github/ISSUE_TEMPLATE").glob("*.yml")}
    lesson = {f.get("id") for f in forms["lesson-error.yml"]["body"]}
    assert {"lesson", "section", "problem", "commit"} <= lesson
    assert forms["new-lesson.yml"]["body"]
    checklist = (ROOT / ".github/PULL_REQUEST_TEMPLATE.md").read_text(encoding="utf-8")
    assert checklist.count("- [ ]") >= 5 and "scripts/test.sh" in checklist


@pytest.mark.browser
def test_the_site_works_under_a_preview_subpath(browser, tmp_path):
    from tests.browser import free_port, serve

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
