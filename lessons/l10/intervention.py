"""intervention：固定 Q/K，只改第三行 V，看比例与输出各自怎样变。"""

import torch

from lessons.l10.attention_2d import k, output, q, v, weights
from tinylm import attention

# --8<-- [start:listing]
# 沿用上段的 Q/K 与 attention；复制 V 的数值，本次只做固定比例的干预。
changed_v = v.detach().clone()
# 只改第三行的第 0 坐标，不重新生成 Q/K，因此匹配分数与比例应保持不变。
changed_v[2, 0] = 3.
changed_output, _, changed_weights = attention(q, k, changed_v)
assert torch.allclose(changed_weights, weights)
print(changed_output - output)
# --8<-- [end:listing]
