"""运行入口：python -m lessons.l10 依次运行本讲的实验，打印页面上的同一批结果。

每个实验里的 assert 都是一次核对；任何一处不成立，就以非零状态退出。
"""

import importlib
import sys

EXPERIMENTS = [
    ("attention_2d", "三个位置、二维的构造例子：分数、比例、输出"),
    ("projections", "Q 与 K 分开投影：分数可以不对称"),
    ("intervention", "固定 Q/K，只改第三行 V"),
    ("exercises", "两道改数题"),
]


def main():
    for name, title in EXPERIMENTS:
        print(f"== {name}：{title} ==")
        try:
            importlib.import_module(f"lessons.l10.{name}")
        except AssertionError:
            print(f"核对失败：lessons/l10/{name}.py", file=sys.stderr)
            raise
    print("全部核对通过。")


if __name__ == "__main__":
    try:
        main()
    except AssertionError:
        sys.exit(1)
