"""注意力：每个位置用查询向量 Q 给各位置的键向量 K 打分，按读取比例汇总值向量 V。

形状写法沿用 nanoGPT 的 model.py：[..., 位置, 特征]，前面的 ... 是批次（以后还有头）。
从 import 起到文件末尾是一整段（attention 段），复制下来单独就能运行。
"""

# --8<-- [start:attention]
import math
from typing import NamedTuple

import torch


class Attention(NamedTuple):
    """attention 的结果，可以按 output, scores, weights 的顺序拆开。"""

    output: torch.Tensor   # [..., 查询位置, 值特征]：按读取比例汇总的 V
    scores: torch.Tensor   # [..., 查询位置, 被读位置]：缩放后的匹配分数
    weights: torch.Tensor  # [..., 查询位置, 被读位置]：读取比例，每行加起来正好是一整份


def attention(q, k, v):
    """q：[..., 查询位置, 特征]，k：[..., 被读位置, 特征]，v：[..., 被读位置, 值特征]。"""
    check_shapes(q, k, v)
    dots = q @ k.transpose(-2, -1)           # 点积：[..., 查询位置, 被读位置]
    scores = dots / math.sqrt(q.shape[-1])   # 缩放：除以特征宽度的平方根
    weights = torch.softmax(scores, dim=-1)  # Softmax：每行沿被读位置分配读取比例（尚未加掩码）
    output = weights @ v                     # 汇总：[..., 查询位置, 值特征]
    return Attention(output, scores, weights)


def check_shapes(q, k, v):
    """形状对不上时，先用本讲的术语报错，而不是等矩阵乘法报一串英文。"""
    got = f"收到 q {list(q.shape)}、k {list(k.shape)}、v {list(v.shape)}"
    if min(q.dim(), k.dim(), v.dim()) < 2:
        raise ValueError(f"attention：q、k、v 至少要有两轴 [位置, 特征]，{got}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"attention：查询 q 与键 k 的特征宽度必须相同才能做点积，{got}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"attention：键 k 与值 v 的位置数必须相同（每个被读位置一份内容），{got}")
    if not q.shape[:-2] == k.shape[:-2] == v.shape[:-2]:
        raise ValueError(f"attention：q、k、v 前面的轴（批次、头）必须一致，{got}")
# --8<-- [end:attention]
