"""开头的基线：直接平均，和手工规定的比例。页面正文开头的平均值与加权汇总由这里算出。"""

import torch

from lessons.show import PLACES, fracs, vec  # PLACES：正文展示值保留的小数位数

# --8<-- [start:listing]
# 每行是一个位置带来的向量，每列是一个坐标。
vectors = torch.tensor([[1., 0.], [0., 2.], [1., 2.]])
# 直接平均：无论哪个位置发起读取，拿到的都是同一个结果。
average = vectors.mean(dim=0)
# 手工规定的比例，逐坐标加权汇总。
ratios = torch.tensor([0.5, 0.25, 0.25])
manual_summary = ratios @ vectors
print("直接平均：", vec(average), "（即", fracs(average) + "）")
print("按比例", vec(ratios), "汇总：", vec(manual_summary))
assert torch.allclose(average, torch.tensor([2 / 3, 4 / 3]))
assert torch.equal(manual_summary, torch.tensor([0.75, 1.]))
# --8<-- [end:listing]
