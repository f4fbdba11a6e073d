"""本讲的改数题：答案由代码现算，页面折叠块里打印的就是这里的输出。"""

import torch

from lessons.l10.attention_2d import k, q, v
from lessons.l11.mask_by_hand import mask, masked

print("以下是本讲改数题的答案。想先自己算，请在这里停下。")

# --8<-- [start:first]
from lessons.show import num, vec
from tinylm import masked_attention

# 第 1 题：加上掩码，只把 q₂ 清零，K、V 保持原样。每一行的读取比例是什么？
zero_q2 = q.clone()
zero_q2[2] = torch.tensor([0., 0.])
first = masked_attention(zero_q2, k, v, mask)
for row in range(3):
    print(f"第 {row} 行比例：", vec(first.weights[row]))
# 前面的行没有用到 q₂，照旧；q₂ 清零后与每个键的点积都一样，第 2 行可读的位置平分比例。
assert torch.equal(first.weights[:2], masked.weights[:2])
assert torch.allclose(first.weights[2], torch.full((3,), 1 / 3))
# --8<-- [end:first]

# --8<-- [start:second]
# 第 2 题：加上掩码，位置 0 的输出与 q₀、K 有关吗？随便换几个 q₀ 试试。
gen = torch.Generator().manual_seed(11)
outputs = []
for _ in range(3):
    tried_q = q.clone()
    tried_q[0] = torch.randn(2, generator=gen) * 3
    outputs.append(masked_attention(tried_q, k, v, mask).output[0])
    print("q₀ =", vec(tried_q[0]), "→ 位置 0 的输出", vec(outputs[-1]))
# 第 0 行只剩自己一格可读，比例全给了自己：输出就是 v₀，与 q₀ 无关。
assert all(torch.allclose(o, v[0]) for o in outputs)
# --8<-- [end:second]

# 本讲的改数题，按题号：每道题由代码现算的答案（第 1 题的读取比例，第 2 题换过的各个 q₀ 下位置 0 的输出）。
answers = [first.weights, outputs]
