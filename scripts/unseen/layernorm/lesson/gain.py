"""gain：归一化之后乘增益、加偏置；与 torch.nn.functional.layer_norm 的结果对照。"""

# --8<-- [start:listing]
import torch
import torch.nn.functional as F

from lessons.lNN.by_hand import eps, normed, x

gain = torch.tensor([1., 1., 2., 2.])
bias = torch.tensor([0., 0., 0., 1.])
out = normed * gain + bias
library = F.layer_norm(x, (x.shape[-1],), weight=gain, bias=bias, eps=eps)
print(out)
print("与 layer_norm 最大相差：", (out - library).abs().max().item())
# --8<-- [end:listing]
assert torch.allclose(out, library, atol=1e-6)
params = gain.numel() + bias.numel()
