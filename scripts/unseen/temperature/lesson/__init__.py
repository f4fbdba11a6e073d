"""第 NN 讲 · 温度：同一组分数，怎样采得更稳或更散"""

SUMMARY = "分数除以温度再做 Softmax：温度低，最高的那个字更常被选中"

EXPERIMENTS = [
    ("temperature", "不同温度下的概率"),
    ("sampling", "按概率抽字，数一数"),
]

TIME_LIMIT = 60
