"""每个位置都预测下一字（第 11 讲加入）：一段上文给出与位置数一样多的样本，不只最后一个。

第 10 讲只在最后位置算损失；有了掩码，前面的位置读不到答案，也可以一起训练。
"""

import torch
import torch.nn.functional as F


def next_char_sequences(sentences, vocab, context):
    """每句切成样本：连续 context 个字作输入，每个位置的答案是它后面紧接的那个字。

    返回 inputs [样本, 位置] 与 targets [样本, 位置]：targets 就是 inputs 向后错一个字。
    """
    inputs, targets = [], []
    for sentence in sentences:
        ids = vocab.encode(sentence)
        for end in range(context, len(ids)):
            inputs.append(ids[end - context:end])
            targets.append(ids[end - context + 1:end + 1])
    return torch.stack(inputs), torch.stack(targets)


def every_position_loss(model, inputs, targets):
    """每个位置的打分都与它的答案算交叉熵，再取平均。"""
    logits = model(inputs)  # [样本, 位置, 词表]
    return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def position_losses(model, inputs, targets):
    """每个位置单独的平均损失 [位置]：看哪些位置猜得准、哪些位置还在猜。"""
    with torch.no_grad():
        logits = model(inputs)
        losses = F.cross_entropy(logits.flatten(0, 1), targets.flatten(), reduction="none")
    return losses.view(targets.shape).mean(dim=0)
