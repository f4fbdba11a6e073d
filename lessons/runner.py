"""各讲运行入口共用的小工具：按顺序导入（也就是运行）一讲的实验，任何核对失败都以非零状态退出。"""

import importlib
import sys


def run(package, experiments):
    for name, title in experiments:
        print(f"== {name}：{title} ==")
        try:
            importlib.import_module(f"{package}.{name}")
        except AssertionError:
            # 实验里的 assert 就是核对；指出是哪个文件没通过。
            print(f"核对失败：{package.replace('.', '/')}/{name}.py", file=sys.stderr)
            sys.exit(1)
    print("全部核对通过。")
