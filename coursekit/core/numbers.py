"""Numbers as a reader sees them, and whether a written number agrees with a live value.

Forms: 3, -2, −0.5, 0.4011, .1987, 2e-1, 40%, 2/3, with ASCII or full-width digits and points;
and the values a float holds beyond numbers, as torch prints them or as a reader writes them:
inf, -inf, −∞, ∞, +∞, nan, NaN (a word that merely starts so, info, infer, Infinity, nano, is no number);
and Chinese numerals: a count before a measure word (三个, 两行, 十二维, 一百零五步), 几分之几 (三分之二)
and 百分之几 (百分之四十). A run that is no single numeral (两三个, 十几个: an estimate) is no number.
A decimal agrees within half a unit of its last written digit (0.4011 means 0.40105…0.40115);
integers and fractions are exact; a percentage is read as a proportion (40% is 0.4); 百分之四十 is read
as 40%; an infinity agrees only with the same infinity, nan only with nan.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from numbers import Number

from coursekit.core import lexicon

# Full-width forms, one character for one, so offsets in the normalized text are the source's.
_WIDE = str.maketrans("０１２３４５６７８９．％－＋＝／", "0123456789.%-+=/")

# Measure words after which a Chinese numeral counts something (三个, 两行, 四维, 十二句, 三处).
COUNTERS = lexicon.LEXICON.counters()
_CN = "零〇一二两三四五六七八九十百千万"
CHINESE_RE = re.compile(
    rf"(?<![{_CN}几数近上好])(?:(?:[{_CN}]+|百)分之[{_CN}]+|[{_CN}]+(?=[ \t*_」』”]*(?:{COUNTERS})|"
    rf"[ \t]*[到至~～][ \t]*[{_CN}]+[ \t]*(?:{COUNTERS})))"
)
_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
DIGITS_RE = re.compile(
    r"(?<![0-9A-Za-zα-ωΑ-Ωℓ_])(?<!(?<!\.)\.)"  # not inside a name (q0, v1.2, β2); '...0.5' is fine
    r"(?:(?:[-−–](?=\.?\d))?"
    r"(?:\d+/\d+(?![\d.])|(?:\d+\.\d+|(?<!\.)\.\d+|\d+)(?:[eE][-+]?\d+)?%?)"
    r"(?=(?:ms|s|x|k|K|M|G|KB|MB|GB)?(?![0-9A-Za-z_]))"  # 0.8s, 3x, 1.5k: a unit may follow
    r"|[-−+]?(?:∞|(?:inf|nan|NaN)(?![0-9A-Za-z_])))"  # -inf, −∞, nan; not info, infer, nano
)
# Every number form, digits or Chinese: a Chinese run that is no numeral (两三, 十几) is filtered by `chinese`.
NUMBER_RE = re.compile(f"{DIGITS_RE.pattern}|{CHINESE_RE.pattern}")


def chinese(token: str) -> bool:
    return bool(token) and token[0] in _CN


def chinese_value(token: str) -> float | None:
    """三 → 3, 十二 → 12, 一百零五 → 105, 两千 → 2000, 三分之二 → 2/3, 百分之四十 → 0.4; None when the
    run is no single numeral (两三, 一一, 三四五: an estimate or two numbers)."""
    if "分之" in token:
        below, above = token.split("分之", 1)
        top = _integer(above)
        if below == "百":
            return None if top is None else top / 100
        bottom = _integer({"十": "一十", "千": "一千", "万": "一万"}.get(below, below))  # 千分之三
        return None if top is None or not bottom else top / bottom
    value = _integer(token)
    return None if value is None else float(value)


def _integer(text: str) -> int | None:
    if "万" in text:
        high, _, low = text.partition("万")
        high_value = _integer(high) if high else 1
        low_value = _integer(low) if low else 0
        return None if high_value is None or low_value is None else high_value * 10000 + low_value
    total, digit, last_unit, zero = 0, None, 10000, False
    for c in text:
        if c in _CN_DIGIT:
            if digit is not None:
                return None  # two digits in a row: 两三, 一一
            digit = _CN_DIGIT[c]
            if digit == 0:
                zero, digit = True, None
        elif c in _CN_UNIT:
            unit = _CN_UNIT[c]
            if unit >= last_unit or (digit is None and not (unit == 10 and total == 0 and not zero)):
                return None
            total += (1 if digit is None else digit) * unit
            digit, last_unit, zero = None, unit, False
        else:
            return None
    if digit is not None:
        if last_unit > 10 and total and not zero and last_unit != 10000:
            return None  # 三百五 is colloquial for 350; write 三百五十
        total += digit
    elif zero and total == 0 and text not in ("零", "〇"):
        return None
    return total


def to_chinese(n: int, like: str = "") -> str | None:
    """n (0…99999) as a Chinese numeral, with 两 for a leading 2 when `like` wrote one."""
    if not 0 <= n < 100000:
        return None
    if n == 0:
        return "零"
    digits = "零一二三四五六七八九"
    out, units, pending_zero = "", [(10000, "万"), (1000, "千"), (100, "百"), (10, "十"), (1, "")], False
    started = False
    for value, name in units:
        d = n // value % 10
        if d:
            if pending_zero:
                out += "零"
            out += ("" if (d == 1 and value == 10 and not started) else digits[d]) + name
            started, pending_zero = True, False
        elif started:
            pending_zero = True
    if like.startswith("两") and out.startswith("二") and (len(out) == 1 or out[1] != "十"):
        out = "两" + out[1:]
    return out
EXACT = 1e-6  # integers and fractions are exact claims (up to float32 noise)


def normalize(text: str) -> str:
    return text.translate(_WIDE)


def special(token: str) -> bool:
    """An infinity or nan, not a number of digits."""
    return normalize(token).lstrip("+-−") in ("∞", "inf", "nan", "NaN")


def parse(token: str) -> float:
    """The value a written token stands for."""
    if chinese(token):
        value = chinese_value(token)
        if value is None:
            raise ValueError(f"not a Chinese numeral: {token}")
        return value
    token = normalize(token).replace("−", "-").replace("–", "-")
    if special(token):
        if token.lstrip("+-") in ("nan", "NaN"):
            return math.nan
        return -math.inf if token.startswith("-") else math.inf
    if token.endswith("%"):
        return parse(token[:-1]) / 100
    if "/" in token:
        return float(Fraction(token))
    return float(token)


def places(token: str) -> int | None:
    """Decimal places written (in the mantissa, as a proportion for percentages); None: exact."""
    if special(token):
        return None
    if chinese(token):
        return 2 if token.startswith("百分之") else None  # 百分之四十 is 40%
    t = normalize(token).replace("−", "-").replace("–", "-").lower()
    scale = 2 if t.endswith("%") else 0
    t = t.rstrip("%")
    if "/" in t:
        return None
    mantissa, _, exponent = t.partition("e")
    if "." not in mantissa:
        return None if not exponent and not scale else scale - int(exponent or 0)
    return len(mantissa.split(".")[1]) + scale - int(exponent or 0)


def tolerance(token: str) -> float:
    if special(token):
        return 0.0
    p = places(token)
    if p is None:
        return EXACT * max(1.0, abs(parse(token)))
    return 0.5 * 10.0**-p + 1e-12


def agrees(token: str, live: float) -> bool:
    written = parse(token)
    if math.isnan(written) or math.isnan(live):
        return math.isnan(written) and math.isnan(live)
    if math.isinf(written) or math.isinf(live):
        return written == live
    return abs(written - live) <= tolerance(token)


def rewrite(token: str, live: float) -> str | None:
    """`live` written the way `token` is (same places, percent, minus sign); None if it can't be.
    An infinity or nan is written as torch prints it (inf, -inf, nan), or as ∞ / NaN if `token` was."""
    t = normalize(token)
    if chinese(t):
        if "分之" in t or abs(live - round(live)) > EXACT * max(1.0, abs(live)):
            return None
        return to_chinese(round(live), t)
    if not math.isfinite(live):
        if math.isnan(live):
            return "NaN" if "NaN" in t else "nan"
        infinity = "∞" if "∞" in t else "inf"
        if live < 0:
            return ("−" if "−" in t else "-") + infinity
        return ("+" if t.startswith("+") else "") + infinity
    if "/" in t or "e" in t.lower():
        return None
    minus = "−" if "−" in t else "-"
    if t.endswith("%"):
        body = rewrite(t[:-1], live * 100)
        return None if body is None else body + "%"
    decimals = len(t.split(".")[1]) if "." in t else 0
    if decimals == 0 and abs(live - round(live)) > EXACT * max(1.0, abs(live)):
        return None
    text = f"{live:.{decimals}f}"
    if t.startswith(".") and text.startswith("0."):
        text = text[1:]
    return text.replace("-", minus) if text.startswith("-") else text


def flatten(*values) -> list[float]:
    """Tensors, arrays, numbers, shapes and nested lists of them, as one flat list of floats."""
    out: list[float] = []
    for value in values:
        if hasattr(value, "detach"):  # torch.Tensor
            value = value.detach().tolist()
        elif hasattr(value, "tolist"):  # numpy
            value = value.tolist()
        if isinstance(value, (list, tuple)):  # torch.Size is a tuple
            out.extend(flatten(*value))
        elif isinstance(value, Number):
            out.append(float(value))
        else:
            raise TypeError(f"绑定的值要是数、张量或它们的列表，收到 {type(value).__name__}: {value!r:.80}")
    return out


def show(live: float) -> str:
    return f"{live:.6g}"
