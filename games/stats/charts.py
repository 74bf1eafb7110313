"""The statistics page's charts: rows of horizontal bars drawn as inline SVG.

Each bar is its own small SVG (a 100-unit track), so the labels and figures beside it stay
HTML text that wraps and reads at any width. Widths are numbers for the SVG; the template
turns localisation off around them.
"""

from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.forms import NAME_LABELS

from .selectors import Figures, RuleSetStats

WON, LOST, TIED = "won", "lost", "tied"


@dataclass
class Segment:
    tone: str  # won, lost or tied: the colour
    x: float
    width: float


@dataclass
class Bar:
    label: str
    value: str  # the figure shown beside the bar
    note: str  # a second line under the label, or ""
    segments: list[Segment]


@dataclass
class Chart:
    title: str
    bars: list[Bar]
    legend: bool = False  # won/lost colours explained under the chart


def rule_set_label(name: str) -> str:
    """A rule set's name as the forms give it ("VOG, 2 players" for a form without one)."""
    label = NAME_LABELS.get(name)
    if label is not None:
        return str(label)
    base, _sep, players = name.rpartition("_")
    if players in ("2p", "3p") and base in NAME_LABELS:
        return _("%(rules)s, %(n)s players") % {"rules": NAME_LABELS[base], "n": players[0]}
    return name


def percent(value: float | None) -> str:
    return "–" if value is None else f"{number_format(value * 100, 0)}\u00a0%"


def _segments(parts: list[tuple[str, int]], scale: int) -> list[Segment]:
    segments, x = [], 0.0
    for tone, count in parts:
        width = round(100 * count / scale, 2) if scale else 0
        if width:
            segments.append(Segment(tone, x, width))
            x += width
    return segments


def endings(f: Figures) -> Chart:
    """How the player's hands ended: won and lost by domino (capicúas among them), by
    tranque, and by a referee's award (shown when there are any)."""
    capicuas = _("of which capicúas: %(n)s")
    rows = [
        (_("Dominoes won"), WON, f.dominoes_won, f.capicuas_won, True),
        (_("Tranques won"), WON, f.tranques_won, 0, True),
        (_("Dominoes lost"), LOST, f.dominoes_lost, f.capicuas_lost, True),
        (_("Tranques lost"), LOST, f.tranques_lost, 0, True),
        (_("Tied tranques"), TIED, f.tranques_tied, 0, False),
        (_("Awarded by a referee"), WON, f.awarded_won, 0, False),
        (_("Lost by a referee's award"), LOST, f.awarded_lost, 0, False),
    ]
    scale = max(row[2] for row in rows)
    bars = [
        Bar(
            label=label,
            value=number_format(count, force_grouping=True),
            note=capicuas % {"n": number_format(extra, force_grouping=True)} if extra else "",
            segments=_segments([(tone, count)], scale),
        )
        for label, tone, count, extra, always in rows
        if count or always
    ]
    return Chart(_("How the hands ended"), bars)


def passes(f: Figures) -> Chart:
    scale = max(f.passes_forced, f.passes_suffered)
    per_hand = _("%(n)s a hand")

    def note(count: int) -> str:
        return per_hand % {"n": number_format(count / f.hands, 2)} if f.hands else ""

    return Chart(
        _("Passes"),
        [
            Bar(
                _("Forced on opponents"),
                number_format(f.passes_forced, force_grouping=True),
                note(f.passes_forced),
                _segments([(WON, f.passes_forced)], scale),
            ),
            Bar(
                _("Suffered"),
                number_format(f.passes_suffered, force_grouping=True),
                note(f.passes_suffered),
                _segments([(LOST, f.passes_suffered)], scale),
            ),
        ],
    )


def _won_lost(label: str, f: Figures, scale: int, note: str = "") -> Bar:
    tied = f.hands - f.hands_won - f.hands_lost
    return Bar(
        label,
        percent(f.hand_win_rate),
        note,
        _segments([(WON, f.hands_won), (LOST, f.hands_lost), (TIED, tied)], scale),
    )


def _hands_note(f: Figures) -> str:
    return _("hands: %(hands)s · won: %(won)s") % {
        "hands": number_format(f.hands, force_grouping=True),
        "won": number_format(f.hands_won, force_grouping=True),
    }


def openings(stats: RuleSetStats, limit: int = 10) -> Chart:
    """The tiles the player opened with, most often first: bars as long as the count, split
    into hands won and lost."""
    shown = stats.openings[:limit]
    scale = max((o.figures.hands for o in shown), default=0)
    return Chart(
        _("Openings (salidas)"),
        [_won_lost(o.tile, o.figures, scale, _hands_note(o.figures)) for o in shown],
        legend=True,
    )


def partners(stats: RuleSetStats, limit: int = 10) -> Chart:
    """Results with each partner: hands together, split into won and lost."""
    shown = stats.partners[:limit]
    scale = max((p.figures.hands for p in shown), default=0)
    bars = []
    for partner in shown:
        f = partner.figures
        name = partner.name or _("Bots and guests")
        note = _hands_note(f)
        if f.matches:
            note += " · " + _("matches won: %(won)s of %(n)s") % {
                "won": number_format(f.matches_won, force_grouping=True),
                "n": number_format(f.matches, force_grouping=True),
            }
        bars.append(_won_lost(name, f, scale, note))
    return Chart(_("Partners"), bars, legend=True)


def rule_sets(rows: list[RuleSetStats]) -> Chart:
    scale = max((r.figures.hands for r in rows), default=0)
    return Chart(
        _("Rule sets"),
        [
            _won_lost(rule_set_label(r.rule_set), r.figures, scale, _hands_note(r.figures))
            for r in rows
        ],
        legend=True,
    )
