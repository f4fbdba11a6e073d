"""tinylm：手写小模型，看懂大模型。课程一讲一讲搭起来的小语言模型。"""

from tinylm.attention import attention
from tinylm.self_attention import SelfAttention

__version__ = "0.10.0"  # 版本号跟着讲次走：第 10 讲加入注意力。

__all__ = ["attention", "SelfAttention", "__version__"]
