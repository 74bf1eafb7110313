"""What a player's page shows: their entries' upcoming matches and results."""

from django.db.models import Prefetch, Q, QuerySet

from ..models import Entry, Event, Match, Player, Result

UPCOMING = (Match.Status.SCHEDULED, Match.Status.POSTPONED)


def matches_of(player: Player) -> QuerySet[Match]:
    """Every match in which one of the player's pairs (or their team) takes part."""
    entries = Entry.objects.filter(Q(player_1=player) | Q(player_2=player))
    counted = Prefetch(
        "results",
        queryset=Result.objects.filter(status=Result.Status.CONFIRMED),
        to_attr="confirmed_results",
    )
    return (
        Match.objects.filter(Q(entry_a__in=entries) | Q(entry_b__in=entries))
        .exclude(event__status=Event.Status.DRAFT)
        .select_related("event", "round", "entry_a", "entry_b")
        .prefetch_related(counted)
    )


def upcoming(player: Player) -> list[Match]:
    return list(
        matches_of(player).filter(status__in=UPCOMING).order_by("round__date", "round__number")
    )


def played(player: Player, limit: int = 20) -> list[Match]:
    matches = list(
        matches_of(player)
        .filter(status=Match.Status.PLAYED)
        .order_by("-round__date", "-round__number")[:limit]
    )
    for match in matches:
        match.result = next(iter(match.confirmed_results), None)
    return matches
