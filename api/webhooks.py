"""Webhooks: what happened in a competition, sent signed to the organisation's sites.

Topics: `round.published` (a round's fixtures or pairings were made), `result.confirmed`,
`standings.changed` (after a confirmed result), `event.finished`, and from the audit trail
of the competition services `result.proposed` (waiting for confirmation), `result.disputed`,
`match.scheduled` (rescheduled or postponed), `entry.changed` (registered, withdrawn,
disqualified, checked in, promoted from the waiting list) and `event.status_changed`. A
delivery's body is
JSON `{"id", "type", "created", "organisation", "data"}`; `id` is the event id, the same on
every attempt, for the receiver to drop repeats. The header
`X-Capicua-Signature: t=<unix time>,v1=<hex>` is HMAC-SHA256, keyed with the webhook's
secret, of `"<t>.<body>"`.

A webhook's address must be public: its host name is resolved when the webhook is added and
again at every delivery, and every address it resolves to must be on the public internet
(`public_addresses`, by the IANA registries' tables in api.addresses), unless
WEBHOOKS_ALLOW_PRIVATE is on. The delivery goes to the address that was checked, and a
redirect is never followed.
"""

import hashlib
import hmac
import ipaddress
import json
import socket
import uuid
from typing import Any
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.tasks import queue_on_commit
from league.models import Event
from league.permissions import lineage
from league.services.errors import ServiceError

from .addresses import is_public
from .models import Delivery, Webhook

SIGNATURE_HEADER = "X-Capicua-Signature"


def public_addresses(url: str) -> tuple[SplitResult, list[str]]:
    """The address's parts and the IP addresses its host resolves to now, each checked.

    Raises ServiceError `bad_url` for an address that is not http(s) with a host,
    `unknown_host` when the host does not resolve, and `private_url` when any of its IP
    addresses is not public (allowed only with WEBHOOKS_ALLOW_PRIVATE).
    """
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        parts, port = None, 0
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServiceError("bad_url", _("The address must start with https:// or http://."))
    try:
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise ServiceError("unknown_host", _("The address's host name is not known.")) from error
    addresses = list(dict.fromkeys(str(info[4][0]).split("%")[0] for info in found))
    if not settings.WEBHOOKS_ALLOW_PRIVATE and not all(
        is_public(ipaddress.ip_address(a)) for a in addresses
    ):
        raise ServiceError(
            "private_url",
            _("Webhooks go to public addresses only, not to this server or a private network."),
        )
    return parts, addresses


def signature(secret: str, body: bytes, timestamp: int) -> str:
    digest = hmac.new(secret.encode(), b"%d." % timestamp + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def emit(
    topic: str, event: Event, data: dict[str, Any], hooks: list[Webhook] | None = None
) -> list[Delivery]:
    """Queue `topic` for every active webhook of the event's organisation (or above it) that
    subscribed to it (`hooks`, when the caller has them); sent by the worker once the
    current transaction commits."""
    if hooks is None:
        hooks = subscribers(topic, event)
    return queue(hooks, topic, event.organisation, {"event": event.slug, **data})


def subscribers(topic: str, event: Event) -> list[Webhook]:
    """The active webhooks of the event's organisation (or above it) subscribed to `topic`."""
    return [
        hook
        for hook in Webhook.objects.filter(
            organisation_id__in=lineage(event.organisation), active=True
        )
        if topic in hook.topics
    ]


def queue(hooks: list[Webhook], topic: str, organisation, data: dict[str, Any]) -> list[Delivery]:
    """One delivery of `topic` per webhook, sent once the current transaction commits."""
    if not hooks:
        return []
    event_id = uuid.uuid4()
    body = json.dumps(
        {
            "id": str(event_id),
            "type": topic,
            "created": timezone.now().isoformat(),
            "organisation": organisation.slug,
            "data": data,
        },
        separators=(",", ":"),
        sort_keys=True,
        default=str,
    )
    deliveries = Delivery.objects.bulk_create(
        Delivery(webhook=hook, event_id=event_id, topic=topic, body=body) for hook in hooks
    )
    send_on_commit(deliveries)
    return deliveries


def send_on_commit(deliveries: list[Delivery]) -> None:
    for delivery in deliveries:
        queue_on_commit("league.api.tasks.deliver", str(delivery.pk))


def site_url(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def standings_url(event: Event) -> str:
    return site_url(reverse("api:event-standings", args=[event.slug]))
