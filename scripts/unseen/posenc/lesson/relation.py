"""relation：位置编码之间做点积，结果只看位置相隔多远。"""

import torch

from lessons.lNN.table import frequencies, pe, sinusoidal, x

# --8<-- [start:listing]
from lessons.show import num

dots = pe @ pe.T   # 每格：行位置的编码点乘列位置的编码
print("点积表（行、列都是位置）：")
print(dots)
gap = 1
print(f"相隔 {gap} 步：", num(dots[0, gap]), num(dots[1, 1 + gap]))
# --8<-- [end:listing]
assert torch.allclose(dots[0, gap], dots[1, 1 + gap]), "相隔一样远，点积一样"
assert torch.allclose(dots.diagonal(), torch.full((x.shape[0],), x.shape[1] / 2))

# --8<-- [start:exercise]
small_base = 100.0
pe_small = sinusoidal(x.shape[0], x.shape[1], small_base)
dots_small = pe_small @ pe_small.T
print("换了 base 以后的点积表：")
print(dots_small)
# --8<-- [end:exercise]
assert torch.allclose(dots_small[0, gap], dots_small[1, 1 + gap])

freq_small = frequencies(x.shape[1], small_base)
