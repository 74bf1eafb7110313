"""A club with staff, and events of the tournament formats with accounts for every player."""

from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model

from league.models import Entry, Event, Match, Membership, Organisation, Player
from league.services import entries, events, results
from league.tournaments.services.common import tournament_of

PASSWORD = "tranque-y-capicua-9"


def make_user(
    username: str, organisation: Organisation | None = None, role: str = "", password=None
):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", password)
    Player.objects.create(user=user, display_name=username.title(), club=organisation)
    if role:
        Membership.objects.create(organisation=organisation, user=user, role=role)
    return user


@dataclass
class Club:
    club: Organisation
    organiser: object
    organiser2: object
    referee: object
    stranger: object
    other_organiser: object
    event: Event | None = None
    entries: list[Entry] = field(default_factory=list)


def build(fmt: str, size: int, tag: str = "", **options) -> Club:
    """An event of format `fmt` with `size` entries (pairs; players for individual events)."""
    club = Organisation.objects.create(name=f"Club T{tag}", slug=f"club-t{tag}")
    other = Organisation.objects.create(name=f"Other{tag}", slug=f"other{tag}")
    roles = Membership.Role
    data = Club(
        club=club,
        organiser=make_user(f"org{tag}", club, roles.ORGANISER, PASSWORD),
        organiser2=make_user(f"org2{tag}", club, roles.ORGANISER, PASSWORD),
        referee=make_user(f"ref{tag}", club, roles.REFEREE),
        stranger=make_user(f"stranger{tag}"),
        other_organiser=make_user(f"otherorg{tag}", other, roles.OWNER),
    )
    data.event = events.create_event(
        data.organiser, club, name=f"Open {fmt}{tag}", format=fmt, rule_preset="tournament"
    )
    tournament = tournament_of(data.event)
    for name, value in options.items():
        setattr(tournament, name, value)
    tournament.save()
    data.event.refresh_from_db()
    from league.tournaments.services.individual import enter_player

    for i in range(size):
        if fmt == Event.Format.INDIVIDUAL:
            player = make_user(f"pl{i}{tag}", club).player
            data.entries.append(enter_player(data.organiser, data.event, player))
        else:
            p1, p2 = make_user(f"p{i}a{tag}", club).player, make_user(f"p{i}b{tag}", club).player
            data.entries.append(
                entries.register(data.organiser, data.event, player_1=p1, player_2=p2, name=f"P{i}")
            )
    data.event.refresh_from_db()
    return data


def game(a: int, b: int) -> list[dict]:
    return [{"points_a": a, "points_b": b}]


def play(data: Club, match: Match, a_wins: bool = True):
    """Entered by an organiser: it counts at once."""
    return results.enter_result(data.organiser, match, game(*((150, 60) if a_wins else (60, 150))))


@pytest.fixture
def build_event(db):
    return build
