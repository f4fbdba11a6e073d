"""softmax_row：位置 0 的一行：点积、缩放、Softmax、汇总，只用 Python 自带的 math。"""

import math

q = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
k = q
v = [[1.0, 0.0], [0.0, 2.0], [1.0, 2.0]]
d = len(q[0])


def row(i):
    """位置 i 的分数、指数、分母、比例与输出。"""
    scores = [sum(a * b for a, b in zip(q[i], kj)) / math.sqrt(d) for kj in k]
    exps = [math.exp(s) for s in scores]
    total = sum(exps)
    weights = [e / total for e in exps]
    output = [sum(w * vj[c] for w, vj in zip(weights, v)) for c in range(len(v[0]))]
    return scores, exps, total, weights, output


scores, exps, total, weights, _ = row(0)
output = [row(i)[4] for i in range(len(q))]  # 每个位置的输出
assert abs(sum(weights) - 1) < 1e-12
