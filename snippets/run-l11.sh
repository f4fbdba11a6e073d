# 在配套代码目录运行本讲实验，核对正文中的结果。
python -m lessons.l11
