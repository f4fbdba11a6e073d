"""example：模板里的示例实验。换成本讲自己的实验，并在 __init__.py 的 EXPERIMENTS 里登记。"""

# --8<-- [start:listing]
# 页面展示的是这一对标记之间的代码；构建时整个文件运行一次，页面取这一段打印的内容。
# 读者复制这一段就能单独运行，所以它用到的 import 也写在段里。
import torch

numbers = torch.tensor([1., 2., 4.])
mean = numbers.mean()
print(mean)
assert torch.isclose(mean, torch.tensor(7 / 3))  # assert 就是核对：不成立时页面构建失败
# --8<-- [end:listing]
