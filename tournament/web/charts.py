"""Small charts drawn on the server as SVG: a line chart and a bar chart (also a histogram).

No JavaScript and nothing from the internet. Each chart comes with the same numbers as a table
(`Chart.headers`, `Chart.rows`) that the page shows under the drawing, so a screen reader, a
printer or anyone who wants exact values reads the table. The drawing has a `<title>` and a
`<desc>` saying so.

The SVG scales to the width of its container (`width="100%"` and a `viewBox`); its coordinate
system is 360 units wide so that labels stay readable on a 360 px phone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

WIDTH = 360
HEIGHT = 230
LEFT = 48
RIGHT = 12
TOP = 14
BOTTOM = 40
LEGEND = 18
FONT = 13
CHAR = 7  # about the width of a character of the labels, in SVG units
STAGGER = 13  # how far the second line of crowded axis labels sits below the first

# Distinct colours with enough contrast on white; lines also differ by dash and marker shape.
COLOURS = ("#0b6e4f", "#b3471b", "#2f4fa8", "#7a3d8c")
DASHES = ("", "6 4", "2 3", "8 3 2 3")


@dataclass(frozen=True)
class Series:
    """One line or one set of bars; None is a missing value (no point, no bar)."""

    name: str
    values: Sequence[float | int | None]


@dataclass(frozen=True)
class Chart:
    title: str
    svg: SafeString
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.svg


def nice_ticks(low: float, high: float, count: int = 5, integer: bool = False) -> list[float]:
    """About `count` round tick values (steps of 1, 2 or 5 times a power of ten) covering
    `low`..`high`, always including them."""
    if high < low:
        low, high = high, low
    if high == low:
        # One value (a chart with one point, or a flat line): an axis from zero to it, so
        # that 50 is drawn as 50 on an axis 0-60, not in the middle of 49-51.
        low, high = (min(0, low), max(0, high)) if low else (0, 1)
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, round(step))
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step * 1e-9:
        ticks.append(value)
        value += step
    if ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return [round(tick, 10) for tick in ticks]


def _number(value: float | int | None) -> str:
    if value is None:
        return "–"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.1f}"
    return str(int(value)).replace("-", "−")


def _ident(title: str) -> str:
    return "chart-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "x")


def _open(title: str, description: str) -> list[str]:
    ident = _ident(title)
    return [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="100%" role="img" aria-labelledby="{ident}-title {ident}-desc" '
        f'font-size="{FONT}" font-family="system-ui, sans-serif">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(description)}</desc>',
    ]


def _legend(series: Sequence[Series], markers: bool) -> list[str]:
    if len(series) < 2:
        return []
    parts = []
    x = LEFT
    for index, one in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        if markers:
            dash = DASHES[index % len(DASHES)]
            parts.append(
                f'<line x1="{x}" y1="{TOP - 4}" x2="{x + 18}" y2="{TOP - 4}" stroke="{colour}" '
                f'stroke-width="2.5" stroke-dasharray="{dash}"/>'
            )
        else:
            parts.append(
                f'<rect x="{x}" y="{TOP - 10}" width="12" height="12" fill="{colour}"'
                f"{_hatch(index)}/>"
            )
        label = escape(one.name)
        parts.append(f'<text x="{x + 22}" y="{TOP}" fill="#1d2326">{label}</text>')
        x += 30 + 7 * len(one.name)
    return parts


def _hatch(index: int) -> str:
    """Bars of the second series get a dark outline, so the series differ without colour."""
    return ' stroke="#1d2326" stroke-width="1.5"' if index % 2 else ""


def _y_axis(
    ticks: Sequence[float],
    scale: Callable[[float], float],
    top: float,
    bottom: float,
    integer_labels: bool,
    label: str,
) -> list[str]:
    parts = []
    for tick in ticks:
        y = scale(tick)
        stroke = "#8a949c" if tick == 0 and len(ticks) > 1 else "#e3e0d8"
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="{stroke}"/>'
        )
        text = _number(int(tick) if integer_labels or float(tick).is_integer() else tick)
        parts.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#3d474f">{text}</text>'
        )
    if label:
        middle = (top + bottom) / 2
        parts.append(
            f'<text transform="translate(11 {middle:.1f}) rotate(-90)" text-anchor="middle" '
            f'fill="#3d474f">{escape(label)}</text>'
        )
    return parts


def _staggered(labels: Sequence[str], slot: float) -> bool:
    """Whether the labels under the axis are too wide for their slots and take two lines."""
    return any(len(label) * CHAR > slot - 4 for label in labels)


def _x_labels(
    labels: Sequence[str], centre: Callable[[int], float], x_label: str, stagger: bool
) -> list[str]:
    parts = []
    step = max(1, math.ceil(len(labels) / 12))  # at most about 12 labels on the axis
    axis = HEIGHT - BOTTOM - (STAGGER if stagger else 0)
    for index, label in enumerate(labels):
        if index % step and index != len(labels) - 1:
            continue
        y = axis + 16 + (STAGGER if stagger and index % 2 else 0)
        parts.append(
            f'<text x="{centre(index):.1f}" y="{y}" text-anchor="middle" '
            f'fill="#3d474f">{escape(label)}</text>'
        )
    if x_label:
        parts.append(
            f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle" '
            f'fill="#3d474f">{escape(x_label)}</text>'
        )
    return parts


def _table(labels: Sequence[str], series: Sequence[Series], first: str) -> tuple[list, list]:
    headers = [first, *(one.name for one in series)]
    rows = [
        [label, *(_number(one.values[index]) for one in series)]
        for index, label in enumerate(labels)
    ]
    return headers, rows


def _values(series: Sequence[Series]) -> list[float]:
    return [value for one in series for value in one.values if value is not None]


def line_chart(
    *,
    title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    x_label: str = "",
    y_label: str = "",
    invert: bool = False,
    integer: bool = True,
    floor: float | None = None,
    ceiling: float | None = None,
) -> Chart:
    """Lines through one point per label. `invert` puts the lowest value at the top (ranks);
    `floor` is the least value the axis shows (1 for ranks, 0 for counts), `ceiling` a value it
    reaches at least (the number of ranked players, for ranks)."""
    headers, rows = _table(labels, series, x_label or "")
    values = _values(series)
    if not labels or not values:
        return Chart(title, mark_safe(""), headers, rows)
    low, high = min(values), max(values)
    if floor is not None:
        low = min(low, floor)
    if ceiling is not None:
        high = max(high, ceiling)
    ticks = nice_ticks(low, high, integer=integer)
    if floor is not None:
        # The floor is a tick; one just above it would crowd it (1 and 2 on an axis of 2s).
        gap = (ticks[1] - ticks[0]) / 2 if len(ticks) > 1 else 0
        ticks = sorted({floor, *(tick for tick in ticks if tick > floor + gap or tick == floor)})
    if len(ticks) < 2:  # e.g. one rank of 1: an axis 1-2, not a single tick
        ticks.append(ticks[-1] + (1 if integer else ticks[-1] or 1))
    low, high = min(ticks[0], low), max(ticks[-1], high)
    inner = WIDTH - RIGHT - LEFT - 20
    gap = inner / max(len(labels) - 1, 1)
    step = max(1, math.ceil(len(labels) / 12))
    stagger = _staggered(labels, gap * step)
    top = TOP + (LEGEND if len(series) > 1 else 0)
    bottom = HEIGHT - BOTTOM - (STAGGER if stagger else 0)
    span = (high - low) or 1

    def scale(value: float) -> float:
        share = (value - low) / span
        return top + share * (bottom - top) if invert else bottom - share * (bottom - top)

    def centre(index: int) -> float:
        return LEFT + 10 + (index * gap if len(labels) > 1 else inner / 2)

    parts = _open(title, _("A line chart. The numbers are in the table below it."))
    parts += _legend(series, markers=True)
    parts += _y_axis(ticks, scale, top, bottom, integer, y_label)
    parts += _x_labels(labels, centre, x_label, stagger)
    for index, one in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        dash = DASHES[index % len(DASHES)]
        points = [
            (centre(position), scale(value))
            for position, value in enumerate(one.values)
            if value is not None
        ]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5" '
                f'stroke-dasharray="{dash}" stroke-linejoin="round"/>'
            )
        for x, y in points:
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"/>')
    parts.append("</svg>")
    return Chart(title, mark_safe("".join(parts)), headers, rows)


def bar_chart(
    *,
    title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    x_label: str = "",
    y_label: str = "",
    histogram: bool = False,
) -> Chart:
    """Bars from zero, one group per label and one bar per series in a group.

    A histogram (`histogram=True`) draws the bars of one series side by side with no gap, as
    the counts of neighbouring ranges."""
    headers, rows = _table(labels, series, x_label or "")
    values = _values(series)
    if not labels or not values:
        return Chart(title, mark_safe(""), headers, rows)
    ticks = nice_ticks(min(0, *values), max(0, *values), integer=True)
    low, high = ticks[0], ticks[-1]
    inner = WIDTH - RIGHT - LEFT
    group = inner / len(labels)
    stagger = _staggered(labels, group * max(1, math.ceil(len(labels) / 12)))
    top = TOP + (LEGEND if len(series) > 1 else 0)
    bottom = HEIGHT - BOTTOM - (STAGGER if stagger else 0)
    span = (high - low) or 1

    def scale(value: float) -> float:
        return bottom - (value - low) / span * (bottom - top)

    padding = 0 if histogram else group * 0.2
    bar = (group - 2 * padding) / len(series)

    def centre(index: int) -> float:
        return LEFT + group * (index + 0.5)

    parts = _open(title, _("A bar chart. The numbers are in the table below it."))
    parts += _legend(series, markers=False)
    parts += _y_axis(ticks, scale, top, bottom, True, y_label)
    parts += _x_labels(labels, centre, x_label, stagger)
    for index, one in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        for position, value in enumerate(one.values):
            if value is None:
                continue
            x = LEFT + group * position + padding + bar * index
            y0, y1 = sorted((scale(0), scale(value)))
            inset = 0.5 if histogram else 0
            parts.append(
                f'<rect x="{x + inset:.1f}" y="{y0:.1f}" width="{bar - 2 * inset:.1f}" '
                f'height="{y1 - y0:.1f}" fill="{colour}"{_hatch(index)}>'
                f"<title>{escape(labels[position])}: {_number(value)}</title></rect>"
            )
    parts.append("</svg>")
    return Chart(title, mark_safe("".join(parts)), headers, rows)
