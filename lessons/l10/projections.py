"""projections：Q 与 K 用不同的投影时，匹配分数可以不对称。"""

import torch

# --8<-- [start:listing]
# 这是单独的构造实验；每行是一个位置的输入，不代表具体词义。
pair_x = torch.tensor([[1., 0.], [0., 1.]])
pair_q = pair_x @ torch.eye(2).T  # 查询投影暂取单位矩阵。
# 共用投影时，K与Q相同，分数表必然对称：位置 0 查位置 1 与位置 1 查位置 0 的点积相等。
shared_scores = pair_q @ pair_q.T
# 换一张键投影表，只让 K 变，Q 保持不变。
key_projection = torch.tensor([[0., 2.], [0., 0.]])
pair_k = pair_x @ key_projection.T
separate_scores = pair_q @ pair_k.T
print(shared_scores)    # 共用投影：对称
print(separate_scores)  # 分开投影：不再对称
assert shared_scores[0, 1].item() == shared_scores[1, 0].item() == 0.
assert separate_scores[0, 1].item() == 2. and separate_scores[1, 0].item() == 0.
# --8<-- [end:listing]
