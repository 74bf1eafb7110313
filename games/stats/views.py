"""The statistics page of a player's profile."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.models import Player

from . import charts
from .selectors import statistics


def player_statistics(request: HttpRequest, pk: int) -> HttpResponse:
    """Every figure of the player, over all rule sets or one (`?rules=`), with charts."""
    player = get_object_or_404(Player, pk=pk)
    stats = statistics(player.pk)
    wanted = request.GET.get("rules") or None
    shown = stats.of(wanted)
    if shown is None:
        raise Http404
    figures = shown.figures
    tabs = [(None, None, stats.overall.figures.hands)] + [
        (r.rule_set, charts.rule_set_label(r.rule_set), r.figures.hands) for r in stats.rule_sets
    ]
    shown_charts = [charts.endings(figures), charts.passes(figures)]
    if shown.openings:
        shown_charts.append(charts.openings(shown))
    if shown.partners:
        shown_charts.append(charts.partners(shown))
    if wanted is None and len(stats.rule_sets) > 1:
        shown_charts.append(charts.rule_sets(stats.rule_sets))
    return render(
        request,
        "stats/player_statistics.html",
        {
            "player": player,
            "tabs": tabs,
            "wanted": wanted,
            "label": charts.rule_set_label(wanted) if wanted else None,
            "f": figures,
            "hand_win_rate": charts.percent(figures.hand_win_rate),
            "match_win_rate": charts.percent(figures.match_win_rate),
            "opening_rate": charts.percent(figures.opening_rate),
            "charts": shown_charts if figures.hands else [],
        },
    )
