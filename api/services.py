"""API keys and webhooks: created and revoked by an organisation's owners only.

A key's token is `cap_<prefix>_<secret>`; only its SHA-256 is stored, and the prefix finds the
row. A key acts for the owner who created it, within its organisation (and the organisations
below it, as roles do) and its access: the competition services then check that owner's
roles exactly as for the web pages.
"""

import hashlib
import hmac
import secrets
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from league.models import Membership, Organisation
from league.permissions import has_role, lineage
from league.services.audit import audit
from league.services.errors import ServiceError

from .models import ApiKey, Delivery, Webhook
from .webhooks import public_addresses, queue, send_on_commit

TOKEN_PREFIX = "cap_"
MAX_KEYS = 50
MAX_WEBHOOKS = 20


def may_administer(user, organisation: Organisation) -> bool:
    return has_role(user, organisation, [Membership.Role.OWNER])


def _require_owner(user, organisation: Organisation) -> None:
    if not may_administer(user, organisation):
        raise PermissionDenied(_("Only the organisation's owners manage API keys and webhooks."))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def create_key(user, organisation: Organisation, name: str, access: str) -> tuple[ApiKey, str]:
    """A new key and its token, which is never shown again."""
    _require_owner(user, organisation)
    name = name.strip()
    if not name:
        raise ServiceError("name_required", _("Give the key a name."))
    if access not in ApiKey.Access.values:
        raise ServiceError("bad_access", _("Choose read-only or read-write access."))
    if organisation.api_keys.filter(revoked__isnull=True).count() >= MAX_KEYS:
        raise ServiceError("too_many_keys", _("Revoke a key before creating another."))
    prefix = secrets.token_hex(4)
    token = f"{TOKEN_PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
    key = ApiKey.objects.create(
        organisation=organisation,
        name=name[:80],
        access=access,
        prefix=prefix,
        digest=_digest(token),
        created_by=user,
    )
    audit(
        user,
        "api_key.create",
        key,
        after={"name": key.name, "access": access},
        organisation=key.organisation,
    )
    return key, token


@transaction.atomic
def revoke_key(user, key: ApiKey) -> ApiKey:
    _require_owner(user, key.organisation)
    if key.revoked is None:
        key.revoked = timezone.now()
        key.save(update_fields=["revoked"])
        audit(
            user,
            "api_key.revoke",
            key,
            before={"name": key.name},
            organisation=key.organisation,
        )
    return key


def key_for_token(token: str) -> ApiKey | None:
    """The live key whose token this is, or None."""
    parts = token.split("_", 2)
    if len(parts) != 3 or not token.startswith(TOKEN_PREFIX):
        return None
    key = (
        ApiKey.objects.select_related("organisation", "created_by")
        .filter(prefix=parts[1], revoked__isnull=True)
        .first()
    )
    if key is None or not hmac.compare_digest(key.digest, _digest(token)):
        return None
    if not key.created_by.is_active:
        return None
    return key


def in_scope(key: ApiKey, organisation: Organisation) -> bool:
    """The key's organisation is this one or above it."""
    return key.organisation_id in lineage(organisation)


def topics_of(value: Any) -> list[str]:
    if not isinstance(value, list) or not value or not set(value) <= set(Webhook.Topic.values):
        raise ServiceError("bad_topics", _("Choose at least one topic."))
    return sorted(set(value))


@transaction.atomic
def create_webhook(user, organisation: Organisation, url: str, topics: Any) -> Webhook:
    _require_owner(user, organisation)
    public_addresses(url)
    if organisation.webhooks.count() >= MAX_WEBHOOKS:
        raise ServiceError("too_many_webhooks", _("Delete a webhook before adding another."))
    webhook = Webhook.objects.create(
        organisation=organisation,
        url=url[:300],
        topics=topics_of(topics),
        secret=secrets.token_hex(32),
        created_by=user,
    )
    audit(
        user,
        "webhook.create",
        webhook,
        after={"url": webhook.url, "topics": webhook.topics},
        organisation=organisation,
    )
    return webhook


def administered(user) -> list[int]:
    """The organisations whose webhooks the user manages (those the user owns)."""
    return list(
        Membership.objects.filter(user=user, role=Membership.Role.OWNER).values_list(
            "organisation_id", flat=True
        )
    )


@transaction.atomic
def ping(user, webhook: Webhook) -> Delivery:
    """Send the webhook a `ping` (whatever its topics), to try the receiver."""
    _require_owner(user, webhook.organisation)
    return queue([webhook], Webhook.Topic.PING, webhook.organisation, {"webhook": webhook.pk})[0]


@transaction.atomic
def redeliver(user, delivery: Delivery) -> Delivery:
    """Send a failed delivery again, with the same event id (its receiver drops repeats)."""
    _require_owner(user, delivery.webhook.organisation)
    delivery = Delivery.objects.select_for_update().get(pk=delivery.pk)
    if delivery.status != Delivery.Status.FAILED:
        raise ServiceError("not_failed", _("Only a failed delivery is sent again."))
    delivery.status, delivery.attempts = Delivery.Status.PENDING, 0
    delivery.error, delivery.response_status = "", None
    delivery.save(update_fields=["status", "attempts", "error", "response_status"])
    audit(
        user,
        "webhook.redeliver",
        delivery.webhook,
        after={"delivery": str(delivery.pk)},
        organisation=delivery.webhook.organisation,
    )
    send_on_commit([delivery])
    return delivery


@transaction.atomic
def change_webhook(
    user, webhook: Webhook, *, topics: Any = None, active: bool | None = None
) -> Webhook:
    """Change a webhook's topics (`topics_of`'s rule) and whether it is on; its address and
    secret stay. Nothing changes when the topics are refused."""
    _require_owner(user, webhook.organisation)
    webhook = Webhook.objects.select_for_update().get(pk=webhook.pk)
    before = {"topics": webhook.topics, "active": webhook.active}
    if topics is not None:
        webhook.topics = topics_of(topics)
    if active is not None:
        webhook.active = active
    after = {"topics": webhook.topics, "active": webhook.active}
    if after != before:
        webhook.save(update_fields=["topics", "active"])
        audit(
            user,
            "webhook.change",
            webhook,
            before=before,
            after=after,
            organisation=webhook.organisation,
        )
    return webhook


@transaction.atomic
def delete_webhook(user, webhook: Webhook) -> None:
    _require_owner(user, webhook.organisation)
    audit(
        user,
        "webhook.delete",
        webhook,
        before={"url": webhook.url},
        organisation=webhook.organisation,
    )
    webhook.delete()
