"""every_position：第 10 讲的小语料，改成每个位置都预测下一字；再算出只看前文时每个位置最好能做到多少。"""
# --8<-- [start:data]
import math
from collections import Counter, defaultdict
from importlib import resources

from lessons.show import num, vec
from tinylm import Vocab, next_char_sequences

# 第 10 讲的同一份语料：小丁喜欢红的，小周喜欢黄的，小王喜欢绿的，小李喜欢蓝的。
corpus = resources.files("lessons.l10").joinpath("corpus.txt").read_text(encoding="utf-8")
sentences = corpus.split()
vocab = Vocab(corpus)
# 上文的长度与第 10 讲相同；答案不再只有一个，而是每个位置后面紧接的那个字。
inputs, targets = next_char_sequences(sentences, vocab, context=7)
print(f"样本 {len(inputs)} 个，每个 {inputs.shape[-1]} 个位置，一共 {targets.numel()} 个要预测的字")
print("输入：", vocab.decode(inputs[0]))
print("答案：", vocab.decode(targets[0]))
# --8<-- [end:data]

# --8<-- [start:floor]
def best_losses(inputs, targets):
    """只看前文时，每个位置平均损失的下限 [位置]。

    前文相同的样本，下一字却不同，谁也分不清；最好的猜法是按它们出现的次数分比例，
    这时的交叉熵就是下限。模型的损失若低于它，一定用了前文以外的东西。
    """
    floor = []
    for t in range(inputs.shape[-1]):
        seen = defaultdict(Counter)  # 前文（位置 0…t）→ 各个下一字出现的次数
        for x, y in zip(inputs.tolist(), targets.tolist()):
            seen[tuple(x[: t + 1])][y[t]] += 1
        total = sum(-n * math.log(n / sum(c.values())) for c in seen.values() for n in c.values())
        floor.append(total / len(inputs))
    return floor


floor = best_losses(inputs, targets)
print("只看前文时，各位置损失的下限：", vec(floor))
print("平均下限：", num(sum(floor) / len(floor)))
# --8<-- [end:floor]

# 读到“早上，小”，下一字要猜名字：语料里各个名字跟在“小”后面出现几次。
# 只看前文时最好的猜法按次数分比例，每个名字分到的比例就是 name_shares；次数一样多，比例也就一样。
name_counts = Counter(s[s.index("小") + 1] for s in sentences)
name_shares = [n / sum(name_counts.values()) for n in name_counts.values()]
