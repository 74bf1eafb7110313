"""The demo data that `make run` loads, so that a newcomer sees every feature working."""

from django.contrib.auth import get_user_model
from django.db import transaction

from games.disputes.demo import add_demo_dispute

from .models import Membership, Organisation, Player

PASSWORD = "capicua"
CLUB_SLUG = "club-los-capicuas"
PLAYER_NAMES = [
    "Ana Rosario", "Luis Peña", "Carmen Díaz", "Marco Ferreira", "Yolanda Batista",
    "Rafael Guzmán", "Mercedes Almonte", "Julio Taveras", "Daniela Souza", "Pedro Mejía",
    "Isabel Cabrera", "Tomás Santana", "Lucía Ventura", "Héctor Polanco", "Rosa Jiménez",
    "Andrés Acosta",
]


def _user(username: str, *, staff: bool = False, email: str = ""):
    users = get_user_model().objects
    user = users.filter(username=username).first()
    if user is None:
        user = users.create_user(
            username, email or f"{username}@demo.capicua.test", PASSWORD,
            is_staff=staff, is_superuser=staff,
        )
    return user


@transaction.atomic
def run() -> bool:
    """Create the demo data if it is missing; True when anything was created."""
    if Organisation.objects.filter(slug=CLUB_SLUG).exists():
        return False
    federation = Organisation.objects.create(
        name="Federación Dominicana de Dominó (demo)", slug="fdd-demo",
        kind=Organisation.Kind.FEDERATION, country="DO",
    )
    club = Organisation.objects.create(
        name="Club Los Capicúas", slug=CLUB_SLUG, kind=Organisation.Kind.CLUB,
        parent=federation, country="DO", city="Santo Domingo",
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
    return True
