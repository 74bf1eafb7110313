"""Invitations to an organisation: a token link, optionally emailed; accepting makes a member."""

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import Invitation, Membership, Organisation
from ..permissions import has_role, require
from ..tasks import send_email
from .audit import audit, snapshot
from .errors import ServiceError

VALID_FOR = timedelta(days=14)


@transaction.atomic
def invite(
    user, organisation: Organisation, role: str, email: str = "", base_url: str = ""
) -> Invitation:
    """A one-use link for `role`; emailed when `email` is given (`base_url`: the site's URL)."""
    require(user, "organisation.manage", organisation)
    if role not in Membership.Role.values:
        raise ServiceError("bad_role", _("Unknown role."))
    if role == Membership.Role.OWNER and not has_role(user, organisation, [role]):
        raise ServiceError("owner_only", _("Only an owner can invite another owner."))
    invitation = Invitation.objects.create(
        organisation=organisation,
        role=role,
        email=email,
        token=secrets.token_urlsafe(32),
        invited_by=user,
        expires=timezone.now() + VALID_FOR,
    )
    audit(user, "invitation.create", invitation, after=snapshot(invitation, ["role", "email"]))
    if email:
        link = f"{base_url.rstrip('/')}{invitation.get_absolute_url()}"
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
    membership, _created = Membership.objects.get_or_create(
        organisation=invitation.organisation, user=user, role=invitation.role
    )
    invitation.accepted = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted", "accepted_by"])
    audit(user, "invitation.accept", invitation, after={"membership": membership.pk})
    return membership


@transaction.atomic
def revoke(user, invitation: Invitation) -> Invitation:
    require(user, "organisation.manage", invitation.organisation)
    invitation.revoked = True
    invitation.save(update_fields=["revoked"])
    audit(user, "invitation.revoke", invitation, after={"revoked": True})
    return invitation
