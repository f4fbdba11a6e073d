"""第 NN 讲 · TITLE"""

# 一句话简介：首页课程目录里这一讲做什么（coursekit/extensions/crossref.py 不导入本包，直接读这一行）。
SUMMARY = "LESSON_SUMMARY"

# 本讲的实验，按正文顺序。python -m lessons.lNN 依次运行它们；本讲的笔记本也按这个顺序生成。
EXPERIMENTS = [
    ("example", "示例实验：换成本讲自己的实验"),
]

# 构建时每个实验文件（以及页面上每个执行的代码块）最多运行这么多秒；要训练较久的一讲可以调大。
TIME_LIMIT = 60
