"""第 NN 讲 · 层归一化：每个位置的向量，先拉回同一个尺度"""

SUMMARY = "每个位置的向量减去均值、除以标准差，再乘增益加偏置"

EXPERIMENTS = [
    ("by_hand", "手算一行：均值、方差、归一化"),
    ("gain", "增益与偏置，和 PyTorch 的 layer_norm 对照"),
]

TIME_LIMIT = 60

INPUT_CHANGES = [
    ("lessons/lNN/by_hand.py", "x = torch.tensor([[1., 2., 3., 6.], [0., 4., 4., 8.]])",
     "x = torch.tensor([[1., 3., 3., 7., 1.], [2., 4., 4., 9., 1.], [0., 1., 5., 2., 2.]])"),
    ("lessons/lNN/gain.py", "gain = torch.tensor([1., 1., 2., 2.])", "gain = torch.tensor([2., 1., 1., 3., 1.])"),
    ("lessons/lNN/gain.py", "bias = torch.tensor([0., 0., 0., 1.])", "bias = torch.tensor([1., 0., 0., 2., 0.])"),
]
CHECK_CHANGES = [
    ("lessons/lNN/by_hand.py", "x = torch.tensor([[1., 2., 3., 6.], [0., 4., 4., 8.]])",
     "x = torch.tensor([[2., 2., 5., 7., 4., 1.], [1., 0., 3., 8., 2., 2.], [4., 1., 1., 0., 6., 3.]])"),
    ("lessons/lNN/gain.py", "gain = torch.tensor([1., 1., 2., 2.])", "gain = torch.tensor([1., 3., 2., 2., 1., 1.])"),
    ("lessons/lNN/gain.py", "bias = torch.tensor([0., 0., 0., 1.])", "bias = torch.tensor([0., 1., 0., 1., 0., 2.])"),
]
