"""课程各讲的配套代码。每一讲一个子包，从仓库根目录运行，例如 python -m lessons.l10。"""

import torch

from lessons.show import PLACES

# 固定打印格式：小数位数与正文一致（show.PLACES）、不用科学计数法。页面、命令行与测试看到的输出因此一字不差。
torch.set_printoptions(precision=PLACES, sci_mode=False, linewidth=80)
