"""第 NN 讲 · 位置编码：注意力分不出先后，就给每个位置一个记号"""

SUMMARY = "注意力只看内容、分不出先后；给每个位置一条正弦与余弦组成的向量，加到字向量上"

EXPERIMENTS = [
    ("order", "只有注意力：顺序倒过来，输出只是换了行"),
    ("table", "正弦位置编码表，加到字向量上"),
    ("relation", "位置编码之间的点积：只看相隔多远"),
]

TIME_LIMIT = 60

INPUT_CHANGES = [
    ("lessons/lNN/order.py", "x = torch.tensor([[1., 0., 1., 0.],   # “红”",
     "x = torch.tensor([[1., 0., 1., 0., 2., 1.],   # “红”"),
    ("lessons/lNN/order.py", "                  [0., 2., 0., 1.],   # “黄”\n                  [1., 1., 0., 2.]])  # “蓝”",
     "                  [0., 2., 0., 1., 1., 0.],   # “黄”\n                  [1., 1., 0., 2., 0., 1.],\n"
     "                  [2., 0., 1., 1., 1., 1.]])"),
    ("lessons/lNN/table.py", "base = 10000.0", "base = 1000.0"),
]
CHECK_CHANGES = [
    ("lessons/lNN/order.py", "                  [1., 1., 0., 2.]])  # “蓝”",
     "                  [1., 1., 0., 2.],\n                  [0., 1., 1., 1.],\n                  [2., 1., 0., 0.]])"),
    ("lessons/lNN/table.py", "base = 10000.0", "base = 400.0"),
    ("lessons/lNN/relation.py", "small_base = 100.0", "small_base = 25.0"),
]
