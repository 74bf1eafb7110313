"""Pools of rated matches built straight in the database, and openskill's own computation."""

from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from league.models import Entry, Event, Match, Organisation, Player, Result, Round
from league.ratings import services
from league.ratings.models import RatingPool

START = datetime(2026, 3, 2, 20, 0, tzinfo=timezone.get_default_timezone())


@dataclass
class Pool:
    """An organisation's pool fed by one over-the-board event, and a way to add matches."""

    pool: RatingPool
    event: Event
    players: list[Player]
    entries: dict[tuple[int, int], Entry] = field(default_factory=dict)
    played: list[tuple[Match, tuple[int, int, int, int], int, int]] = field(default_factory=list)

    def entry(self, first: int, second: int) -> Entry:
        key = (first, second)
        if key not in self.entries:
            self.entries[key] = Entry.objects.create(
                event=self.event,
                name=f"{self.players[first]} / {self.players[second]}",
                player_1=self.players[first],
                player_2=self.players[second],
            )
        return self.entries[key]

    def play(
        self,
        four: tuple[int, int, int, int],
        games_a: int,
        games_b: int,
        *,
        day: int | None = None,
        forfeit: bool = False,
    ) -> Match:
        """A confirmed match; `day` puts it on that day from START (else the next day)."""
        number = len(self.played) + 1
        day = number if day is None else day
        round_ = Round.objects.create(event=self.event, number=number)
        match = Match.objects.create(
            event=self.event,
            round=round_,
            entry_a=self.entry(four[0], four[1]),
            entry_b=self.entry(four[2], four[3]),
            scheduled=START + timedelta(days=day),
            status=Match.Status.PLAYED,
        )
        Result.objects.create(
            match=match,
            status=Result.Status.CONFIRMED,
            games_a=games_a,
            games_b=games_b,
            points_a=100 * games_a,
            points_b=100 * games_b,
            forfeit=forfeit,
            confirmed=timezone.now(),
        )
        self.played.append((match, four, games_a, games_b))
        services.result_counted(match)
        return match

    def correct(self, match: Match, games_a: int, games_b: int) -> None:
        old = match.results.get(status=Result.Status.CONFIRMED)
        old.status = Result.Status.SUPERSEDED
        old.save(update_fields=["status"])
        Result.objects.create(
            match=match,
            status=Result.Status.CONFIRMED,
            games_a=games_a,
            games_b=games_b,
            points_a=100 * games_a,
            points_b=100 * games_b,
            corrects=old,
            confirmed=timezone.now(),
        )
        self.played = [
            (m, four, games_a, games_b) if m.pk == match.pk else (m, four, a, b)
            for m, four, a, b in self.played
        ]
        services.result_counted(match)


def build_pool(players: int = 8, tag: str = "") -> Pool:
    club = Organisation.objects.create(
        name=f"Club Ratings{tag}", slug=f"club-ratings{tag}", country="DO"
    )
    event = Event.objects.create(organisation=club, name=f"Liga{tag}", slug=f"liga-ratings{tag}")
    people = [
        Player.objects.create(display_name=f"Player {i:02d}{tag}", club=club, country="DO")
        for i in range(players)
    ]
    pool = services.organisation_pool(club)
    services.feed(event, pool)
    return Pool(pool=pool, event=event, players=people)


def by_openskill(pool: Pool) -> dict[int, tuple[float, float]]:
    """Each player's (mu, sigma) computed by openskill itself, match by match, in date order."""
    model = PlackettLuce()
    ratings = {}
    ordered = sorted(pool.played, key=lambda p: (p[0].scheduled, p[0].pk))
    for _match, four, games_a, games_b in ordered:
        teams = [
            [ratings.get(p) or model.rating() for p in four[:2]],
            [ratings.get(p) or model.rating() for p in four[2:]],
        ]
        ranks = [0, 0] if games_a == games_b else ([0, 1] if games_a > games_b else [1, 0])
        new = model.rate(teams, ranks=ranks)
        for player, rating in zip(four, new[0] + new[1], strict=True):
            ratings[player] = rating
    return {pool.players[p].pk: (r.mu, r.sigma) for p, r in ratings.items()}


@pytest.fixture
def pool(db) -> Pool:
    return build_pool()
