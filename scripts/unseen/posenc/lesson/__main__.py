"""运行入口：python -m lessons.lNN 依次运行本讲的实验；任何一处核对不成立，就以非零状态退出。"""

from coursekit.core.runner import main

if __name__ == "__main__":
    main("lessons.lNN")
