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

# 改数练习的浏览器测试额外核对的改动，正文的每道改数题一项：（题名, 改后的 q₀, 改后的 V 第三行），不改的写 None。
WIDGET_CASES = [("第 1 题", None, [3., 2.]), ("第 2 题", [0., 0.], None)]

# 绑定基准（scripts/bench_bind.py）对本讲输入的改动：看 --bind 提议的表达式是否与作者写的一起变。
# 每项是（仓库里的文件, 原文, 改后）。改后本讲照常运行（断言关掉），位置、句子、颜色、步数和各处的值都变了。
INPUT_CHANGES = [
    ("lessons/l10/attention_2d.py", "[[1., 0.], [0., 1.], [1., 1.]]", "[[1.2, 0.1], [0.3, 1.5], [0.9, 1.1], [0.5, 2.]]"),
    ("lessons/l10/baseline.py", "[[1., 0.], [0., 2.], [1., 2.]]", "[[1.1, 0.2], [0.3, 2.4], [0.9, 1.7]]"),
    ("lessons/l10/baseline.py", "[0.5, 0.25, 0.25]", "[0.45, 0.3, 0.25]"),
    ("lessons/l10/projections.py", "[[0., 2.], [0., 0.]]", "[[0., 3.], [0.5, 0.]]"),
    ("lessons/l10/intervention.py", "changed_v[2, 0] = 3.", "changed_v[2, 0] = 4.5"),
    ("lessons/l10/two_models.py", "steps = 100", "steps = 60"),
    ("lessons/l10/two_models.py", '"早上，小周喜欢"]', '"早上，小周喜欢", "早上，小王喜欢"]'),
    ("lessons/l10/corpus.txt", "早上，小丁喜欢红花。", "早上，小丁喜欢红花。\n早上，小陈喜欢紫花。\n下午，小陈喜欢紫伞。"),
]

# 绑定基准的第二组改动，只用来检验（--bind 看不到它，不能拿它来挑候选）：Q 与 K 不再相同，每个位置的坐标变多，
# V 的投影、基线的向量与比例（多一个位置、多一个坐标）、键投影、干预的改法、模型宽度与步数都换了。
CHECK_CHANGES = [
    ("lessons/l10/attention_2d.py", "[[1., 0.], [0., 1.], [1., 1.]]", "[[.7, .2, .5], [.1, 1.3, -.4], [1.4, .6, .2], [.2, .9, 1.1], [1., -.5, .3]]"),
    ("lessons/l10/attention_2d.py", "wq = torch.eye(2, requires_grad=True)", "wq = torch.tensor([[1., .4, 0.], [-.3, 1.2, .1], [0., .2, .9]], requires_grad=True)"),
    ("lessons/l10/attention_2d.py", "wk = torch.eye(2, requires_grad=True)", "wk = torch.eye(3, requires_grad=True)"),
    ("lessons/l10/attention_2d.py", "[[1., 0.], [0., 2.]]", "[[.8, .3, 0.], [.1, 2.5, 0.], [0., .4, 1.5]]"),
    ("lessons/l10/exercises.py", "zero_q[0] = torch.tensor([0., 0.])", "zero_q[0] = torch.zeros(3)"),
    ("lessons/l10/baseline.py", "[[1., 0.], [0., 2.], [1., 2.]]", "[[.6, .1, .3], [.2, 1.8, .5], [1.3, 2.2, .1], [.4, .4, .9]]"),
    ("lessons/l10/baseline.py", "[0.5, 0.25, 0.25]", "[0.4, 0.3, 0.2, 0.1]"),
    ("lessons/l10/projections.py", "[[0., 2.], [0., 0.]]", "[[.2, 2.5], [0., .3]]"),
    ("lessons/l10/intervention.py", "changed_v[2, 0] = 3.", "changed_v[2, 0] = 2."),
    ("lessons/l10/two_models.py", "steps = 100", "steps = 70"),
    ("lessons/l10/two_models.py", "d_model=16", "d_model=12"),
]
