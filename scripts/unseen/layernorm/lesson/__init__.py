"""第 NN 讲 · 层归一化：每个位置的向量，先拉回同一个尺度"""

SUMMARY = "每个位置的向量减去均值、除以标准差，再乘增益加偏置"

EXPERIMENTS = [
    ("by_hand", "手算一行：均值、方差、归一化"),
    ("gain", "增益与偏置，和 PyTorch 的 layer_norm 对照"),
]

TIME_LIMIT = 60
