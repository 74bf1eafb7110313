"""Ratings on the league's pages: `{% player_ratings player %}` and
`{% match_rating_changes match %}`."""

from django import template

from league.models import Match, Player

from .. import services
from ..charts import line_chart

register = template.Library()


@register.inclusion_tag("ratings/player_ratings.html")
def player_ratings(player: Player) -> dict:
    """The player's rating in each pool, with the chart of its history."""
    return {
        "histories": [
            (history, line_chart(history.values, history.dates))
            for history in services.history(player)
        ]
    }


@register.inclusion_tag("ratings/match_changes.html")
def match_rating_changes(match: Match) -> dict:
    """What the match did to each player's rating (nothing shown if it was not rated)."""
    return {"changes": services.match_changes(match)}
