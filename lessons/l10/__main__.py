"""运行入口：python -m lessons.l10 依次运行本讲的实验，打印页面上的同一批结果。

每个实验里的 assert 都是一次核对；任何一处不成立，就以非零状态退出。
"""

from coursekit.core.runner import main

if __name__ == "__main__":
    main("lessons.l10")
