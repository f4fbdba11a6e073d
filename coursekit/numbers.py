"""Numbers as a reader sees them, and whether a written number agrees with a live value.

Forms: 3, -2, −0.5, 0.4011, .1987, 2e-1, 40%, 2/3, with ASCII or full-width digits and points;
and the values a float holds beyond numbers, as torch prints them or as a reader writes them:
inf, -inf, −∞, ∞, +∞, nan, NaN (a word that merely starts so, info, infer, Infinity, nano, is no number).
A decimal agrees within half a unit of its last written digit (0.4011 means 0.40105…0.40115);
integers and fractions are exact; a percentage is read as a proportion (40% is 0.4); an infinity
agrees only with the same infinity, nan only with nan.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from numbers import Number

# Full-width forms, one character for one, so offsets in the normalized text are the source's.
_WIDE = str.maketrans("０１２３４５６７８９．％－＋＝／", "0123456789.%-+=/")

NUMBER_RE = re.compile(
    r"(?<![0-9A-Za-z_])(?<!(?<!\.)\.)"  # not inside a name (q0, v1.2); '...0.5' is fine
    r"(?:(?:[-−](?=\.?\d))?"
    r"(?:\d+/\d+(?![\d.])|(?:\d+\.\d+|(?<!\.)\.\d+|\d+)(?:[eE][-+]?\d+)?%?)"
    r"(?=(?:ms|s|x|k|K|M|G|KB|MB|GB)?(?![0-9A-Za-z_]))"  # 0.8s, 3x, 1.5k: a unit may follow
    r"|[-−+]?(?:∞|(?:inf|nan|NaN)(?![0-9A-Za-z_])))"  # -inf, −∞, nan; not info, infer, nano
)
EXACT = 1e-6  # integers and fractions are exact claims (up to float32 noise)


def normalize(text: str) -> str:
    return text.translate(_WIDE)


def special(token: str) -> bool:
    """An infinity or nan, not a number of digits."""
    return normalize(token).lstrip("+-−") in ("∞", "inf", "nan", "NaN")


def parse(token: str) -> float:
    """The value a written token stands for."""
    token = normalize(token).replace("−", "-")
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
    t = normalize(token).replace("−", "-").lower()
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
