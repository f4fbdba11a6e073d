"""table：正弦位置编码表。每个位置一行；偶数维放 sin，奇数维放 cos，频率一对比一对慢。"""

import torch

from tinylm import attention
from lessons.lNN.order import flipped, x

# --8<-- [start:listing]
def frequencies(width, base=10000.0):
    """每对维一个频率：第一对最快，越往后越慢。"""
    return base ** (-torch.arange(0, width, 2, dtype=torch.float32) / width)


def sinusoidal(positions, width, base=10000.0):
    """返回 [位置, 宽度] 的位置编码表。"""
    pos = torch.arange(positions, dtype=torch.float32)[:, None]  # 每个位置一行
    angle = pos * frequencies(width, base)                       # 位置乘频率，就是角度
    pe = torch.zeros(positions, width)
    pe[:, 0::2] = torch.sin(angle)                               # 偶数维放 sin
    pe[:, 1::2] = torch.cos(angle)                               # 奇数维放 cos
    return pe


base = 10000.0
freq = frequencies(x.shape[1], base)
pe = sinusoidal(x.shape[0], x.shape[1], base)
print("频率：", freq)
print("位置编码表：")
print(pe)

h = x + pe                  # 字向量加上所在位置的编码
h_flipped = flipped + pe    # 倒过来以后，每个字加的是新位置的编码
out_h = attention(h, h, h).output
out_h_flipped = attention(h_flipped, h_flipped, h_flipped).output
print("加上编码后的字向量：")
print(h)
print("“红”的输出相同吗：", torch.allclose(out_h[0], out_h_flipped[-1]))
# --8<-- [end:listing]
assert torch.allclose((pe ** 2).sum(dim=-1), torch.full((x.shape[0],), x.shape[1] / 2)), "每行的平方和是宽度的一半"
assert not torch.allclose(out_h[0], out_h_flipped[-1]), "加上位置编码以后，换顺序会改变输出"

red_last = h_flipped[-1]
