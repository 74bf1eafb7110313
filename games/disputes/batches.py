"""Batch adjudication: an organiser uploads a round's hand records as JSON lines; a Celery
task adjudicates each line, stores its progress and a report of faulty hands and bad lines.

Each line is a `domino-hand/1` record that may also say where it was played: `table` (the
match's table in the uploaded round), `game` (default 1) and `hand_number` (default 1). A
line that cannot be read gets its own error and never stops the batch.
"""

import json
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.tasks import queue_on_commit
from games.engine import adjudicate
from league.faults import describe
from league.models import Event, Match, Round
from league.permissions import can
from league.services.errors import ServiceError

from .models import Batch, Dispute
from .services import open_dispute

MAX_BYTES = 2_000_000
MAX_LINES = 5_000
MAX_LINE = 100_000

LINE_ERRORS = {
    "bad_encoding": gettext_lazy("The line is not UTF-8 text."),
    "line_too_long": gettext_lazy("The line is longer than %(max)s characters."),
    "invalid_json": gettext_lazy("The line is not valid JSON (column %(column)s)."),
    "not_an_object": gettext_lazy("The line is not a JSON object (a hand record)."),
    "bad_reference": gettext_lazy(
        "“table”, “game” and “hand_number” must be whole numbers from 1."
    ),
    "unknown_table": gettext_lazy("No match of this round is played at table %(table)s."),
    "bad_record": gettext_lazy("The record is incomplete or not well formed: %(detail)s"),
}


def message(entry: dict[str, Any]) -> str:
    """A report entry's explanation in the active language."""
    if entry["kind"] == "error":
        return str(LINE_ERRORS[entry["code"]]) % entry.get("params", {})
    return describe(entry["code"])


def _split(data: bytes) -> list[str | None]:
    lines: list[str | None] = []
    for raw in data.split(b"\n"):
        try:
            text = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            text = None
        lines.append(None if text is None or "\x00" in text else text)
    while lines and lines[-1] == "":
        lines.pop()
    return lines


@transaction.atomic
def create_batch(user, event: Event, round: Round | None, data: bytes, filename: str = "") -> Batch:
    """Store the upload and queue its adjudication."""
    if not can(user, "event.manage", event):
        raise ServiceError("forbidden", _("Only the event's organisers can upload hand records."))
    if round is not None and round.event_id != event.pk:
        raise ServiceError("bad_round", _("That round is not in this event."))
    if len(data) > MAX_BYTES:
        raise ServiceError(
            "file_too_large", _("The file is larger than %(mb)s MB.") % {"mb": MAX_BYTES // 10**6}
        )
    lines = _split(data)
    if not any(line and line.strip() for line in lines):
        raise ServiceError("empty_file", _("The file holds no hand records."))
    if len(lines) > MAX_LINES:
        raise ServiceError(
            "too_many_lines", _("Upload at most %(n)s lines at once.") % {"n": MAX_LINES}
        )
    batch = Batch.objects.create(
        event=event,
        round=round,
        uploaded_by=user,
        filename=filename[:200],
        lines=lines,
        total=len(lines),
    )
    queue_on_commit("games.disputes.tasks.adjudicate_batch", batch.pk)
    return batch


def _error(line: int, code: str, **params: Any) -> dict[str, Any]:
    return {"line": line, "kind": "error", "code": code, "params": params}


def _number(value: Any, default: int | None) -> int | None:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError
    return value


def check_line(number: int, text: str | None, tables: dict[int, int]) -> dict[str, Any] | None:
    """The report entry for one line (None for a blank line). `tables`: table -> match id."""
    if text is None:
        return _error(number, "bad_encoding")
    if not text.strip():
        return None
    if len(text) > MAX_LINE:
        return _error(number, "line_too_long", max=MAX_LINE)
    try:
        record = json.loads(text)
    except ValueError as error:
        return _error(number, "invalid_json", column=getattr(error, "colno", 1))
    if not isinstance(record, dict):
        return _error(number, "not_an_object")
    try:
        table = _number(record.get("table"), None)
        game = _number(record.get("game"), 1)
        hand = _number(record.get("hand_number"), 1)
    except ValueError:
        return _error(number, "bad_reference")
    match = None
    if table is not None and tables:
        match = tables.get(table)
        if match is None:
            return _error(number, "unknown_table", table=table)
    ruling = adjudicate(record)
    error = ruling["error"]
    where = {"line": number, "table": table, "match": match, "game": game, "hand": hand}
    if error and error["code"] == "bad_record":
        return _error(number, "bad_record", detail=error["message"])
    if error:
        return where | {
            "kind": "fault",
            "code": error["code"],
            "action": error["action"],
            "seat": error["seat"],
            "detail": error["message"],
        }
    return where | {"kind": "valid", "ended": ruling["ended"], "points": ruling["points"]}


def run(batch_id: int) -> None:
    """Adjudicate every line of the batch, storing progress as it goes."""
    batch = Batch.objects.get(pk=batch_id)
    if batch.status == Batch.Status.DONE:
        return
    Batch.objects.filter(pk=batch_id).update(status=Batch.Status.RUNNING, processed=0)
    tables: dict[int, int] = {}
    if batch.round_id is not None:
        tables = dict(
            Match.objects.filter(round_id=batch.round_id, table__isnull=False).values_list(
                "table", "pk"
            )
        )
    report = []
    step = max(1, batch.total // 50)
    for number, text in enumerate(batch.lines, start=1):
        entry = check_line(number, text, tables)
        if entry is not None:
            report.append(entry)
        if number % step == 0:
            Batch.objects.filter(pk=batch_id).update(processed=number)
    Batch.objects.filter(pk=batch_id).update(
        status=Batch.Status.DONE, processed=batch.total, report=report, finished=timezone.now()
    )


def open_from_report(user, batch: Batch, line: int) -> Dispute:
    """One click on the report: dispute the faulty hand of that line."""
    entry = next((e for e in batch.report if e["line"] == line and e["kind"] == "fault"), None)
    if entry is None:
        raise ServiceError("not_a_fault", _("That line holds no faulty hand."))
    if entry["match"] is None:
        raise ServiceError(
            "no_match", _("Say at which table the hand was played (“table”) to dispute it.")
        )
    match = Match.objects.get(pk=entry["match"])
    reason = _("Found by the batch check of %(file)s, line %(line)s: %(fault)s") % {
        "file": batch.filename or batch.pk,
        "line": line,
        "fault": describe(entry["code"]),
    }
    return open_dispute(
        user,
        match,
        game=entry["game"],
        hand=entry["hand"],
        record=json.loads(batch.lines[line - 1]),
        reason=reason,
        played=batch.created,
    )
