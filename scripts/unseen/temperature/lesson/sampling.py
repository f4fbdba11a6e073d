"""sampling：按概率抽字，数每个字被抽中几次。"""

# --8<-- [start:listing]
import torch

from lessons.lNN.temperature import cool, logits, plain

draws = 1000
gen = torch.Generator().manual_seed(0)
counts = {}
for name, p in (("温度 1", plain), ("温度 0.5", cool)):
    picked = torch.multinomial(p, draws, replacement=True, generator=gen)
    counts[name] = torch.bincount(picked, minlength=len(logits))
    print(name, counts[name].tolist())
# --8<-- [end:listing]
assert counts["温度 1"].sum() == draws

plain_counts, cool_counts = counts["温度 1"], counts["温度 0.5"]
