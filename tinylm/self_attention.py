"""注意力组件：保存可训练的投影参数 Wq/Wk/Wv，把输入 X 变成 Q/K/V 再做注意力。"""

import torch
from torch import nn

from tinylm.attention import attention


class SelfAttention(nn.Module):
    """自注意力：Q、K、V 都来自同一份输入 X。以后的多头注意力，是把几份这样的读取并排。"""

    def __init__(self, d_in, d_qk, d_v=None):
        super().__init__()
        d_v = d_qk if d_v is None else d_v
        # 查询、键、值各一组投影参数，形状 [输出特征, 输入特征]，不带偏置，所以 Q = X @ Wqᵀ 与正文的写法一致。
        self.wq = nn.Parameter(torch.randn(d_qk, d_in) / d_in**0.5)
        self.wk = nn.Parameter(torch.randn(d_qk, d_in) / d_in**0.5)
        self.wv = nn.Parameter(torch.randn(d_v, d_in) / d_in**0.5)

    @classmethod
    def from_weights(cls, wq, wk, wv):
        """用给定的 Wq、Wk、Wv 建组件，例如正文构造例子里的单位矩阵。
        建组件时随机初始化的参数马上被换掉，所以在 fork_rng 里建：全局的随机数不因它而变，后面抽到的数和没建它时一样。"""
        with torch.random.fork_rng(devices=[]):
            layer = cls(d_in=wq.shape[1], d_qk=wq.shape[0], d_v=wv.shape[0])
        layer.wq, layer.wk, layer.wv = (nn.Parameter(w.detach().clone()) for w in (wq, wk, wv))
        return layer

    def project(self, x):
        """X：[..., 位置, 特征] → Q、K、V。训练改变参数；参数固定时，换输入也会改变 Q/K/V。"""
        if x.shape[-1] != self.wq.shape[-1]:
            raise ValueError(
                f"SelfAttention：输入 X 的特征宽度应为 {self.wq.shape[-1]}，收到形状 {list(x.shape)}"
            )
        return x @ self.wq.T, x @ self.wk.T, x @ self.wv.T

    def forward(self, x):
        """x：[..., 位置, 特征] → Attention(output, scores, weights)。"""
        return attention(*self.project(x))
