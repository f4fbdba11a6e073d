"""masked_model：加上因果掩码，同样每个位置都算损失。损失回到下限附近，名字照样传到最后位置。"""

import torch

from lessons.l11.every_position import floor, inputs, targets, vocab
from lessons.l11.shortcut import next_char_chances, open_losses, open_model, peek_at, print_chances, sentence, train_every_position

# --8<-- [start:train]
from lessons.show import num, vec
from tinylm import CausalAttentionModel, position_losses

# 同一个种子给出与上面完全相同的初始参数：这个模型与不加掩码的那个只差掩码。
masked_model, masked_losses = train_every_position(CausalAttentionModel)
masked_by_position = position_losses(masked_model, inputs, targets)
print(f"加上掩码，训练 {len(masked_losses)} 步后的平均损失：", num(masked_losses[-1]), "（不加掩码：", num(open_losses[-1]) + "）")
print("各位置的损失：", vec(masked_by_position))
print("只看前文的下限：", vec(floor))
# 加上掩码，没有哪个位置低于下限：它只能靠前文猜。
assert all(masked_by_position[t] >= floor[t] - 1e-6 for t in range(len(floor)))
# --8<-- [end:train]

# --8<-- [start:prefix]
masked_chances = next_char_chances(masked_model, sentence)
print_chances(masked_chances, sentence)
# 有掩码时，一个位置只看自己和前文：后文在不在，概率一模一样。
assert torch.allclose(masked_chances[:, 0], masked_chances[:, 1])
with torch.no_grad():
    guess = torch.softmax(masked_model(vocab.encode(sentence[: peek_at + 1]))[-1], dim=-1)  # 只读到“早上，小”
names = [vocab.index[c] for c in "丁周王李"]
print("读到“早上，小”，下一字是丁、周、王、李的概率：", vec(guess[names]))
# --8<-- [end:prefix]

# --8<-- [start:table]
contexts = ["早上，小丁喜欢", "早上，小周喜欢"]
ids = torch.stack([vocab.encode(c) for c in contexts])  # [句子, 位置]
red, yellow = vocab.index["红"], vocab.index["黄"]


def table_row(model):
    """[P(红｜小丁), P(黄｜小丁), P(红｜小周), P(黄｜小周)]：最后位置“欢”之后，下一字是红、黄的概率。"""
    with torch.no_grad():
        probs = torch.softmax(model(ids)[:, -1], dim=-1)  # [句子, 词表]
    return probs[:, [red, yellow]].flatten()


open_row, masked_row = table_row(open_model), table_row(masked_model)
print("| 模型（都在每个位置训练） | " + " | ".join(f"P({c}｜{s})" for s in contexts for c in "红黄") + " |")
print("| --- | --- | --- | --- | --- |")
print("| 不加掩码 | " + " | ".join(num(p) for p in open_row) + " |")
print("| 加上掩码 | " + " | ".join(num(p) for p in masked_row) + " |")
assert masked_row[0] >= 0.8 and masked_row[3] >= 0.8
# --8<-- [end:table]

# --8<-- [start:weights]
from tinylm import causal_attention

with torch.no_grad():
    reading = causal_attention(*masked_model.attn.project(masked_model.embed(ids)))
last_weights = reading.weights[:, -1, :]  # [句子, 被读位置]：最后位置“欢”那一行
name_position = contexts[0].index("丁")
print("最后位置“欢”的读取比例：\n")  # 空一行，下面的表格才成为表格
print("| 位置 | 字 | " + " | ".join(contexts) + " |")
print("| --- | --- | --- | --- |")
for i, ch in enumerate(contexts[0]):
    shown = "丁/周" if i == name_position else ch
    print(f"| {i} | {shown} | " + " | ".join(num(w) for w in last_weights[:, i]) + " |")
assert (last_weights.argmax(dim=-1) == name_position).all()
# --8<-- [end:weights]
