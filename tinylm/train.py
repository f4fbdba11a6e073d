"""训练：把语料切成（上文, 下一字）样本，用下一字的预测错误反向更新全部参数。"""

import torch
import torch.nn.functional as F


def next_char_examples(sentences, vocab, context):
    """每句切成样本：连续 context 个字作上文，紧接的一个字作答案。返回 [样本, 位置] 与 [样本]。"""
    inputs, targets = [], []
    for sentence in sentences:
        ids = vocab.encode(sentence)
        for end in range(context, len(ids)):
            inputs.append(ids[end - context:end])
            targets.append(ids[end])
    return torch.stack(inputs), torch.stack(targets)


def next_char_probs(model, ids):
    """读完 ids（[..., 位置]）之后，下一字在词表上的概率 [..., 词表]：取最后位置的打分做 Softmax。"""
    with torch.no_grad():
        return torch.softmax(model(ids)[..., -1, :], dim=-1)


def last_position_loss(model, inputs, targets):
    """只用最后位置的打分算交叉熵。本讲的注意力还能读到全部位置，
    若在前面的位置也算损失，它们会直接读到后面的答案（第 11 讲用掩码堵住）。"""
    logits = model(inputs)[..., -1, :]  # [样本, 词表]
    return F.cross_entropy(logits, targets)


def train(model, inputs, targets, steps=200, lr=0.05, loss_fn=last_position_loss):
    """全批训练：每步用全部样本算一次损失、反向、更新参数。没有随机抽样，结果只取决于初始参数。

    loss_fn 默认只看最后位置；第 11 讲传入 every_position_loss，让每个位置都预测下一字。
    返回每一步的损失。
    """
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        loss = loss_fn(model, inputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
