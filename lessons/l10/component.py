"""component：同一个构造例子，改用 tinylm 的 SelfAttention 组件和 attention（点积、缩放、Softmax、汇总各写一行）重算一遍。

Q/K/V 由组件用上一段的 Wq、Wk、Wv（Wq = Wk = 单位矩阵，Wv 放大第二坐标）投影得到，结果与上一段的手写版逐项一致；
attention_steps 给出点积、缩放、Softmax（指数与行和）、汇总每一步的数，页面的手算与演示都用它们。
"""
from lessons.l10.attention_2d import k, output, q, scores, v, weights, wk, wq, wv, x  # 上一段清单里的量

# --8<-- [start:listing]
import torch

from lessons.show import num, vec
from tinylm import SelfAttention, attention, attention_steps

# 用上一段的同一组参数 Wq、Wk、Wv 建组件（本例 Wq = Wk = 单位矩阵）。
layer = SelfAttention.from_weights(wq, wk, wv)
layer_q, layer_k, layer_v = layer.project(x)  # Q=X @ Wqᵀ，K=X @ Wkᵀ，V=X @ Wvᵀ
assert torch.equal(layer_q, q) and torch.equal(layer_k, k) and torch.equal(layer_v, v)

layer_result = layer(x)  # 结果有名字：.output、.scores、.weights，也可以按这个顺序拆开
assert torch.allclose(layer_result.output, output) and torch.allclose(layer_result.weights, weights)
assert torch.allclose(attention(q, k, v).scores, scores)

stages = attention_steps(layer_q.detach(), layer_k.detach(), layer_v.detach())
d = layer_k.shape[-1]  # 键的维数：缩放除以 √d
print("位置 0 的一行，逐步：")
print("  点积 q₀·k   ", vec(stages.dots[0]))
print(f"  缩放 ÷√{d}    ", vec(stages.scores[0]))
print("  指数 exp    ", vec(stages.exps[0]), " 行和", num(stages.sums[0]))
print("  读取比例 a₀ ", vec(stages.weights[0]))
print("  汇总 a₀ @ V ", vec(stages.output[0]))
# --8<-- [end:listing]
