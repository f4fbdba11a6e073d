"""tinylm：手写小模型，看懂大模型。课程一讲一讲搭起来的小语言模型。

文件一份一个想法：
    vocab.py            字表：字 ↔ 编号
    embedding.py        嵌入：编号 → 向量
    attention.py        注意力：点积 → 缩放 → Softmax → 汇总
    attention_steps.py  同一次注意力的全部中间量，供手算核对与逐步演示
    mask.py             掩码：每个位置只读自己和前文（第 11 讲）
    self_attention.py   自注意力组件：Wq/Wk/Wv 把 X 投影成 Q/K/V
    model.py            上一讲的模型（只看最后位置）与加上自注意力的模型
    causal_model.py     自注意力加上因果掩码的模型（第 11 讲）
    train.py            样本、损失与训练循环
    every_position.py   每个位置都预测下一字：样本与损失（第 11 讲）
"""

from tinylm.attention import Attention, attention
from tinylm.attention_steps import AttentionSteps, attention_steps
from tinylm.causal_model import CausalAttentionModel
from tinylm.embedding import Embedding
from tinylm.every_position import every_position_loss, next_char_sequences, position_losses
from tinylm.mask import causal_attention, causal_mask, masked_attention
from tinylm.model import AttentionModel, LastPositionModel
from tinylm.self_attention import SelfAttention
from tinylm.train import last_position_loss, next_char_examples, next_char_probs, train
from tinylm.vocab import Vocab

__version__ = "0.11.0"  # 版本号跟着讲次走：第 10 讲加入注意力，第 11 讲加入掩码。

__all__ = [
    "Attention", "AttentionModel", "AttentionSteps", "CausalAttentionModel", "Embedding", "LastPositionModel",
    "SelfAttention", "Vocab", "__version__", "attention", "attention_steps", "causal_attention", "causal_mask",
    "every_position_loss", "last_position_loss", "masked_attention", "next_char_examples", "next_char_probs",
    "next_char_sequences", "position_losses", "train",
]
