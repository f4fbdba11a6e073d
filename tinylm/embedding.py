"""嵌入：字表里每个字有一行可训练的向量；输入编号，查表取出对应的行。"""

import torch
from torch import nn


class Embedding(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        # [词表, 特征]；除以 √特征宽度，让每行向量一开始大致是单位长度，起步时的读取比例不会过早集中。
        self.table = nn.Parameter(torch.randn(vocab_size, d_model) / d_model**0.5)

    def forward(self, ids):
        """ids：[..., 位置] 的编号 → [..., 位置, 特征] 的向量。"""
        return self.table[ids]
