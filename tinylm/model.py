"""预测下一字的小模型：上一讲的（只看最后位置），和本讲加上自注意力的。

流程都是 字编号 → 嵌入 → 位置之间交换信息（mix）→ 词表投影。两者只差 mix 这一步，
所以以后的讲次换 mix（加掩码、多头、整个块）就行，嵌入和预测头不用重写。
"""

from torch import nn

from tinylm.embedding import Embedding
from tinylm.self_attention import SelfAttention


class LastPositionModel(nn.Module):
    """上一讲的模型：每个位置只用自己的向量给下一字打分，预测时取最后位置。"""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embed = Embedding(vocab_size, d_model)
        self.head = nn.Linear(d_model, vocab_size)  # 词表投影：给字表里每个字打一个分

    def mix(self, x):
        """位置之间不交换信息：最后位置的向量只来自最后那个字。"""
        return x

    def forward(self, ids):
        """ids：[..., 位置] → 每个位置对下一字的打分 [..., 位置, 词表]。"""
        x = self.embed(ids)  # [..., 位置, 特征]
        x = self.mix(x)      # [..., 位置, 特征]
        return self.head(x)  # [..., 位置, 词表]


class AttentionModel(LastPositionModel):
    """本讲的模型：同样的嵌入和预测头，中间先做一次自注意力，让最后位置能读前文。"""

    def __init__(self, vocab_size, d_model):
        super().__init__(vocab_size, d_model)
        self.attn = SelfAttention(d_model, d_model)

    def mix(self, x):
        """每个位置按读取比例汇总各位置的 V；这里尚未加掩码，允许读取全部位置。"""
        return self.attn(x).output
