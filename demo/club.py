"""The demo data that `make run` loads, so that a newcomer sees every feature working."""

import random
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from league.models import Event, Match, Membership, Organisation, Player, Season
from league.services import entries, events, fixtures, results

from . import ratings as ratings_demo
from .disputes import add_demo_dispute
from .tournaments import elimination_cup, swiss_tournament

PASSWORD = "capicua"
CLUB_SLUG = "club-los-capicuas"
PLAYER_NAMES = [
    "Ana Rosario",
    "Luis Peña",
    "Carmen Díaz",
    "Marco Ferreira",
    "Yolanda Batista",
    "Rafael Guzmán",
    "Mercedes Almonte",
    "Julio Taveras",
    "Daniela Souza",
    "Pedro Mejía",
    "Isabel Cabrera",
    "Tomás Santana",
    "Lucía Ventura",
    "Héctor Polanco",
    "Rosa Jiménez",
    "Andrés Acosta",
]


def _user(username: str, *, staff: bool = False, email: str = ""):
    users = get_user_model().objects
    user = users.filter(username=username).first()
    if user is None:
        user = users.create_user(
            username,
            email or f"{username}@demo.capicua.test",
            PASSWORD,
            is_staff=staff,
            is_superuser=staff,
        )
    return user


@transaction.atomic
def run() -> bool:
    """Create the demo data if it is missing; True when anything was created."""
    if Organisation.objects.filter(slug=CLUB_SLUG).exists():
        club = Organisation.objects.get(slug=CLUB_SLUG)
        _user("admin", staff=True)
        return add_demo_events(club, _user("organiser"))
    federation = Organisation.objects.create(
        name="Federación Dominicana de Dominó (demo)",
        slug="fdd-demo",
        kind=Organisation.Kind.FEDERATION,
        country="DO",
    )
    club = Organisation.objects.create(
        name="Club Los Capicúas",
        slug=CLUB_SLUG,
        kind=Organisation.Kind.CLUB,
        parent=federation,
        country="DO",
        city="Santo Domingo",
    )
    _user("admin", staff=True)
    organiser = _user("organiser")
    Player.objects.get_or_create(user=organiser, defaults={"display_name": "Olga Organizadora"})
    for role in (Membership.Role.OWNER, Membership.Role.ORGANISER, Membership.Role.REFEREE):
        Membership.objects.create(organisation=club, user=organiser, role=role)
    for index, name in enumerate(PLAYER_NAMES):
        user = _user(name.split()[0].lower()) if index < 4 else None
        Player.objects.create(user=user, display_name=name, club=club, country="DO")
        if user is not None:
            Membership.objects.create(organisation=club, user=user, role=Membership.Role.PLAYER)
    add_demo_dispute(club, organiser)
    add_demo_events(club, organiser)
    ratings_demo.run(club)
    return True


LEAGUE_NAME = "Liga de Invierno (demo)"
ROUNDS_PLAYED = 3


def _score(rng: random.Random, target: int) -> list[dict]:
    winner = target + rng.randrange(0, 40)
    loser = 0 if rng.random() < 0.15 else rng.randrange(20, target - 10)
    return [
        {"points_a": winner, "points_b": loser}
        if rng.random() < 0.5
        else {"points_a": loser, "points_b": winner}
    ]


def add_demo_events(club: Organisation, organiser) -> bool:
    """A league in progress (8 pairs, some rounds confirmed, one result awaiting
    confirmation, fixtures ahead), a draft Swiss tournament and a double elimination cup
    half played. Each once only."""
    season, _ = Season.objects.get_or_create(
        organisation=club, name="2026–27", defaults={"starts": date(2026, 10, 1)}
    )
    created = _league_and_swiss(club, organiser, season)
    rng = random.Random(2027)
    cup = elimination_cup(club, organiser, season, lambda target: _score(rng, target))
    return created or cup is not None


def _league_and_swiss(club: Organisation, organiser, season: Season) -> bool:
    if Event.objects.filter(organisation=club, name=LEAGUE_NAME).exists():
        return False
    league = events.create_event(
        organiser,
        club,
        name=LEAGUE_NAME,
        season=season,
        rule_preset="dominican",
        venue="Sede del club",
        description="Parejas fijas, todos contra todos, a 200 tantos.",
    )
    players = list(Player.objects.filter(club=club, display_name__in=PLAYER_NAMES))
    players.sort(key=lambda p: PLAYER_NAMES.index(p.display_name))
    for first, second in zip(players[::2], players[1::2], strict=True):
        entries.register(organiser, league, player_1=first, player_2=second)
    start = timezone.localdate() - timedelta(weeks=ROUNDS_PLAYED)
    fixtures.generate_fixtures(organiser, league, first_date=start)
    rng = random.Random(2026)
    target = events.rules_of(league).target
    matches = Match.objects.filter(event=league).exclude(entry_b=None).select_related("round")
    for match in matches.filter(round__number__lte=ROUNDS_PLAYED).order_by("round__number", "pk"):
        results.enter_result(organiser, match, _score(rng, target))  # counts at once
    ana = Player.objects.get(club=club, display_name=PLAYER_NAMES[0])
    awaiting = (
        matches.filter(round__number=ROUNDS_PLAYED + 1)
        .filter(Q(entry_a__player_1=ana) | Q(entry_b__player_1=ana))
        .first()
    )
    results.enter_result(ana.user, awaiting, _score(rng, target), note="Mesa 1")
    events.create_event(
        organiser,
        club,
        name="Torneo Suizo de Primavera (demo)",
        format=Event.Format.SWISS,
        season=season,
        rule_preset="tournament",
        venue="Sede del club",
    )
    swiss_tournament(club, organiser)
    return True
