"""第 NN 讲 · 温度：同一组分数，怎样采得更稳或更散"""

SUMMARY = "分数除以温度再做 Softmax：温度低，最高的那个字更常被选中"

EXPERIMENTS = [
    ("temperature", "不同温度下的概率"),
    ("sampling", "按概率抽字，数一数"),
]

TIME_LIMIT = 60

INPUT_CHANGES = [
    ("lessons/lNN/temperature.py", "logits = torch.tensor([2.0, 1.0, 0.5, -1.0])",
     "logits = torch.tensor([1.5, 1.0, 0.2, -0.5, -2.0])"),
]
CHECK_CHANGES = [
    ("lessons/lNN/temperature.py", "logits = torch.tensor([2.0, 1.0, 0.5, -1.0])",
     "logits = torch.tensor([3.0, 0.5, 0.0, -1.0, -1.5, 0.5])"),
    ("lessons/lNN/sampling.py", "draws = 1000", "draws = 600"),
]
