#!/usr/bin/env bash
# 运行全部测试。先装齐测试需要的一切（Python 包、Debian 的 chromium 和中文字体），再跑 pytest；
# pytest 里包括一次完整的 mkdocs build --strict。额外参数原样传给 pytest，例如 -k drift。
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -r requirements.txt -r requirements-test.txt

missing=()
# The browser tests drive Debian's Chromium; $CHROMIUM names another Chromium-based browser instead.
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
fc-list :lang=zh 2>/dev/null | grep -q . || missing+=(fonts-wqy-microhei)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

export NO_MKDOCS_2_WARNING=1
# 构建里的日期（站点地图的 lastmod 等）取自当前提交：同一提交的两次构建逐字节相同。
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || true)}"
[ -n "$SOURCE_DATE_EPOCH" ] && export SOURCE_DATE_EPOCH || unset SOURCE_DATE_EPOCH
# 先做代码检查（规则见 pyproject.toml 的 [tool.ruff.lint]），有问题就停下并指出文件和行。
python -m ruff check --no-cache .
exec python -m pytest "$@"
