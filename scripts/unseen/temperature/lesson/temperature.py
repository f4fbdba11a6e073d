"""temperature：同一组分数除以不同的温度，再做 Softmax。"""

# --8<-- [start:listing]
import torch

words = ["红", "黄", "蓝", "绿"]
logits = torch.tensor([2.0, 1.0, 0.5, -1.0])  # 模型给每个候选字的分数
probs = {t: torch.softmax(logits / t, dim=-1) for t in (1.0, 0.5, 2.0)}
for t, p in probs.items():
    print(f"温度 {t}：", p)
# --8<-- [end:listing]
assert all(torch.isclose(p.sum(), torch.tensor(1.0)) for p in probs.values())
assert probs[0.5][0] > probs[1.0][0] > probs[2.0][0]

cool, plain, warm = probs[0.5], probs[1.0], probs[2.0]
top = plain[0].item()
