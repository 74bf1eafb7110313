"""Clubs and their rosters: anyone signed in may found a club (and owns it); a club's
organisers keep its roster, whose players need no account (a name, plus an optional email
and phone) until an invitation lets the person claim the record."""

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from ..models import Membership, Organisation, Player
from ..permissions import require
from .audit import audit, snapshot
from .errors import ServiceError
from .events import unique_slug

PLAYER_FIELDS = ["display_name", "email", "phone", "club"]
SEARCH_LIMIT = 20


def normalised(name: str) -> str:
    """A name as typed, with its spaces tidied: what rosters store and compare."""
    return " ".join(name.split())


@transaction.atomic
def create_club(user, *, name: str, city: str = "", country: str = "") -> Organisation:
    """A new club, owned by the signed-in person who creates it."""
    if not user.is_authenticated:
        raise ServiceError("sign_in", _("Sign in to create a club."))
    name = normalised(name)
    if not name:
        raise ServiceError("name_required", _("Give the club a name."))
    if Organisation.objects.filter(name__iexact=name, city__iexact=city.strip()).exists():
        raise ServiceError("club_exists", _("A club of that name already exists in that city."))
    club = Organisation.objects.create(
        name=name[:120],
        slug=unique_slug(name, Organisation, "club"),
        kind=Organisation.Kind.CLUB,
        city=city.strip()[:80],
        country=country.strip().upper()[:2],
    )
    Membership.objects.create(organisation=club, user=user, role=Membership.Role.OWNER)
    audit(
        user,
        "organisation.create",
        club,
        after=snapshot(club, ["name", "city", "country"]),
        organisation=club,
    )
    return club


def family(organisation: Organisation) -> list[int]:
    """The organisation and every organisation below it (a federation's clubs)."""
    ids, frontier = [organisation.pk], [organisation.pk]
    while frontier:
        frontier = list(
            Organisation.objects.filter(parent_id__in=frontier)
            .exclude(pk__in=ids)
            .values_list("pk", flat=True)
        )
        ids += frontier
    return ids


def roster(organisation: Organisation) -> QuerySet[Player]:
    """The players of the organisation and of the clubs below it."""
    return Player.objects.filter(club_id__in=family(organisation)).select_related("club")


def search_roster(organisation: Organisation, query: str) -> list[Player]:
    """Roster players whose name (or email) contains the query: the first few, by name."""
    query = normalised(query)
    if not query:
        return []
    found = roster(organisation).filter(Q(display_name__icontains=query) | Q(email__iexact=query))
    return list(found.order_by("display_name", "pk")[:SEARCH_LIMIT])


def _clean_player(display_name: str, email: str, phone: str) -> dict:
    name = normalised(display_name)
    if not name:
        raise ServiceError("name_required", _("Give the player's name."))
    if len(name) > 80:
        raise ServiceError("name_too_long", _("A name has at most 80 characters."))
    return {"display_name": name, "email": email.strip().lower(), "phone": normalised(phone)[:32]}


@transaction.atomic
def add_player(
    user, organisation: Organisation, *, display_name: str, email: str = "", phone: str = ""
) -> Player:
    """A new roster player without an account."""
    require(user, "organisation.manage", organisation)
    values = _clean_player(display_name, email, phone)
    player = Player.objects.create(club=organisation, **values)
    audit(
        user,
        "player.create",
        player,
        after=snapshot(player, PLAYER_FIELDS),
        organisation=organisation,
    )
    return player


@transaction.atomic
def update_player(
    user, organisation: Organisation, player: Player, *, display_name: str, email: str, phone: str
) -> Player:
    """Change a roster player's name and contact details (not those of an account holder's
    profile, which is theirs to edit)."""
    require(user, "organisation.manage", organisation)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.club_id not in family(organisation):
        raise ServiceError("not_on_roster", _("This player is not on the club's roster."))
    if player.user_id is not None:
        raise ServiceError("has_account", _("Players with an account edit their own profile."))
    before = snapshot(player, PLAYER_FIELDS)
    for name, value in _clean_player(display_name, email, phone).items():
        setattr(player, name, value)
    player.save()
    audit(
        user,
        "player.update",
        player,
        before=before,
        after=snapshot(player, PLAYER_FIELDS),
        organisation=organisation,
    )
    return player
