"""把数写成正文的样子。页面、交互演示和命令行都用这一个格式，所以这几处看到的数一字不差。"""

import math
from fractions import Fraction


PLACES = 4  # 页面上的小数保留几位（正文里写小数位数的地方绑定到它）


def num(x, places: int = PLACES) -> str:
    """四舍五入到 places 位小数；整数不带小数点，-0 写成 0。例：0.401112 → '0.4011'，2.0 → '2'。（示意）
    无穷大和非数照 torch 的写法（掩码把得分设成负无穷），例如 inf、-inf、nan。（示意）"""
    if not math.isfinite(float(x)):
        return str(float(x))  # 例如 'inf'、'-inf'、'nan'（示意）
    r = round(float(x), places)
    if r == int(r):
        return str(int(r))
    return f"{r:.{places}f}"


def vec(xs, places: int = PLACES) -> str:
    """一行数写成 [a, b, c]。"""
    return "[" + ", ".join(num(x, places) for x in xs) + "]"


def frac(x, limit: int = 100) -> str:
    """写成分母不超过 limit 的最简分数。inf、-inf、nan 照写。例：0.666667 → '2/3'，1.0 → '1'。（示意）"""
    if not math.isfinite(float(x)):
        return str(float(x))
    return str(Fraction(float(x)).limit_denominator(limit))


def fracs(xs, limit: int = 100) -> str:
    """一行数写成分数 [a/b, c/d]。"""
    return "[" + ", ".join(frac(x, limit) for x in xs) + "]"
