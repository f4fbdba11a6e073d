"""`mkdocs serve` keeps serving a drifted page, and shows the author where the drift is."""

import os
import subprocess
import sys
import time
import urllib.request

from tests.browser import free_port
from tests.conftest import LESSON
from tests.test_drift_guard import edit


def fetch(url: str, seconds: float = 90) -> str:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return r.read().decode("utf-8")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def test_serve_prints_the_drift_and_marks_it_on_the_served_page(repo_copy):
    line = edit(repo_copy, LESSON, "分母是它们的和 5.0562", "分母是它们的和 5.0526")
    port = free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"],
        cwd=repo_copy, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        html = fetch(f"http://127.0.0.1:{port}/lessons/10-attention/")
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    message = f"{LESSON}:{line}: 数字漂移：正文写 5.0526，代码现算 5.05623"
    assert message in log
    assert 'class="admonition danger drift-report"' in html and message in html
    assert '<mark class="drift">' in html and "5.0526" in html.split('<mark class="drift">')[1].split("</mark>")[0]
