"""第 11 讲的模型：与第 10 讲的 AttentionModel 同样的参数，只是自注意力加上因果掩码。

只改 mix 这一步，所以同一个随机种子给出与 AttentionModel 完全相同的初始参数：
它和 AttentionModel 训练后的差别，只能来自掩码。
"""

from tinylm.mask import causal_attention
from tinylm.model import AttentionModel


class CausalAttentionModel(AttentionModel):
    """每个位置按读取比例汇总 V，但只读自己和前文：后文的答案读不到。"""

    def mix(self, x):
        """x：[..., 位置, 特征] → [..., 位置, 特征]；投影参数就是 AttentionModel 的 Wq/Wk/Wv。"""
        return causal_attention(*self.attn.project(x)).output
