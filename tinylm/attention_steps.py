"""把一次注意力的每一步摊开：点积、缩放、（掩码，）Softmax 的指数与行和、读取比例、汇总。

页面的逐步演示和手算核对都用这里的数，不另写一遍 exp、求和与相除。
"""

from typing import NamedTuple

import torch

from tinylm.attention import attention
from tinylm.mask import masked_attention


class AttentionSteps(NamedTuple):
    dots: torch.Tensor     # 点积 q·k：[..., 查询位置, 被读位置]
    scores: torch.Tensor   # 缩放后的分数：点积 / √特征宽度；有掩码时，不许读的位置是负无穷
    exps: torch.Tensor     # Softmax 的分子：每个分数的指数
    sums: torch.Tensor     # Softmax 的分母：每行指数之和，[..., 查询位置]
    weights: torch.Tensor  # 读取比例 = 指数 / 行和，每行加起来正好是一整份
    output: torch.Tensor   # 汇总：读取比例 @ V，[..., 查询位置, 值特征]


def attention_steps(q, k, v, mask=None):
    """attention(q, k, v) 的全部中间量；scores、weights、output 就是 attention 自己的结果。

    给了 mask（第 11 讲）就摊开 masked_attention(q, k, v, mask)：exp(−∞) = 0，被挡住的位置不进行和。
    """
    result = attention(q, k, v) if mask is None else masked_attention(q, k, v, mask)
    exps = torch.exp(result.scores)  # 按正文手算的写法，不减去行最大值
    sums = exps.sum(dim=-1)
    if not torch.allclose(exps / sums.unsqueeze(-1), result.weights):
        raise ValueError("attention_steps：分数太大，exp 溢出，逐步写法不再等于 Softmax")
    dots = q @ k.transpose(-2, -1)
    return AttentionSteps(dots, result.scores, exps, sums, result.weights, result.output)
