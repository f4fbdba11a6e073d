"""注意力组件：保存可训练的投影参数 Wq/Wk/Wv，把输入 X 变成 Q/K/V 再做注意力。"""

import torch
from torch import nn

from tinylm.attention import attention


class SelfAttention(nn.Module):
    """自注意力：Q、K、V 都来自同一份输入 X。"""

    def __init__(self, d_in, d_qk, d_v=None):
        super().__init__()
        d_v = d_qk if d_v is None else d_v
        # 三组投影参数，不带偏置，所以 Q = X @ Wqᵀ 与正文的写法完全一致。
        self.wq = nn.Parameter(torch.randn(d_qk, d_in) / d_in**0.5)
        self.wk = nn.Parameter(torch.randn(d_qk, d_in) / d_in**0.5)
        self.wv = nn.Parameter(torch.randn(d_v, d_in) / d_in**0.5)

    def forward(self, x):
        """x 的形状是 [..., 位置, 特征]；返回输出、匹配分数与读取比例。"""
        if x.shape[-1] != self.wq.shape[-1]:
            raise ValueError(
                f"SelfAttention：输入 X 的特征宽度应为 {self.wq.shape[-1]}，收到形状 {list(x.shape)}"
            )
        # 训练改变参数；参数固定时，换输入也会改变 Q/K/V。
        q, k, v = x @ self.wq.T, x @ self.wk.T, x @ self.wv.T
        return attention(q, k, v)
