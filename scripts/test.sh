#!/usr/bin/env bash
# 运行全部测试。先由 scripts/setup.sh --test 装齐一切，再做代码检查（规则见 pyproject.toml），
# 然后运行 pytest。测试分四层（tests/conftest.py 说明各层）：
#   bash scripts/test.sh                全部四层
#   bash scripts/test.sh --fast         只跑快的一层（进程内，约半分钟）：写作时常跑它
#   bash scripts/test.sh --layer build  只跑一层：fast、engine、build 或 browser（CI 并行各跑一层）
# 其余参数原样传给 pytest，例如 -k drift。
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh --test
export PATH="$PWD/.venv/bin:$PATH" NO_MKDOCS_2_WARNING=1
# 构建里的日期（站点地图的 lastmod 等）取自当前提交：同一提交的两次构建逐字节相同。
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || true)}"
[ -n "$SOURCE_DATE_EPOCH" ] && export SOURCE_DATE_EPOCH || unset SOURCE_DATE_EPOCH

declare -A LAYERS=(
  [fast]="not engine and not build and not browser"
  [engine]="engine" [build]="build" [browser]="browser"
)
select=() dist=loadfile
case "${1:-}" in
  --fast) select=(-m "${LAYERS[fast]}") dist=load; shift ;;  # nothing shared to keep together
  --layer)
    [ -n "${LAYERS[${2:-}]+x}" ] || { echo "scripts/test.sh: --layer 只能是 fast、engine、build 或 browser，不是「${2:-}」" >&2; exit 2; }
    select=(-m "${LAYERS[$2]}"); shift 2 ;;
esac

python -m ruff check --no-cache .
# 每个核一个进程并行（pytest-xdist）；同一个文件的测试在同一个进程里，共用它的构建、服务和浏览器。
# TEST_WORKERS=0 在本进程里跑（调试时用）。
exec python -m pytest -n "${TEST_WORKERS:-auto}" --dist "$dist" "${select[@]}" "$@"
