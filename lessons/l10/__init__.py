"""第 10 讲 · 注意力：预测下一字，怎样读到前文？"""

# 一句话简介：首页课程目录里这一讲做什么（coursekit/extensions/crossref.py 不导入本包，直接读这一行）。
SUMMARY = "用查询、键、值向量算出读取比例，让每个位置读到前文"

# 本讲的实验，按正文顺序。python -m lessons.l10 依次运行它们；本讲的笔记本也按这个顺序生成。
EXPERIMENTS = [
    ("baseline", "开头的基线：直接平均与手工比例"),
    ("attention_2d", "构造的小例子：分数、比例、输出逐项展开"),
    ("component", "同一个例子用 tinylm 的 SelfAttention 重算，并逐步摊开"),
    ("projections", "Q 与 K 分开投影：分数可以不对称"),
    ("intervention", "固定 Q/K，只改第三行 V"),
    ("two_models", "回到开头：小丁喜欢红，小周喜欢黄"),
    ("exercises", "改数题"),
]
