"""attention_2d：手工构造的小例子，把注意力的内部数值全部展开。

listing 段就是页面上的第一份代码清单：导入、数据、手写的 attention 和核对都在里面，
单独复制下来就能运行。tinylm 里的同一个函数（点积、缩放、Softmax、汇总各写一行）
由下一个实验 component.py 与它逐项核对。
"""
# --8<-- [start:listing]
import math
import torch

# 三个位置各有两个坐标；这是构造数值，不预先指定中文语义。
x = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
# 三组可训练投影参数：Q/K 在本例保留坐标，V 把第二坐标乘 2。
wq = torch.eye(2, requires_grad=True)
wk = torch.eye(2, requires_grad=True)
wv = torch.tensor([[1., 0.], [0., 2.]], requires_grad=True)
q, k, v = x @ wq.T, x @ wk.T, x @ wv.T

def attention(q, k, v):
    """每行 Q 查询各行 K，再汇总 V；返回输出、匹配分数与读取比例。"""
    # 行选查询位置，列选被读位置；除以查询宽度的平方根来缓和分数尺度。
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    # 每行在被读位置之间分配比例；这里尚未加掩码，允许读取全部位置。
    weights = torch.softmax(scores, dim=-1)
    # [3,3] 比例乘 [3,2] 内容，得到 [3,2]；比例是本次算出的量，不是参数。
    return weights @ v, scores, weights

output, scores, weights = attention(q, k, v)
# 单独重算第 0 个查询，与矩阵版第一行核对，使用同一份 K/V。
first_scores = (q[0] @ k.T) / math.sqrt(2)
first_weights = torch.softmax(first_scores, dim=-1)
first_output = first_weights @ v

# 以下只看数值：detach() 去掉自动求导的记录（打印时的 grad_fn=…），数值不变。
q, k, v, scores, weights, output = (t.detach() for t in (q, k, v, scores, weights, output))
print("匹配分数 scores（行：查询位置，列：被读位置）：")
print(scores)
print("读取比例 weights（行：查询位置，列：被读位置）：")
print(weights)
print("每行之和：", weights.sum(dim=-1))
print("输出 output（每个位置按比例汇总的 V）：")
print(output)
assert torch.allclose(first_output, output[0])
# 三个查询各自一行，分别沿被读位置求和，不能把九项一起归一化。
assert torch.allclose(weights.sum(dim=-1), torch.ones(3))
# --8<-- [end:listing]
