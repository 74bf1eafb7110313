"""Demo data: the demo club's Swiss tournament, with the club's players entered as pairs, and
a double elimination cup half played, so that its bracket has something to show."""

from collections.abc import Callable

from league.models import Event, Organisation, Player, Season
from league.services import entries, events, results
from league.services.events import rules_of
from league.tournaments.services import brackets
from league.tournaments.services.common import tournament_of

CUP_NAME = "Copa Capicúa a doble eliminación (demo)"


def swiss_tournament(club: Organisation, organiser) -> Event | None:
    """Enter the club's players, two by two, in the club's Swiss tournament: four rounds,
    ready to pair round 1 from the organiser's dashboard."""
    event = Event.objects.filter(organisation=club, format=Event.Format.SWISS).first()
    if event is None:
        return None
    tournament = tournament_of(event)
    tournament.rounds = 4
    tournament.save(update_fields=["rounds"])
    entered = set(event.entries.values_list("player_1", flat=True)) | set(
        event.entries.values_list("player_2", flat=True)
    )
    free = list(Player.objects.filter(club=club).exclude(pk__in=entered).order_by("pk"))
    for first, second in zip(free[::2], free[1::2], strict=False):
        entries.register(organiser, event, player_1=first, player_2=second)
    return event


def elimination_cup(
    club: Organisation, organiser, season: Season, score: Callable[[int], list[dict]]
) -> Event | None:
    """Eight pairs (the club's players with other partners than in the league) in a double
    elimination with a grand final reset: the first round of the winners' bracket, the second
    round and the first of the losers' bracket are played, one more match is entered, the rest
    waits. Once only."""
    if Event.objects.filter(organisation=club, name=CUP_NAME).exists():
        return None
    event = events.create_event(
        organiser,
        club,
        name=CUP_NAME,
        format=Event.Format.DOUBLE_ELIMINATION,
        season=season,
        rule_preset="tournament",
        venue="Sede del club",
        description="Ocho parejas; quien pierde dos veces queda fuera.",
    )
    tournament = tournament_of(event)
    tournament.grand_final_reset = True
    tournament.save(update_fields=["grand_final_reset"])
    players = list(Player.objects.filter(club=club).order_by("pk")[:16])
    for first, second in zip(players[:8], players[8:], strict=False):
        entries.register(organiser, event, player_1=first, player_2=second)
    bracket = brackets.create_bracket(organiser, event)
    target = rules_of(event).target
    for wave in (None, None, 1):  # two whole waves of matches, then a single one
        ready = [v.match for v in brackets.bracket_view(bracket) if v.match and not v.winner]
        for match in ready[:wave]:
            results.enter_result(organiser, match, score(target))
        brackets.sync(bracket)  # the pages do it once the transaction commits
    return event
