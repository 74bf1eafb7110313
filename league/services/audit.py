"""The audit trail: every change to a competition is written down with before and after."""

from datetime import datetime
from typing import Any

from django.db import models
from django.forms.models import model_to_dict
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from ..models import AuditEntry, Entry, Event, Match, Organisation, Result, Round


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
    organisation: Organisation | None = None,
) -> AuditEntry:
    """Write the change down, in the log of `organisation` (by default the event's)."""
    if organisation is None and event is not None:
        organisation = event.organisation
    return AuditEntry.objects.create(
        event=event,
        organisation=organisation,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        target=f"{target._meta.model_name}:{target.pk}",
        before=before,
        after=after,
    )


ACTIONS = {
    "autopilot.cancel": _("Event cancelled: too few checked in"),
    "autopilot.configure": _("Autopilot set"),
    "autopilot.deadline": _("Round deadline"),
    "autopilot.extend": _("Round extended"),
    "autopilot.extend_arena": _("Arena extended"),
    "autopilot.finish": _("Event finished"),
    "autopilot.pause": _("Autopilot paused"),
    "autopilot.postpone": _("Start postponed"),
    "autopilot.ratings": _("Ratings queued"),
    "autopilot.repair": _("Round paired again"),
    "autopilot.resume": _("Autopilot resumed"),
    "autopilot.round_end": _("Round ended"),
    "autopilot.round_start": _("Round started"),
    "autopilot.start": _("Event started"),
    "autopilot.unplayed": _("Match not played: both sides absent"),
    "autopilot.withdraw": _("Entry withdrawn by the autopilot"),
    "bracket.create": _("Bracket drawn"),
    "bracket.reset": _("Later match reset"),
    "division.create": _("Division added"),
    "entry.check_in": _("Checked in"),
    "entry.delete": _("Entry deleted"),
    "entry.undo_check_in": _("Check-in undone"),
    "entry.import": _("Entries imported"),
    "entry.promote": _("Entry promoted from the waiting list"),
    "entry.register": _("Entry registered"),
    "entry.withdraw": _("Entry withdrawn"),
    "event.cancel": _("Event cancelled"),
    "event.check_in_close": _("Check-in closed"),
    "event.check_in_open": _("Check-in reopened"),
    "event.create": _("Event created"),
    "event.delete": _("Draft deleted"),
    "event.reopen": _("Event reopened"),
    "event.status": _("Status changed"),
    "event.update": _("Settings changed"),
    "fairplay.clear": _("Fair-play case cleared"),
    "fairplay.sanction": _("Fair-play sanction recorded"),
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


# Why an online event's autopilot took a step (league/services/autopilot.py), as the audit
# log shows it in the reader's language. An entry keeps the reason's key and the values it
# names (times as ISO strings) in `after`.
REASONS = {
    "start_time": _("the start time came (%(time)s) with %(entries)s entries checked in"),
    "too_few_postpone": _(
        "only %(entries)s entries had checked in at %(time)s: the start moves to %(new)s"
    ),
    "too_few_cancel": _("only %(entries)s entries had checked in at the postponed start"),
    "not_checked_in": _("it did not check in before the start"),
    "last_table_ended": _("the last match of round %(round)s ended at %(time)s"),
    "pause_over": _("the pause after round %(round)s ended at %(time)s"),
    "first_round": _("the event started at %(time)s"),
    "deadline": _("the deadline of round %(round)s came at %(time)s"),
    "last_round": _("the last round ended at %(time)s"),
    "two_forfeits": _("it forfeited rounds %(first)s and %(second)s in a row"),
    "blocked": _("the next step was refused: %(message)s"),
    "organiser": _("asked by an organiser"),
    "both_absent": _("every side was absent for a whole hand of round %(round)s"),
    "arena_start": _("the arena's start time came (%(time)s) with %(entries)s entries in it"),
    "arena_end": _("the arena's time ended at %(time)s: no new table opens"),
    "arena_over": _("the arena's last match ended after its time (%(time)s)"),
}


def local_time(at: datetime) -> str:
    """A moment as the site's clock shows it, in the active language's format."""
    return formats.time_format(timezone.localtime(at), "TIME_FORMAT")


def reason_text(after: dict | None) -> str:
    """Why an automatic step was taken (its entry's `after`), in the active language."""
    if not isinstance(after, dict) or after.get("reason") not in REASONS:
        return ""
    values = {
        key: local_time(datetime.fromisoformat(value)) if key in ("time", "new") else value
        for key, value in after.items()
        if key != "reason"
    }
    try:
        return str(REASONS[after["reason"]]) % values
    except (KeyError, TypeError, ValueError):
        return ""


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
            "why": reason_text(entry.after),
        }
        for entry in entries
    ]
