"""掩码：每个位置只读自己和前文。缩放之后、Softmax 之前，把不许读的分数换成负无穷。

第 11 讲加入。第 10 讲的 attention 一行不改；masked_attention 是同样的点积、缩放、Softmax、汇总，
只在缩放和 Softmax 之间多出一行掩码（标着“第 11 讲新增”）。
从 import 起到文件末尾是一整段（mask 段），复制下来单独就能运行。
"""

# --8<-- [start:mask]
import math

import torch

from tinylm.attention import Attention, check_shapes


def causal_mask(n):
    """[位置, 位置] 的布尔矩阵：第 i 行第 j 列为 True，表示位置 i 可以读位置 j（j ≤ i）。"""
    return torch.ones(n, n, dtype=torch.bool).tril()


def masked_attention(q, k, v, mask):
    """与 attention(q, k, v) 相同，只是 mask 为 False 的位置不许读。mask：[查询位置, 被读位置]。"""
    check_shapes(q, k, v)
    dots = q @ k.transpose(-2, -1)                          # 点积：[..., 查询位置, 被读位置]
    scores = dots / math.sqrt(q.shape[-1])                  # 缩放：除以特征宽度的平方根
    scores = scores.masked_fill(~mask, float("-inf"))       # 掩码（第 11 讲新增）：不许读的分数换成负无穷
    weights = torch.softmax(scores, dim=-1)                 # Softmax：exp(−∞) 为零，被挡住的位置分不到比例
    output = weights @ v                                    # 汇总：[..., 查询位置, 值特征]
    return Attention(output, scores, weights)


def causal_attention(q, k, v):
    """自注意力的因果掩码：位置 i 只读位置 0…i。q 与 k 的位置数必须相同。"""
    if q.shape[-2] != k.shape[-2]:
        raise ValueError(f"causal_attention：查询与键的位置数必须相同，收到 q {list(q.shape)}、k {list(k.shape)}")
    return masked_attention(q, k, v, causal_mask(q.shape[-2]))
# --8<-- [end:mask]
