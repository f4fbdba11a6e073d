"""tinylm：手写小模型，看懂大模型。课程一讲一讲搭起来的小语言模型。

文件一份一个想法：
    attention.py        注意力：点积 → 缩放 → Softmax → 汇总
    attention_steps.py  同一次注意力的全部中间量，供手算核对与逐步演示
    self_attention.py   自注意力组件：Wq/Wk/Wv 把 X 投影成 Q/K/V
"""

from tinylm.attention import Attention, attention
from tinylm.attention_steps import AttentionSteps, attention_steps
from tinylm.self_attention import SelfAttention

__version__ = "0.10.0"  # 版本号跟着讲次走：第 10 讲加入注意力。

__all__ = ["Attention", "AttentionSteps", "SelfAttention", "__version__", "attention", "attention_steps"]
