"""order：只有注意力时，把字的顺序倒过来，每个字的输出不变，只是跟着换了位置。"""

# --8<-- [start:listing]
import torch

from tinylm import attention

x = torch.tensor([[1., 0., 1., 0.],   # “红”
                  [0., 2., 0., 1.],   # “黄”
                  [1., 1., 0., 2.]])  # “蓝”
flipped = x.flip(0)                   # 同样的字，顺序倒过来
out = attention(x, x, x).output
out_flipped = attention(flipped, flipped, flipped).output
print("原顺序，每个位置的输出：")
print(out)
print("倒过来以后：")
print(out_flipped)
print("“红”的输出相同吗：", torch.allclose(out[0], out_flipped[-1]))
# --8<-- [end:listing]
assert torch.allclose(out, out_flipped.flip(0), atol=1e-6), "只有注意力时，换顺序只会换行"

red_out = out[0]
