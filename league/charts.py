"""The positions chart: each entry's place after every round, as inline SVG coordinates."""

from dataclasses import dataclass

from .services.standings import StandingsTable

PALETTE = (
    "#0f5132",
    "#c0392b",
    "#1f6feb",
    "#b8860b",
    "#6f42c1",
    "#d63384",
    "#198754",
    "#fd7e14",
    "#0dcaf0",
    "#6c757d",
    "#20c997",
    "#8b4513",
)
WIDTH, ROW, LEFT, RIGHT, TOP = 720, 26, 40, 250, 24


@dataclass
class Line:
    name: str
    color: str
    points: str
    last_x: float
    last_y: float


@dataclass
class Chart:
    width: int
    height: int
    lines: list[Line]
    x_labels: list[tuple[float, int]]
    y_labels: list[tuple[float, int]]


def positions(table: StandingsTable) -> Chart | None:
    """None before any round has a counted result."""
    if not table.rounds or not table.standings:
        return None
    count = len(table.standings)
    height = TOP * 2 + ROW * (count - 1)
    span = max(len(table.rounds) - 1, 1)

    def x(i: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * i / span, 1)

    def y(position: int) -> float:
        return TOP + ROW * (position - 1)

    lines = []
    for i, row in enumerate(table.standings):
        places = table.positions.get(row.entry.pk, [])
        if not places:
            continue
        coords = [(x(n), y(p)) for n, p in enumerate(places)]
        lines.append(
            Line(
                name=row.entry.name,
                color=PALETTE[i % len(PALETTE)],
                points=" ".join(f"{cx},{cy}" for cx, cy in coords),
                last_x=coords[-1][0],
                last_y=coords[-1][1],
            )
        )
    return Chart(
        width=WIDTH,
        height=height,
        lines=lines,
        x_labels=[(x(n), number) for n, number in enumerate(table.rounds)],
        y_labels=[(y(p), p) for p in range(1, count + 1)],
    )
