"""Write constraints.txt from a pip installation report: every package, direct or not, at one version.

    python -m pip install --dry-run --ignore-installed --quiet --report /tmp/lock.json \
        -r requirements.txt -r requirements-test.txt
    python .github/scripts/lock.py /tmp/lock.json > constraints.txt

requirements*.txt read constraints.txt themselves (`-c constraints.txt`), so a regeneration keeps
every version unless its line was deleted or its pin in requirements*.txt changed first.
"""

from __future__ import annotations

import json
import re
import sys

HEADER = """\
# 锁定文件：网站、课程代码与测试装的每一个 Python 包（含间接依赖）的确切版本。
# requirements.txt 与 requirements-test.txt 用 -c 引用它；scripts/setup.sh（README 的两条命令和 CI
# 都用它）经由它们安装，所以两次构建装的是同一批包。在 Linux x86-64 的 CPython 3.11 上解析；
# torch 写 2.13.0，CPU 版（2.13.0+cpu）也满足它。要升级某个包：改 requirements*.txt 里它的版本
# （间接依赖就删掉它这一行），再按 .github/scripts/lock.py 开头的两条命令重新生成本文件。
"""


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock(report: dict) -> str:
    pins = {}
    for item in report["install"]:
        meta = item["metadata"]
        pins[canonical(meta["name"])] = meta["version"].split("+")[0]  # 2.13.0+cpu → 2.13.0
    return HEADER + "".join(f"{name}=={version}\n" for name, version in sorted(pins.items()))


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        sys.stdout.write(lock(json.load(f)))
