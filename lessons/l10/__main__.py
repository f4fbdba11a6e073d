"""运行入口：python -m lessons.l10 依次运行本讲的实验，打印页面上的同一批结果。

每个实验里的 assert 都是一次核对；任何一处不成立，就以非零状态退出。
"""

from lessons.l10 import EXPERIMENTS
from lessons.runner import run

if __name__ == "__main__":
    run("lessons.l10", EXPERIMENTS)
