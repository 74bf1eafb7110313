"""A player's rating history as the coordinates of an inline SVG line chart.

Coordinates are numbers for the SVG (the template turns localisation off around it); the
labels are localised strings.
"""

from dataclasses import dataclass
from datetime import datetime

from django.utils.formats import date_format, number_format

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 220, 48, 16, 14, 30
TICKS = 4


@dataclass
class LineChart:
    width: int
    height: int
    left: int  # where the plot starts; the rating labels end just before it
    label_x: int
    points: str
    last_x: float
    last_y: float
    y_labels: list[tuple[float, str]]  # (y, label): horizontal guides
    x_labels: list[tuple[float, str, str]]  # (x, label, text-anchor)


def line_chart(values: list[float], dates: list[datetime]) -> LineChart | None:
    """The chart of `values` in order, one step per match; None below two values."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    span = len(values) - 1

    def x(i: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * i / span, 1)

    def y(value: float) -> float:
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low), 1)

    coords = [(x(i), y(v)) for i, v in enumerate(values)]
    guides = [low + (high - low) * n / (TICKS - 1) for n in range(TICKS)]
    return LineChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        label_x=LEFT - 6,
        points=" ".join(f"{cx},{cy}" for cx, cy in coords),
        last_x=coords[-1][0],
        last_y=coords[-1][1],
        y_labels=[(y(value), number_format(value, 1)) for value in guides],
        x_labels=[
            (x(0), date_format(dates[0], "SHORT_DATE_FORMAT"), "start"),
            (x(span), date_format(dates[-1], "SHORT_DATE_FORMAT"), "end"),
        ],
    )
