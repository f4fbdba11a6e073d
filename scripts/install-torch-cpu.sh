#!/usr/bin/env bash
# 装 CPU 版 torch（约 200 MB；普通机器上默认装到的是好几 GB 的 CUDA 版），做法与 CI 的
# “Install CPU-only PyTorch” 一步相同：只装 torch 本身，它的依赖随后由 requirements.txt 按锁定版本装。
# 版本取自 constraints.txt，下载地址取自 .github/workflows/ci.yml（只写在那里一处）。
# --print 只打印命令，不执行。
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^torch==\([^ ]*\)$/\1/p' constraints.txt)
index=$(grep -m1 -o -- '--index-url [^ ]*/cpu' .github/workflows/ci.yml | cut -d' ' -f2)
[ -n "$version" ] && [ -n "$index" ] || { echo "constraints.txt 或 ci.yml 里找不到 torch 的版本或 CPU 版下载地址" >&2; exit 1; }
command=(python -m pip install --no-deps -c constraints.txt "torch==$version" --index-url "$index")
if [ "${1:-}" = "--print" ]; then
  echo "${command[*]}"
else
  "${command[@]}"
fi
