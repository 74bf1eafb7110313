"""Demo data: the demo club's Swiss tournament, with the club's players entered as pairs."""

from ..models import Event, Organisation, Player
from ..services import entries
from .services.common import tournament_of


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
