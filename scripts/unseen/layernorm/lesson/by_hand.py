"""by_hand：手算层归一化的一行。"""

# --8<-- [start:listing]
import torch

x = torch.tensor([[1., 2., 3., 6.], [0., 4., 4., 8.]])  # 每行是一个位置的特征
mean = x.mean(dim=-1, keepdim=True)                    # 每行的均值
centered = x - mean                                    # 减去均值
var = (centered ** 2).mean(dim=-1, keepdim=True)       # 每行的方差（除以特征数）
eps = 1e-5
normed = centered / torch.sqrt(var + eps)              # 除以标准差
print("均值：", mean.squeeze(-1))
print("方差：", var.squeeze(-1))
print("归一化后：")
print(normed)
# --8<-- [end:listing]
assert torch.allclose(normed.mean(dim=-1), torch.zeros(x.shape[0]), atol=1e-6)
assert torch.allclose((normed ** 2).mean(dim=-1), torch.ones(x.shape[0]), atol=1e-4)

row_mean = mean[0, 0].item()
row_var = var[0, 0].item()
first_sum = x[0].sum().item()
features = x.shape[1]
