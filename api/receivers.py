"""What the API app does when the competition changes: webhooks are sent, and the kept
standings and fixtures are forgotten (at once, and again after the transaction commits, for
a reader in between may have kept the old ones)."""

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.urls import reverse

from games.services.autopilot import round_opened
from league.models import AuditEntry, Autopilot, Division, Entry, Event, Match, Result, Round
from league.signals import result_confirmed, standings_changed
from league.tournaments.models import Group, Tournament

from . import webhooks
from .http import forget_kept
from .models import Webhook

Topic = Webhook.Topic


@receiver(result_confirmed, dispatch_uid="webhooks.result_confirmed")
def on_result_confirmed(sender, match, result: Result, correction: bool, **kwargs) -> None:
    from . import serializers  # DRF's and the schema's modules: not at a worker's start-up

    event = Event.objects.select_related("organisation").get(pk=match.event_id)
    webhooks.emit(
        Topic.RESULT_CONFIRMED,
        event,
        {
            "match": match.pk,
            "correction": correction,
            "result": serializers.ResultSerializer(result).data,
        },
    )
    webhooks.emit(
        Topic.STANDINGS_CHANGED,
        event,
        {"results_version": event.results_version, "standings": webhooks.standings_url(event)},
    )


@receiver(post_save, sender=Round, dispatch_uid="webhooks.round")
def on_round_saved(sender, instance: Round, created: bool, raw: bool = False, **kwargs) -> None:
    if not created or raw:
        return
    event = Event.objects.select_related("organisation").get(pk=instance.event_id)
    matches = reverse("api:match-list") + f"?event={event.slug}&round={instance.number}"
    webhooks.emit(
        Topic.ROUND_PUBLISHED,
        event,
        {
            "round": instance.number,
            "division": instance.division_id,
            "matches": webhooks.site_url(matches),
        },
    )


@receiver(post_save, sender=Event, dispatch_uid="webhooks.event")
def on_event_saved(sender, instance: Event, created: bool, update_fields=None, **kwargs) -> None:
    if created or instance.status != Event.Status.FINISHED:
        return
    if update_fields is not None and "status" not in update_fields:
        return
    webhooks.emit(Topic.EVENT_FINISHED, instance, {"standings": webhooks.standings_url(instance)})


@receiver(round_opened, dispatch_uid="webhooks.round_opened")
def on_round_opened(sender, event: Event, round: Round, tables: list, **kwargs) -> None:
    """An online event's round started: its tables are open, with their players seated.
    Sent in the transaction that opened them, so once (a round paired again before its
    first move is started again, with its new tables)."""
    started = webhooks.subscribers(Topic.ROUND_STARTED, event)
    opened = webhooks.subscribers(Topic.TABLE_OPENED, event)
    if not started and not opened:
        return
    pilot = Autopilot.objects.filter(event=event).first()
    deadline = None if pilot is None else pilot.round_deadline
    rows = [_opened_table(table, round) for table in tables]
    if started:
        webhooks.emit(
            Topic.ROUND_STARTED,
            event,
            {"round": round.number, "deadline": _iso(deadline), "tables": rows},
            started,
        )
    for row in rows if opened else []:
        webhooks.emit(Topic.TABLE_OPENED, event, row | {"deadline": _iso(deadline)}, opened)


def _iso(moment) -> str | None:
    return None if moment is None else moment.isoformat()


def _opened_table(table, round_: Round) -> dict[str, Any]:
    """A table's public facts as it opens: where to play or watch it, and who sits where."""
    return {
        "round": round_.number,
        "table": table.code,
        "url": webhooks.site_url(reverse("table", args=[table.code])),
        "match": table.fixture_id,
        "seating_table": table.seating_table,
        "seats": [
            {"seat": seat.number, "name": seat.name} for seat in table.seats.order_by("number")
        ],
    }


# What the competition services write to the audit trail, and the topic it is sent as: one
# place sees every change, whichever page, key or task made it.
AUDIT_TOPICS = {
    "result.enter": Topic.RESULT_PROPOSED,
    "result.dispute": Topic.RESULT_DISPUTED,
    "match.reschedule": Topic.MATCH_SCHEDULED,
    "match.postpone": Topic.MATCH_SCHEDULED,
    "entry.register": Topic.ENTRY_CHANGED,
    "entry.withdraw": Topic.ENTRY_CHANGED,
    "entry.disqualify": Topic.ENTRY_CHANGED,
    "entry.check_in": Topic.ENTRY_CHANGED,
    "entry.promote": Topic.ENTRY_CHANGED,
    "event.status": Topic.EVENT_STATUS_CHANGED,
}


def _audited_data(entry: AuditEntry) -> dict[str, Any] | None:
    """The public facts of the audited object, or None when there is nothing to send (a
    result entered already confirmed is sent as `result.confirmed`)."""
    from . import serializers

    kind, _sep, pk = entry.target.partition(":")
    if kind == "result":
        result = Result.objects.select_related("match").filter(pk=pk).first()
        if result is None or (
            entry.action == "result.enter" and result.status != Result.Status.PROPOSED
        ):
            return None
        return {"match": result.match_id, "result": serializers.ResultSerializer(result).data}
    if kind == "match":
        match = Match.objects.filter(pk=pk).first()
        if match is None:
            return None
        fields = ("scheduled", "venue", "table", "status")
        return {"match": match.pk, **{f: getattr(match, f) for f in fields}}
    if kind == "entry":
        found = Entry.objects.filter(pk=pk).select_related("event").first()
        return None if found is None else {"entry": serializers.EntrySerializer(found).data}
    if kind == "event":
        return {
            "status": (entry.after or {}).get("status"),
            "previous": (entry.before or {}).get("status"),
        }
    return None


@receiver(post_save, sender=AuditEntry, dispatch_uid="webhooks.audit")
def on_audited(sender, instance: AuditEntry, created: bool, raw: bool = False, **kwargs) -> None:
    topic = AUDIT_TOPICS.get(instance.action)
    if not created or raw or topic is None or instance.event_id is None:
        return
    event = Event.objects.select_related("organisation").get(pk=instance.event_id)
    hooks = webhooks.subscribers(topic, event)
    # The audited object is read only for a subscriber: most organisations have none.
    data = _audited_data(instance) if hooks else None
    if data is not None:
        webhooks.emit(topic, event, data, hooks)


@receiver(standings_changed, dispatch_uid="api.standings")
def forget_standings(sender, event: Event, **kwargs) -> None:
    forget_kept(event.slug)


# What the kept answers show (api.http): a change to any of these forgets what is
# kept for its event at once, and again after the transaction commits, for a reader in
# between may have kept what it read before the change. A service that changes them in bulk
# (update(), bulk_create()) does so in a transaction that saves or deletes one of them too.
SHOWN = (Event, Division, Entry, Round, Match, Result, Tournament, Group)


def _event_slug(instance) -> str | None:
    if isinstance(instance, Event):
        return instance.slug
    if isinstance(instance, Result):
        found = Event.objects.filter(matches=instance.match_id)
    elif type(instance)._meta.get_field("event").is_cached(instance):
        return instance.event.slug
    else:
        found = Event.objects.filter(pk=instance.event_id)
    return found.values_list("slug", flat=True).first()


def forget_shown(sender, instance, raw: bool = False, **kwargs) -> None:
    slug = None if raw else _event_slug(instance)
    if slug is not None:
        forget_kept(slug)
        transaction.on_commit(lambda: forget_kept(slug))


for shown in SHOWN:
    name = shown._meta.label_lower
    post_save.connect(forget_shown, sender=shown, dispatch_uid=f"api.kept.{name}")
    post_delete.connect(forget_shown, sender=shown, dispatch_uid=f"api.kept.{name}.deleted")
