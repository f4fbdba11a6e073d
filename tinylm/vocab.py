"""字表：语料里出现过的每个字，给一个编号。模型只认编号，不认字。"""

import torch


class Vocab:
    """按 Unicode 顺序排列的字表：同一份语料，在哪台机器上都得到同一张表。"""

    def __init__(self, text):
        self.chars = sorted(set(text) - {"\n"})
        self.index = {ch: i for i, ch in enumerate(self.chars)}

    def __len__(self):
        return len(self.chars)

    def encode(self, text):
        """字 → 编号：'早上' → tensor([i, j])，形状 [位置]。"""
        missing = [ch for ch in text if ch not in self.index]
        if missing:
            raise ValueError(f"字表里没有这些字：{''.join(missing)}")
        return torch.tensor([self.index[ch] for ch in text])

    def decode(self, ids):
        """编号 → 字。"""
        return "".join(self.chars[int(i)] for i in ids)
