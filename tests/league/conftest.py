"""A small club with roles, and a league of pairs whose players have accounts."""

from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model

from league.models import Entry, Event, Match, Membership, Organisation, Player
from league.services import entries, events, fixtures, results


def make_user(username: str, organisation: Organisation | None = None, role: str = ""):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", None)
    Player.objects.create(user=user, display_name=username.title(), club=organisation)
    if role:
        Membership.objects.create(organisation=organisation, user=user, role=role)
    return user


@dataclass
class League:
    club: Organisation
    owner: object
    organiser: object
    organiser2: object
    referee: object
    event: Event
    pairs: list[Entry] = field(default_factory=list)

    def players(self, entry: Entry) -> list:
        return [entry.player_1.user, entry.player_2.user]

    def match(self, a: Entry, b: Entry) -> Match:
        return Match.objects.get(event=self.event, entry_a__in=[a, b], entry_b__in=[a, b])

    def matches(self, round_number: int) -> list[Match]:
        return list(
            Match.objects.filter(
                event=self.event, round__number=round_number, entry_b__isnull=False
            )
        )


def build_league(size: int = 6, generate: bool = True, tag: str = "", **settings) -> League:
    """A club, its staff and a league of `size` pairs (`tag` tells several leagues apart)."""
    club = Organisation.objects.create(name=f"Club Test{tag}", slug=f"club-test{tag}")
    roles = Membership.Role
    league = League(
        club=club,
        owner=make_user(f"owner{tag}", club, roles.OWNER),
        organiser=make_user(f"organiser{tag}", club, roles.ORGANISER),
        organiser2=make_user(f"organiser2{tag}", club, roles.ORGANISER),
        referee=make_user(f"referee{tag}", club, roles.REFEREE),
        event=None,
    )
    settings.setdefault("rule_preset", "tournament")
    league.event = events.create_event(league.organiser, club, name="Liga Test", **settings)
    for i in range(size):
        p1, p2 = make_user(f"p{i}a{tag}", club).player, make_user(f"p{i}b{tag}", club).player
        league.pairs.append(
            entries.register(league.organiser, league.event, player_1=p1, player_2=p2, name=f"P{i}")
        )
    if generate:
        fixtures.generate_fixtures(league.organiser, league.event)
    league.event.refresh_from_db()
    return league


@pytest.fixture
def league(db) -> League:
    return build_league()


def game(a: int, b: int) -> list[dict]:
    return [{"points_a": a, "points_b": b}]


def play(league: League, match: Match, a: int, b: int):
    """Entered by an organiser: it counts at once."""
    return results.enter_result(league.organiser, match, game(a, b))
