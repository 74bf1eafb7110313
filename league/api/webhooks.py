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
(`public_addresses`), unless WEBHOOKS_ALLOW_PRIVATE is on. The delivery goes to the address
that was checked, and a redirect is never followed.
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
from django.db.models.signals import post_save
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.celery import queue_on_commit
from league.models import AuditEntry, Entry, Event, Match, Result, Round
from league.permissions import lineage
from league.services.errors import ServiceError
from league.signals import result_confirmed

from .models import Delivery, Webhook

SIGNATURE_HEADER = "X-Capicua-Signature"
NAT64 = ipaddress.ip_network("64:ff9b::/96")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def is_public(ip: Address) -> bool:
    """On the public internet: not loopback, private, shared, link-local, multicast,
    reserved or unspecified, including IPv4 addresses inside IPv6 ones (mapped, 6to4,
    Teredo, NAT64)."""
    if isinstance(ip, ipaddress.IPv6Address):
        inside = [ip.ipv4_mapped, ip.sixtofour, ip.teredo[1] if ip.teredo else None]
        if ip in NAT64:
            inside.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if any(v4 is not None and not is_public(v4) for v4 in inside):
            return False
    return ip.is_global and not (
        ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_private
    )


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


def emit(topic: str, event: Event, data: dict[str, Any]) -> list[Delivery]:
    """Queue `topic` for every active webhook of the event's organisation (or above it) that
    subscribed to it; sent by the worker once the current transaction commits."""
    hooks = [
        hook
        for hook in Webhook.objects.filter(
            organisation_id__in=lineage(event.organisation), active=True
        )
        if topic in hook.topics
    ]
    return queue(hooks, topic, event.organisation, {"event": event.slug, **data})


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


def _url(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def _standings_url(event: Event) -> str:
    return _url(reverse("api:event-standings", args=[event.slug]))


def on_result_confirmed(sender, match, result: Result, correction: bool, **kwargs) -> None:
    from .serializers import ResultSerializer

    event = Event.objects.select_related("organisation").get(pk=match.event_id)
    emit(
        Webhook.Topic.RESULT_CONFIRMED,
        event,
        {"match": match.pk, "correction": correction, "result": ResultSerializer(result).data},
    )
    emit(
        Webhook.Topic.STANDINGS_CHANGED,
        event,
        {"results_version": event.results_version, "standings": _standings_url(event)},
    )


def on_round_saved(sender, instance: Round, created: bool, raw: bool = False, **kwargs) -> None:
    if not created or raw:
        return
    event = Event.objects.select_related("organisation").get(pk=instance.event_id)
    matches = _url(reverse("api:match-list") + f"?event={event.slug}&round={instance.number}")
    emit(
        Webhook.Topic.ROUND_PUBLISHED,
        event,
        {"round": instance.number, "division": instance.division_id, "matches": matches},
    )


def on_event_saved(sender, instance: Event, created: bool, update_fields=None, **kwargs) -> None:
    if created or instance.status != Event.Status.FINISHED:
        return
    if update_fields is not None and "status" not in update_fields:
        return
    emit(Webhook.Topic.EVENT_FINISHED, instance, {"standings": _standings_url(instance)})


# What the competition services write to the audit trail, and the topic it is sent as: one
# place sees every change, whichever page, key or task made it.
AUDIT_TOPICS = {
    "result.enter": Webhook.Topic.RESULT_PROPOSED,
    "result.dispute": Webhook.Topic.RESULT_DISPUTED,
    "match.reschedule": Webhook.Topic.MATCH_SCHEDULED,
    "match.postpone": Webhook.Topic.MATCH_SCHEDULED,
    "entry.register": Webhook.Topic.ENTRY_CHANGED,
    "entry.withdraw": Webhook.Topic.ENTRY_CHANGED,
    "entry.disqualify": Webhook.Topic.ENTRY_CHANGED,
    "entry.check_in": Webhook.Topic.ENTRY_CHANGED,
    "entry.promote": Webhook.Topic.ENTRY_CHANGED,
    "event.status": Webhook.Topic.EVENT_STATUS_CHANGED,
}


def _audited_data(entry: AuditEntry) -> dict[str, Any] | None:
    """The public facts of the audited object, or None when there is nothing to send (a
    result entered already confirmed is sent as `result.confirmed`)."""
    from .serializers import EntrySerializer, ResultSerializer

    kind, _sep, pk = entry.target.partition(":")
    if kind == "result":
        result = Result.objects.select_related("match").filter(pk=pk).first()
        if result is None or (
            entry.action == "result.enter" and result.status != Result.Status.PROPOSED
        ):
            return None
        return {"match": result.match_id, "result": ResultSerializer(result).data}
    if kind == "match":
        match = Match.objects.filter(pk=pk).first()
        if match is None:
            return None
        fields = ("scheduled", "venue", "table", "status")
        return {"match": match.pk, **{f: getattr(match, f) for f in fields}}
    if kind == "entry":
        found = Entry.objects.filter(pk=pk).select_related("event").first()
        return None if found is None else {"entry": EntrySerializer(found).data}
    if kind == "event":
        return {
            "status": (entry.after or {}).get("status"),
            "previous": (entry.before or {}).get("status"),
        }
    return None


def on_audited(sender, instance: AuditEntry, created: bool, raw: bool = False, **kwargs) -> None:
    topic = AUDIT_TOPICS.get(instance.action)
    if not created or raw or topic is None or instance.event_id is None:
        return
    data = _audited_data(instance)
    if data is not None:
        event = Event.objects.select_related("organisation").get(pk=instance.event_id)
        emit(topic, event, data)


def connect() -> None:
    post_save.connect(on_audited, sender=AuditEntry, dispatch_uid="webhooks.audit")
    result_confirmed.connect(on_result_confirmed, dispatch_uid="webhooks.result_confirmed")
    post_save.connect(on_round_saved, sender=Round, dispatch_uid="webhooks.round")
    post_save.connect(on_event_saved, sender=Event, dispatch_uid="webhooks.event")
