"""Figures drawn at build time from live values, as inline SVG (no image files, no scripts)."""

from __future__ import annotations

from html import escape

from coursekit.core import numbers


def read_proportions(row, query: str, keys: list[str], caption: str) -> str:
    """One query's proportions over the readable positions, laid out horizontally as bars."""
    values = numbers.flatten(row)
    width, height, top, base = 120 * len(values) + 40, 230, 40, 170
    full = 0.5 if max(values) <= 0.5 else 1.0  # bar height scale: proportions run from 0 to `full`
    bars = []
    for i, (value, key) in enumerate(zip(values, keys)):
        x = 40 + 120 * i
        h = (base - top) * value / full
        bars.append(
            f'<rect class="bar" x="{x + 20}" y="{base - h:.1f}" width="60" height="{h:.1f}" rx="3"/>'
            f'<text class="value" x="{x + 50}" y="{base - h - 8:.1f}">{value:.4f}</text>'
            f'<text class="key" x="{x + 50}" y="{base + 24}">{escape(key)}</text>'
        )
    summary = "，".join(f"{k} {v:.4f}" for k, v in zip(keys, values))
    return (
        f'<figure class="tl-figure"><svg viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="fig-title fig-desc" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="fig-title">{escape(query)} 的读取比例</title>'
        f'<desc id="fig-desc">{escape(summary)}</desc>'
        f'<text class="query" x="{width / 2}" y="22">{escape(query)} 读取各位置的比例</text>'
        f'<line class="axis" x1="40" y1="{base}" x2="{width - 20}" y2="{base}"/>'
        f'<line class="grid" x1="40" y1="{top}" x2="{width - 20}" y2="{top}"/>'
        f'<text class="scale" x="36" y="{top + 4}">{full:g}</text>'
        f'<text class="scale" x="36" y="{base + 4}">0</text>'
        + "".join(bars)
        + f'<text class="axis-label" x="{width / 2}" y="{base + 50}">K 的位置轴（可读取的位置）</text>'
        f"</svg><figcaption>{escape(caption)}</figcaption></figure>"
    )
