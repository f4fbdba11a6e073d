"""shortcut：不加掩码，让每个位置都预测下一字。训练损失降到了下限以下，因为模型读到了后文里的答案。"""

from lessons.l11.every_position import floor, inputs, targets, vocab

# --8<-- [start:train]
import torch

from lessons.show import num, vec
from tinylm import AttentionModel, every_position_loss, position_losses, train


def train_every_position(model_class):
    """与第 10 讲相同的种子、步数、学习率和 float64；只是每个位置都算损失。"""
    torch.manual_seed(0)
    model = model_class(len(vocab), d_model=16).double()
    losses = train(model, inputs, targets, steps=100, lr=0.01, loss_fn=every_position_loss)
    return model, losses


open_model, open_losses = train_every_position(AttentionModel)  # 第 10 讲的模型：不加掩码
open_by_position = position_losses(open_model, inputs, targets)
# train 返回每一步的损失：它的长度就是训练的步数。
print(f"不加掩码，训练 {len(open_losses)} 步后的平均损失：", num(open_losses[-1]))
print("各位置的损失：", vec(open_by_position))
print("只看前文的下限：", vec(floor))
# 低于下限的位置：只看前文做不到，模型一定读了后文。
below = [t for t in range(len(floor)) if open_by_position[t] < floor[t] - 0.01]
print("低于下限的位置：", below)
assert below
# --8<-- [end:train]

# --8<-- [start:peek]
sentence = "早上，小丁喜欢"
peek_at = sentence.index("小")  # 位置 3 的“小”：它要预测的下一字是“丁”
with torch.no_grad():
    open_weights = open_model.attn(open_model.embed(vocab.encode(sentence))).weights  # [位置, 位置]
print(f"“小”（位置 {peek_at}）的读取比例：", vec(open_weights[peek_at]))
# 它读的几乎全是后面的位置。
assert open_weights[peek_at, peek_at + 1:].sum() > 0.5
# --8<-- [end:peek]

# --8<-- [start:later]
def next_char_chances(model, sentence):
    """每个有下一字的位置（最后位置没有）一行：给“正确的下一字”的概率 [整句都在时, 只给到这个位置时]。"""
    ids = vocab.encode(sentence)
    rows = []
    with torch.no_grad():
        whole = torch.softmax(model(ids), dim=-1)  # 读整句：每个位置的下一字概率
        for t in range(len(sentence) - 1):
            alone = torch.softmax(model(ids[: t + 1])[-1], dim=-1)  # 后文不在：只给位置 0…t
            rows.append([whole[t, ids[t + 1]], alone[ids[t + 1]]])
    return torch.tensor(rows)


def print_chances(chances, sentence):
    print("| 读到 | 下一字 | 整句都在 | 只有前文 |")
    print("| --- | --- | --- | --- |")
    for t, (whole, alone) in enumerate(chances):
        print(f"| {sentence[: t + 1]} | {sentence[t + 1]} | {num(whole)} | {num(alone)} |")


open_chances = next_char_chances(open_model, sentence)
print_chances(open_chances, sentence)
# 后文在的时候它答得很好；后文不在（生成时就是这样），它常常答错。
assert (open_chances[:, 0] > 0.8).all() and (open_chances[:, 1] < 0.5).any()
# --8<-- [end:later]
