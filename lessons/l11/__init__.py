"""第 11 讲 · 掩码：不许偷看后文"""

# 首页课程目录里的一句话简介。
SUMMARY = "给读取比例加上因果掩码，每个位置只读自己和前文，训练时不再偷看后面的答案"

# 本讲的实验，按正文顺序。python -m lessons.l11 依次运行它们；本讲的笔记本也按这个顺序生成。
EXPERIMENTS = [
    ("every_position", "每个位置都预测下一字：样本、答案与只看前文时的最好成绩"),
    ("shortcut", "不加掩码、每个位置都算损失：模型读到了答案"),
    ("mask_by_hand", "在第 10 讲的构造例子上手算掩码"),
    ("masked_model", "加上掩码再训练：回到小丁和小周"),
    ("exercises", "改数题"),
]

# 构建时每个实验文件（以及页面上每个执行的代码块）最多运行这么多秒；要训练较久的一讲可以调大。
TIME_LIMIT = 60

# 改数练习的浏览器测试额外核对的改动：第 2 题里换的 q₀，和正文里对 V 第三行的那一改。
WIDGET_CASES = [("第 2 题", [2., -1.], None), ("V 第三行改为 [3, 2]", None, [3., 2.])]

# 绑定基准（scripts/bench_bind.py）对本讲输入的改动：看 --bind 提议的表达式是否与作者写的一起变。
# 每项是（仓库里的文件, 原文, 改后）。改后本讲照常运行（断言关掉），句子、名字、步数和各处的值都变了。
INPUT_CHANGES = [
    ("lessons/l10/attention_2d.py", "[[1., 0.], [0., 1.], [1., 1.]]", "[[1.2, 0.1], [0.3, 1.5], [0.9, 1.1]]"),
    ("lessons/l11/mask_by_hand.py", "changed_v[2, 0] = 3.", "changed_v[2, 0] = 4.5"),
    ("lessons/l11/shortcut.py", "steps=100", "steps=60"),
    ("lessons/l11/masked_model.py", '"早上，小周喜欢"]', '"早上，小周喜欢", "早上，小王喜欢"]'),
    ("lessons/l10/corpus.txt", "早上，小丁喜欢红花。", "早上，小丁喜欢红花。\n早上，小陈喜欢紫花。\n下午，小陈喜欢紫伞。"),
]

# 绑定基准的第二组改动，只用来检验（--bind 看不到它，不能拿它来挑候选）：Q 与 K 不再相同，每个位置的坐标变多，
# V 的投影、干预的改法、第 1 题清零的那一行、上文长度、模型宽度与步数都换了。
CHECK_CHANGES = [
    ("lessons/l10/attention_2d.py", "[[1., 0.], [0., 1.], [1., 1.]]", "[[.7, .2, .5], [.1, 1.3, -.4], [1.4, .6, .2]]"),
    ("lessons/l10/attention_2d.py", "wq = torch.eye(2, requires_grad=True)", "wq = torch.tensor([[1., .4, 0.], [-.3, 1.2, .1], [0., .2, .9]], requires_grad=True)"),
    ("lessons/l10/attention_2d.py", "wk = torch.eye(2, requires_grad=True)", "wk = torch.eye(3, requires_grad=True)"),
    ("lessons/l10/attention_2d.py", "[[1., 0.], [0., 2.]]", "[[.8, .3, 0.], [.1, 2.5, 0.], [0., .4, 1.5]]"),
    ("lessons/l11/mask_by_hand.py", "changed_v[2, 0] = 3.", "changed_v[2, 0] = 2.5"),
    ("lessons/l11/exercises.py", "zero_q2[2] = torch.tensor([0., 0.])", "zero_q2[2] = torch.tensor([.5, -1., .2])"),
    ("lessons/l11/exercises.py", "torch.randn(2, generator=gen)", "torch.randn(3, generator=gen)"),
    ("lessons/l11/every_position.py", "context=7", "context=6"),
    ("lessons/l11/shortcut.py", "steps=100", "steps=80"),
    ("lessons/l11/shortcut.py", "d_model=16", "d_model=12"),
]
