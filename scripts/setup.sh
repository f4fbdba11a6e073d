#!/usr/bin/env bash
# 准备好一切，scripts/serve.sh 与 scripts/test.sh 都先运行它（第一次几分钟，之后几秒）：
#   bash scripts/setup.sh          虚拟环境 .venv、CPU 版 torch、requirements.txt 里锁定的包、中文字体
#   bash scripts/setup.sh --test   再加上 requirements-test.txt 和浏览器测试用的 Debian chromium
# - .venv 没有就用 python3.11（或 python3，须是 3.11）新建；Debian 缺 venv 模块时装 python3-venv。
# - torch 先从本机磁盘装（pip 配置的 find-links，不上网）；没有，再用 CI 那一步的命令从 CPU 版下载地址装
#   （约 200 MB；普通的 pip install torch 装到的是好几 GB 的 CUDA 版）。版本取自 constraints.txt，
#   命令和地址取自 .github/workflows/ci.yml（只写在那里一处）。torch 的依赖随后由 requirements.txt 按锁定版本装。
# - .venv/.setup-stamp 记下装好时 constraints.txt、requirements*.txt、pyproject.toml 的 sha256：
#   都没变就不再运行 pip；任何一个变了就重新装。
# - 系统包用 apt-get 装（root，或 sudo -n 可用时）：中文字体 fonts-wqy-microhei（预览与截图里中文不成方框），
#   --test 时还有 chromium（设了 $CHROMIUM 就用那个 Chromium 系浏览器，CI 用 GitHub 机器上的 Chrome）。
#   装不了时说明缺什么：--test 时失败（浏览器测试需要它们），否则只提醒缺字体。
# --print-torch-command 只打印从 CPU 版下载地址装 torch 的命令（即 CI 的那一步），不执行。
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "scripts/setup.sh: $*" >&2; exit 1; }

mode=base
case "${1:-}" in
  "") ;;
  --test) mode=test ;;
  --print-torch-command) ;;
  *) echo "用法：bash scripts/setup.sh [--test]" >&2; exit 2 ;;
esac

# CI 的那一步：python -m pip install --no-deps -c constraints.txt torch==版本 --index-url CPU 版地址
torch_version=$(sed -n 's/^torch==\([^ ]*\)$/\1/p' constraints.txt)
torch_cpu=$(sed -n 's/^ *run: \(python -m pip install --no-deps -c constraints.txt torch==[^ ]* --index-url [^ ]*\/cpu\)$/\1/p' \
  .github/workflows/ci.yml | head -n 1)
[ -n "$torch_version" ] && [ -n "$torch_cpu" ] || fail "constraints.txt 或 .github/workflows/ci.yml 里找不到 torch 的版本或装 CPU 版的那一步"
[ "${torch_cpu#*torch==$torch_version }" != "$torch_cpu" ] || fail "ci.yml 装的 torch 与 constraints.txt 的 torch==$torch_version 不是同一版本"
if [ "${1:-}" = "--print-torch-command" ]; then
  echo "$torch_cpu"
  exit 0
fi

# --- 系统包：apt-get，root 直接运行，否则 sudo -n（不问密码）-----------------------------------------
apt_updated=""
apt_install() {  # 装得上返回 0；没有 apt-get、不是 root 又不能 sudo -n、或安装失败，返回 1
  local sudo=()
  command -v apt-get >/dev/null || return 1
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null || return 1
    sudo=(sudo -n)
  fi
  echo "用 apt-get 安装 $*"
  if [ -z "$apt_updated" ]; then
    "${sudo[@]}" apt-get update -q || return 1
    apt_updated=1
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

# --- 虚拟环境 ------------------------------------------------------------------------------------
if [ ! -x .venv/bin/python ]; then
  python=$(command -v python3.11 || command -v python3 || true)
  [ -n "$python" ] || fail "找不到 python3：需要 Python 3.11（Debian：sudo apt-get install python3 python3-venv）"
  version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  [ "$version" = 3.11 ] || fail "需要 Python 3.11（锁定的版本是在 3.11 上解析的），$python 是 $version"
  if ! "$python" -c 'import ensurepip, venv' 2>/dev/null; then
    apt_install python3-venv >&2 || true
    "$python" -c 'import ensurepip, venv' 2>/dev/null \
      || fail "$python 缺少 venv 模块，建不了虚拟环境：请先运行 sudo apt-get install python3-venv"
  fi
  echo "新建虚拟环境 .venv（$python，Python $version）"
  "$python" -m venv .venv || { rm -rf .venv; fail "新建虚拟环境 .venv 失败"; }
fi
py=.venv/bin/python

# --- Python 包：锁定文件没变就跳过 pip ---------------------------------------------------------------
stamp=.venv/.setup-stamp
digest=$(sha256sum constraints.txt requirements*.txt pyproject.toml | sha256sum | cut -d' ' -f1)
if grep -qx "$digest test" "$stamp" 2>/dev/null || grep -qx "$digest $mode" "$stamp" 2>/dev/null; then
  :  # 已按这些文件装好
else
  rm -f "$stamp"
  if ! $py -m pip install --quiet --no-index --no-deps -c constraints.txt "torch==$torch_version" 2>/dev/null; then
    echo "本机磁盘上没有 torch $torch_version 的 wheel：按 CI 的做法从 CPU 版下载地址安装（约 200 MB）"
    read -ra command <<<"$torch_cpu"
    "$py" "${command[@]:1}" || fail "CPU 版 torch $torch_version 安装失败"
  fi
  reqs=(-r requirements.txt)
  [ "$mode" = test ] && reqs+=(-r requirements-test.txt)
  echo "安装 ${reqs[*]} 里锁定的包（第一次要几分钟）"
  $py -m pip install --quiet "${reqs[@]}" || fail "pip install ${reqs[*]} 失败"
  echo "$digest $mode" >"$stamp"
fi

# --- 中文字体与浏览器 -------------------------------------------------------------------------------
has_font() { fc-list :lang=zh 2>/dev/null | grep -q .; }
has_browser() {
  if [ -n "${CHROMIUM:-}" ]; then [ -x "$CHROMIUM" ]; else [ -x /usr/bin/chromium ]; fi
}
missing=()
has_font || missing+=(fonts-wqy-microhei)
if [ "$mode" = test ] && ! has_browser; then
  [ -n "${CHROMIUM:-}" ] && fail "CHROMIUM=$CHROMIUM 不是可执行的浏览器（不设它就用 Debian 的 chromium）"
  missing+=(chromium)
fi
if [ ${#missing[@]} -gt 0 ]; then
  apt_install "${missing[@]}" || true
  still=()
  has_font || still+=(fonts-wqy-microhei)
  [ "$mode" = test ] && ! has_browser && still+=(chromium)
  if [ ${#still[@]} -gt 0 ]; then
    if [ "$mode" = test ]; then
      fail "缺少 ${still[*]}，浏览器测试要用，这里装不了（需要 root 或免密码的 sudo）：请先运行 sudo apt-get install ${still[*]}"
    fi
    echo "scripts/setup.sh: 提醒：没有中文字体，预览里的中文可能显示成方框；可以运行 sudo apt-get install fonts-wqy-microhei" >&2
  fi
fi
