"""two_models：回到开头的例子。用同一份小语料训练上一讲的模型和加上自注意力的模型，比较下一字的概率。"""
# --8<-- [start:data]
from importlib import resources

import torch

from lessons.show import num
from tinylm import AttentionModel, LastPositionModel, Vocab, next_char_examples, next_char_probs, train

# 本讲的小语料，每行一句：小丁喜欢红的，小周喜欢黄的，小王喜欢绿的，小李喜欢蓝的。
corpus = resources.files("lessons.l10").joinpath("corpus.txt").read_text(encoding="utf-8")
sentences = corpus.split()
vocab = Vocab(corpus)
# 上文的长度正好是“早上，小丁喜欢”的字数；答案是紧接着的一个字。
context = len("早上，小丁喜欢")
inputs, targets = next_char_examples(sentences, vocab, context=context)
print(f"语料 {len(sentences)} 句，字表 {len(vocab)} 个字，样本 {len(targets)} 个（上文 {context} 个字 → 下一字）")
# --8<-- [end:data]

# --8<-- [start:train]
steps = 100  # 每个模型训练的步数


def train_model(model_class):
    """比较的模型都用同一个随机种子、同样的步数和学习率。float64 让结果在任何机器、任何线程数下都一致。"""
    torch.manual_seed(0)
    model = model_class(len(vocab), d_model=16).double()
    losses = train(model, inputs, targets, steps=steps, lr=0.01)
    return model, losses


last_model, last_losses = train_model(LastPositionModel)
attention_model, attention_losses = train_model(AttentionModel)
print(f"训练 {steps} 步后的平均损失：")
print("  上一讲的模型（只看最后位置）", num(last_losses[-1]))
print("  加上自注意力的模型          ", num(attention_losses[-1]))
# --8<-- [end:train]

# --8<-- [start:table]
contexts = ["早上，小丁喜欢", "早上，小周喜欢"]
ids = torch.stack([vocab.encode(c) for c in contexts])  # [句子, 位置]
red, yellow = vocab.index["红"], vocab.index["黄"]


def table_row(model):
    """[P(红｜小丁), P(黄｜小丁), P(红｜小周), P(黄｜小周)]：读完上文，下一字是红、黄的概率。"""
    probs = next_char_probs(model, ids)  # [句子, 词表]
    return probs[:, [red, yellow]].flatten()


last_row = table_row(last_model)
attention_row = table_row(attention_model)
print("| 模型 | " + " | ".join(f"P({c}｜{s})" for s in contexts for c in "红黄") + " |")
print("| --- | --- | --- | --- | --- |")
print("| 上一讲的模型（只看最后位置） | " + " | ".join(num(p) for p in last_row) + " |")
print("| 加上自注意力的模型 | " + " | ".join(num(p) for p in attention_row) + " |")
# 上一讲的模型：每句上文的最后一个字都是“欢”，只看这个位置的向量，分不出小丁和小周。
assert abs(last_row[0] - last_row[2]) <= 0.02 and abs(last_row[1] - last_row[3]) <= 0.02
# 加上自注意力：小丁之后给红、小周之后给黄，都占大部分概率（门槛见下面的断言）。
assert attention_row[0] >= 0.8 and attention_row[3] >= 0.8
# --8<-- [end:table]

# --8<-- [start:weights]
with torch.no_grad():
    reading = attention_model.attn(attention_model.embed(ids))  # 模型里那一次自注意力的结果
last_weights = reading.weights[:, -1, :]  # [句子, 被读位置]：最后位置“欢”发起查询的那一行读取比例
name_position = contexts[0].index("丁")   # 名字在第 4 个位置（从 0 数起）
name_weights = last_weights[:, name_position]
print("最后位置“欢”的读取比例：\n")  # 空一行，下面的表格才成为表格
print("| 位置 | 字 | " + " | ".join(contexts) + " |")
print("| --- | --- | --- | --- |")
for i, ch in enumerate(contexts[0]):
    shown = "丁/周" if i == name_position else ch
    print(f"| {i} | {shown} | " + " | ".join(num(w) for w in last_weights[:, i]) + " |")
# 训练没有告诉它该看谁；预测错误反向更新 Wq/Wk/Wv 之后，名字所在的位置分到了最大的比例。
assert (last_weights.argmax(dim=-1) == name_position).all()
# --8<-- [end:weights]

# 正文数的东西：比较的模型，和语料里上文之后的那个颜色字（红、黄、绿、蓝）。
models = (last_model, attention_model)
colors = sorted({s[inputs.shape[-1]] for s in sentences})
