"""Numbers as an article writes them, and whether a written number agrees with a live value."""

from __future__ import annotations

import re
from fractions import Fraction
from numbers import Number

# A number token: an integer fraction (2/3), a decimal (0.4011) or an integer (3).
# Not preceded by an ASCII letter, digit, '_' or '.', so "q0", "v1.2" and the "5" of
# "2.0281/5.0562" are not mistaken for numbers; "q₀" (subscript) and "第0坐标" are fine.
NUMBER = r"(?<![0-9A-Za-z_.])[-−]?(?:\d+/\d+(?![\d.])|\d+(?:\.\d+)?)"
NUMBER_RE = re.compile(NUMBER)
# Numbers that must be bound when they stand in prose: decimals and fractions.
NON_INTEGER_RE = re.compile(r"(?<![0-9A-Za-z_.])[-−]?(?:\d+/\d+(?![\d.])|\d+\.\d+)")

EXACT = 1e-6  # integers and fractions are exact claims


def parse(token: str) -> float:
    """The value a written token stands for ('−' and '-' are both minus)."""
    token = token.replace("−", "-")
    if "/" in token:
        return float(Fraction(token))
    return float(token)


def tolerance(token: str) -> float:
    """Half a unit of the last written digit for decimals; exact for integers and fractions."""
    if "." in token and "/" not in token:
        decimals = len(token.split(".")[1])
        return 0.5 * 10.0**-decimals + 1e-12
    return EXACT * max(1.0, abs(parse(token)))


def agrees(token: str, live: float) -> bool:
    return abs(parse(token) - live) <= tolerance(token)


def flatten(*values) -> list[float]:
    """Tensors, arrays, numbers and nested lists of them, as one flat list of floats."""
    out: list[float] = []
    for value in values:
        if hasattr(value, "detach"):  # torch.Tensor
            value = value.detach().tolist()
        elif hasattr(value, "tolist"):  # numpy
            value = value.tolist()
        if isinstance(value, (list, tuple)):
            out.extend(flatten(*value))
        elif isinstance(value, Number):
            out.append(float(value))
        else:
            raise TypeError(f"cannot bind a value of type {type(value).__name__}: {value!r}")
    return out


def show(live: float) -> str:
    return f"{live:.6g}"
