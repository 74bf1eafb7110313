"""Invitations to an organisation: a token link, optionally emailed; accepting makes a member.

An invitation may name a roster player without an account: whoever accepts it becomes that
player, with everything the record already played.
"""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import Invitation, Membership, Organisation, Player
from ..notifications import absolute
from ..permissions import has_role, require
from ..tasks import send_email
from .audit import audit, snapshot
from .clubs import family
from .errors import ServiceError

VALID_FOR = timedelta(days=14)


@transaction.atomic
def invite(
    user,
    organisation: Organisation,
    role: str,
    email: str = "",
    player: Player | None = None,
) -> Invitation:
    """A one-use link for `role`; emailed when `email` is given (a link on the site's address).

    With `player` (a roster player without an account) whoever accepts becomes that player.
    """
    require(user, "organisation.manage", organisation)
    if role not in Membership.Role.values:
        raise ServiceError("bad_role", _("Unknown role."))
    if role == Membership.Role.OWNER and not has_role(user, organisation, [role]):
        raise ServiceError("owner_only", _("Only an owner can invite another owner."))
    if player is not None:
        if player.club_id not in family(organisation):
            raise ServiceError("not_on_roster", _("This player is not on the club's roster."))
        if player.user_id is not None:
            raise ServiceError("player_claimed", _("This player already has an account."))
        email = email or player.email
    invitation = Invitation.objects.create(
        organisation=organisation,
        role=role,
        player=player,
        email=email,
        token=secrets.token_urlsafe(32),
        invited_by=user,
        expires=timezone.now() + VALID_FOR,
    )
    audit(
        user,
        "invitation.create",
        invitation,
        after=snapshot(invitation, ["role", "email"]),
        organisation=invitation.organisation,
    )
    if email:
        link = absolute(invitation.get_absolute_url())
        body = _("You are invited to join %(org)s as %(role)s: %(link)s") % {
            "org": organisation,
            "role": invitation.get_role_display(),
            "link": link,
        }
        subject = str(_("Invitation to %(org)s") % {"org": organisation})
        transaction.on_commit(lambda: send_email.delay(subject, str(body), [email]))
    return invitation


@transaction.atomic
def accept(user, token: str) -> Membership:
    """The signed-in user accepts: they become a member with the invited role (once)."""
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None or invitation.revoked:
        raise ServiceError("invalid_invitation", _("This invitation is not valid."))
    if invitation.accepted is not None:
        raise ServiceError("invitation_used", _("This invitation has already been used."))
    if invitation.expires <= timezone.now():
        raise ServiceError("invitation_expired", _("This invitation has expired."))
    if invitation.email and user.email.lower() != invitation.email.lower():
        raise ServiceError("wrong_account", _("This invitation was sent to another email address."))
    if invitation.player_id is not None:
        _claim(user, invitation.player)
    membership, _created = Membership.objects.get_or_create(
        organisation=invitation.organisation, user=user, role=invitation.role
    )
    invitation.accepted = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted", "accepted_by"])
    audit(
        user,
        "invitation.accept",
        invitation,
        after={"membership": membership.pk},
        organisation=invitation.organisation,
    )
    return membership


def has_history(player: Player) -> bool:
    """Anything besides invitations refers to the player: entries, seats, ratings, ..."""
    for relation in Player._meta.get_fields(include_hidden=True):
        if not (relation.auto_created and not relation.concrete) or relation.related_model in (
            Invitation,
            Player,
        ):
            continue
        related = relation.related_model._base_manager
        if related.filter(**{relation.field.name: player}).exists():
            return True
    return False


def _claim(user, player: Player) -> None:
    """The user becomes the roster player; the empty profile made at sign-up goes."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id == user.pk:
        return
    if player.user_id is not None:
        raise ServiceError("player_claimed", _("This player already has an account."))
    own = Player.objects.select_for_update().filter(user=user).first()
    if own is not None:
        if has_history(own):
            raise ServiceError(
                "own_history",
                _(
                    "Your account already has its own games. Ask the club to enter you "
                    "with your account instead."
                ),
            )
        player.language = player.language or own.language
        player.country = player.country or own.country
        own.delete()
    player.user = user
    player.email = ""
    player.save(update_fields=["user", "language", "country", "email"])
    user.player = player
    audit(user, "player.claim", player, after={"user": user.pk})


@transaction.atomic
def revoke(user, invitation: Invitation) -> Invitation:
    require(user, "organisation.manage", invitation.organisation)
    invitation.revoked = True
    invitation.save(update_fields=["revoked"])
    audit(
        user,
        "invitation.revoke",
        invitation,
        after={"revoked": True},
        organisation=invitation.organisation,
    )
    return invitation
