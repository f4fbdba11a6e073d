"""mask_by_hand：第 10 讲的构造例子，加上因果掩码，一行一行重算。"""

from lessons.show import PLACES  # 页面上展示的分数、读取比例保留几位小数；正文说明里的位数绑定到它

# --8<-- [start:listing]
import torch

from lessons.l10.attention_2d import k, output, q, scores, v, weights  # 第 10 讲算过的量，不加掩码
from lessons.show import num, vec
from tinylm import attention_steps, causal_mask, masked_attention

mask = causal_mask(3)  # 第 i 行：位置 i 可以读哪些位置
masked = masked_attention(q, k, v, mask)
print("可以读吗（行：查询位置，列：被读位置）：")
print(mask)
print("加上掩码的分数：")
print(masked.scores)
print("读取比例：")
print(masked.weights)
print("输出：")
print(masked.output)
# 被挡住的格子分不到比例；每行的比例仍然归一化。
assert (masked.weights[~mask] == 0).all()
assert torch.allclose(masked.weights.sum(dim=-1), torch.ones(3))
# 最后一行本来就可以读全部位置，与第 10 讲一模一样。
assert torch.equal(masked.weights[2], weights[2]) and torch.equal(masked.output[2], output[2])
# --8<-- [end:listing]

# --8<-- [start:steps]
masked_stages = attention_steps(q, k, v, mask)  # 逐步摊开：被挡住的格子不进行和
print("第 1 行的指数：", vec(masked_stages.exps[1]), " 行和", num(masked_stages.sums[1]))
# --8<-- [end:steps]

# --8<-- [start:zero]
# 换别的“挡住”办法比一比。
zero_scores = scores.masked_fill(~mask, 0.)  # 被挡的分数不换成 −∞，只是清零：它的指数不会消失，照样分到比例
zero_score_weights = torch.softmax(zero_scores, dim=-1)
cut_weights = weights * mask  # Softmax 之后再把被挡的比例清零：有格子被挡的行不再归一化
print(f"被挡的分数改成 {num(zero_scores[0, 1])}，第 0 行的比例：", vec(zero_score_weights[0]))
print("算完比例再清零，各行之和：", vec(cut_weights.sum(dim=-1)))
assert zero_score_weights[0, 1] > 0 and not torch.allclose(cut_weights.sum(dim=-1), torch.ones(3))
# --8<-- [end:zero]

# --8<-- [start:intervention]
# 第 10 讲的干预：固定 Q/K，只改第三行 V 的第 0 个坐标。
changed_v = v.clone()
changed_v[2, 0] = 3.
masked_change = masked_attention(q, k, changed_v, mask).output - masked.output
print(masked_change)
# 位置 0、1 读不到位置 2，它们的输出一点不变；只有位置 2 自己变了。
assert (masked_change[:2] == 0).all() and masked_change[2, 0] > 0
# --8<-- [end:intervention]
