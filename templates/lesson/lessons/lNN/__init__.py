"""第 NN 讲 · TITLE"""

# 本讲的实验，按正文顺序。python -m lessons.lNN 依次运行它们；本讲的笔记本也按这个顺序生成。
EXPERIMENTS = [
    ("example", "示例实验：换成本讲自己的实验"),
]
