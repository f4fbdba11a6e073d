#!/usr/bin/env bash
# 在本地预览网站：先由 scripts/setup.sh 装齐一切（装好了只要几秒），再运行 mkdocs serve，
# 打开 http://127.0.0.1:8000/ 。参数原样传给 mkdocs serve，例如 -a 127.0.0.1:8765。
# 改了 docs/、tinylm/、lessons/、snippets/ 或 overrides/ 会自动重建；改了 coursekit/ 要重新启动。
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH" NO_MKDOCS_2_WARNING=1
exec .venv/bin/mkdocs serve "$@"
