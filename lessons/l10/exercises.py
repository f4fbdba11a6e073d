"""改数题：答案由代码现算，页面折叠块里打印的就是这里的输出。"""

import torch

from lessons.l10.attention_2d import k, output, q, v, weights
from lessons.l10.intervention import changed_output, changed_v, changed_weights
from lessons.show import num, vec
from tinylm import attention

print("以下是改数题的答案。想先自己算，请在这里停下。")

# --8<-- [start:first]
# 第 1 题：沿用上面的干预（改过第三行 V 的第 0 坐标），看位置 1 的第 0 坐标。
increase = (changed_output - output)[1, 0]
step = (changed_v - v)[2, 0]  # 第三行 V 的第 0 坐标改了多少
print(f"位置 1 的第 0 坐标增加 {num(increase)}，即 {num(step)}×{num(weights[1, 2])}")
print("注意力权重改变了吗？", not torch.allclose(changed_weights, weights))
assert torch.isclose(increase, step * weights[1, 2])
# --8<-- [end:first]

# --8<-- [start:second]
# 第 2 题：只把 q₀ 改成全零，K、V 保持原样。
zero_q = q.detach().clone()
zero_q[0] = torch.tensor([0., 0.])
zero_output, zero_scores, zero_weights = attention(zero_q, k, v)
print("第一行分数：", vec(zero_scores[0]))
print("第一行比例：", vec(zero_weights[0]))
print("第一行输出：", vec(zero_output[0]))
# 这一行的分数全都相同，Softmax 平分比例，输出就是 V 各行的直接平均。
assert torch.allclose(zero_output[0], v.mean(dim=0))
# --8<-- [end:second]
