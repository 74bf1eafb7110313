"""The audit trail: every change to a competition is written down with before and after."""

from typing import Any

from django.db import models
from django.forms.models import model_to_dict
from django.utils.translation import gettext_lazy as _

from ..models import AuditEntry, Entry, Event, Match, Result, Round


def snapshot(instance: models.Model, fields: list[str] | None = None) -> dict[str, Any]:
    """A JSON-ready copy of a model instance's fields (foreign keys as ids)."""
    data = model_to_dict(instance, fields=fields)
    return {
        key: value if isinstance(value, (int, str, bool, list, dict, type(None))) else str(value)
        for key, value in data.items()
    }


def audit(
    actor,
    action: str,
    target: models.Model,
    *,
    event: Event | None = None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        target=f"{target._meta.model_name}:{target.pk}",
        before=before,
        after=after,
    )


ACTIONS = {
    "bracket.create": _("Bracket drawn"),
    "bracket.reset": _("Later match reset"),
    "division.create": _("Division added"),
    "entry.check_in": _("Checked in"),
    "entry.import": _("Entries imported"),
    "entry.promote": _("Entry promoted from the waiting list"),
    "entry.register": _("Entry registered"),
    "entry.withdraw": _("Entry withdrawn"),
    "event.create": _("Event created"),
    "event.status": _("Status changed"),
    "event.update": _("Settings changed"),
    "fixtures.generate": _("Fixtures made"),
    "groups.draw": _("Groups drawn"),
    "individual.confirm": _("Table result confirmed"),
    "individual.correct": _("Table result corrected"),
    "individual.result": _("Table result entered"),
    "individual.seat": _("Round seated"),
    "individual.unseat": _("Round unseated"),
    "match.postpone": _("Match postponed"),
    "match.reschedule": _("Match rescheduled"),
    "result.confirm": _("Result confirmed"),
    "result.correct": _("Result corrected"),
    "result.dispute": _("Result disputed"),
    "result.enter": _("Result entered"),
    "result.forfeit": _("Forfeit awarded"),
    "result.online": _("Result of the live table"),
    "result.resolve": _("Dispute settled"),
    "result.ruling": _("Referee's ruling applied"),
    "round.time": _("Round date and time set"),
    "swiss.discard": _("Draft round discarded"),
    "swiss.pair": _("Round paired (draft)"),
    "swiss.publish": _("Round published"),
    "swiss.swap": _("Pairs swapped in the draft"),
    "swiss.unpair": _("Round unpaired"),
    "tournament.allow": _("Pairing allowed again"),
    "tournament.forbid": _("Pairing forbidden"),
    "tournament.options": _("Tournament options changed"),
}


def _targets(entries: list[AuditEntry]) -> dict[str, str]:
    """What each "model:pk" target names, for people: a match's pairs, an entry's name."""
    ids: dict[str, set[int]] = {}
    for entry in entries:
        model, _sep, pk = entry.target.partition(":")
        if pk.isdigit():
            ids.setdefault(model, set()).add(int(pk))
    names: dict[str, str] = {}
    readers = {
        "result": lambda pks: Result.objects.filter(pk__in=pks).select_related(
            "match__entry_a", "match__entry_b", "match__round"
        ),
        "match": lambda pks: Match.objects.filter(pk__in=pks).select_related(
            "entry_a", "entry_b", "round"
        ),
        "entry": lambda pks: Entry.objects.filter(pk__in=pks),
        "round": lambda pks: Round.objects.filter(pk__in=pks),
        "event": lambda pks: Event.objects.filter(pk__in=pks),
    }
    for model, pks in ids.items():
        for obj in readers[model](pks) if model in readers else []:
            match = getattr(obj, "match", obj if isinstance(obj, Match) else None)
            text = f"{match.round} · {match}" if match is not None else str(obj)
            names[f"{model}:{obj.pk}"] = text
    return names


def described(entries: list[AuditEntry]) -> list[dict]:
    """Audit entries as people read them: who (their name), what was done, to what."""
    names = _targets(entries)
    return [
        {
            "at": entry.at,
            "who": entry.actor,
            "action": ACTIONS.get(entry.action, entry.action),
            "target": names.get(entry.target, ""),
        }
        for entry in entries
    ]
