"""注意力：每个位置用查询向量 Q 给各位置的键向量 K 打分，按读取比例汇总值向量 V。"""

import math

import torch


# --8<-- [start:attention]
def attention(q, k, v):
    """每行 Q 查询各行 K，再汇总 V；返回输出、匹配分数与读取比例。"""
    check_shapes(q, k, v)  # 形状对不上时，先用本讲的术语报错。
    # 行选查询位置，列选被读位置；除以查询宽度的平方根来缓和分数尺度。
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # 每行在被读位置之间分配比例；这里尚未加掩码，允许读取全部位置。
    weights = torch.softmax(scores, dim=-1)
    # [3,3] 比例乘 [3,2] 内容，得到 [3,2]；比例是本次算出的量，不是参数。
    return weights @ v, scores, weights
# --8<-- [end:attention]


def check_shapes(q, k, v):
    """Q、K、V 的最后两轴是 [位置, 特征]；前面的轴（批次、头）三者必须一致。"""
    for name, t in (("查询 q", q), ("键 k", k), ("值 v", v)):
        if t.dim() < 2:
            raise ValueError(f"attention：{name} 至少要有两轴 [位置, 特征]，收到形状 {list(t.shape)}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"attention：查询 q 与键 k 的特征宽度必须相同才能做点积，"
            f"收到 q {list(q.shape)}、k {list(k.shape)}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"attention：键 k 与值 v 的位置数必须相同（每个被读位置一份内容），"
            f"收到 k {list(k.shape)}、v {list(v.shape)}"
        )
    if not (q.shape[:-2] == k.shape[:-2] == v.shape[:-2]):
        raise ValueError(
            f"attention：q、k、v 前面的轴（批次、头）必须一致，"
            f"收到 q {list(q.shape)}、k {list(k.shape)}、v {list(v.shape)}"
        )
