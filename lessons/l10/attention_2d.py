"""attention_2d：三个位置、每个位置二维的构造例子，把注意力的内部数值全部展开。

页面上的代码清单由本文件的 setup、run 两段，加上 tinylm/attention.py 的 attention 函数拼成；
构建时执行的是整个文件，所以页面打印的矩阵来自 tinylm 本身。
"""
# --8<-- [start:setup]
import math
import torch

# 三个位置各有两个坐标；这是构造数值，不预先指定中文语义。
x = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
# 三组可训练投影参数：Q/K 在本例保留坐标，V 把第二坐标乘 2。
wq = torch.eye(2, requires_grad=True)
wk = torch.eye(2, requires_grad=True)
wv = torch.tensor([[1., 0.], [0., 2.]], requires_grad=True)
q, k, v = x @ wq.T, x @ wk.T, x @ wv.T
# --8<-- [end:setup]

from tinylm.attention import attention  # noqa: E402  页面在这里展示该函数的源码。

# --8<-- [start:run]
output, scores, weights = attention(q, k, v)
# 单独重算第 0 个查询，与矩阵版第一行核对，使用同一份 K/V。
first_scores = (q[0] @ k.T) / math.sqrt(2)
first_weights = torch.softmax(first_scores, dim=-1)
first_output = first_weights @ v

print(scores)
print(weights)
print(output)
assert torch.allclose(first_output, output[0])
# 三个查询各自一行，分别沿被读位置求和，不能把九项一起归一化。
assert torch.allclose(weights.sum(dim=-1), torch.ones(3))
# --8<-- [end:run]
