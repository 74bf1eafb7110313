"""Reviews of finished hands: where each hand was lost, from what each seat knew.

The engine values every decision (games/engine/bots.py `review_hand`); this module stores
one review per record, queues it for Celery by task name and words the verdict.
"""

import hashlib
import json
import random
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.tasks import queue_on_commit
from games.engine import ENDED, EngineError, replay, review_hand
from games.models import Hand, HandReview
from league.permissions import can

PLAYOUTS = 300  # per decision: a hand of about 25 decisions takes a few seconds of a worker
TASK = "games.tasks.review_hand"


class ReviewError(Exception):
    """A record that cannot be reviewed; nothing was stored."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code

    @property
    def message(self) -> str:
        return str(
            {
                "not_ended": _("Only a finished hand can be analysed."),
                "bad_record": _("That hand record is not valid."),
            }[self.code]
        )


def _digest(record: dict) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def request_review(record: Any) -> HandReview:
    """The review of a finished hand's record, queued for a worker when new or failed."""
    try:
        final = replay(record)
    except (EngineError, TypeError, AttributeError) as error:
        raise ReviewError("bad_record") from error
    if final.status not in ENDED:
        raise ReviewError("not_ended")
    with transaction.atomic():
        review, created = HandReview.objects.select_for_update().get_or_create(
            digest=_digest(record), defaults={"record": record}
        )
        if created or review.status == HandReview.Status.FAILED:
            review.status, review.done, review.total = HandReview.Status.PENDING, 0, 0
            review.save(update_fields=["status", "done", "total"])
            queue_on_commit(TASK, review.pk)
    return review


def find_review(record: Any) -> HandReview | None:
    """The stored review of a record, if one was asked for."""
    if not isinstance(record, dict):
        return None
    return HandReview.objects.filter(digest=_digest(record)).first()


def run_review(review_id: int) -> None:
    """Analyse one stored record (the Celery task's work); a second delivery does nothing."""
    claimed = HandReview.objects.filter(
        pk=review_id, status__in=[HandReview.Status.PENDING, HandReview.Status.FAILED]
    ).update(status=HandReview.Status.RUNNING)
    if not claimed:
        return
    review = HandReview.objects.get(pk=review_id)

    def progress(done: int, total: int) -> None:
        HandReview.objects.filter(pk=review_id).update(done=done, total=total)

    try:
        rng = random.Random(int(review.digest[:16], 16))  # the same record, the same review
        result = review_hand(replay(review.record), rng, PLAYOUTS, progress)
    except Exception:
        HandReview.objects.filter(pk=review_id).update(status=HandReview.Status.FAILED)
        raise
    HandReview.objects.filter(pk=review_id).update(status=HandReview.Status.DONE, result=result)


def may_see_hand(user, hand: Hand) -> bool:
    """A live hand's record and review: its table's players, its event's organisers and
    referees, and site staff (who judge the fair-play cases of ranked tables)."""
    if not user.is_authenticated:
        return False
    if user.is_staff or hand.table.seats.filter(user=user).exists():
        return True
    fixture = hand.table.fixture
    return fixture is not None and (
        can(user, "event.manage", fixture.event) or can(user, "event.referee", fixture.event)
    )


def verdict_text(verdict: dict | None, names: list[str]) -> str:
    """The one-line verdict, in the active language."""
    if verdict is None:
        return _("No move cost much: the deal decided this hand.")
    params = {
        "move": verdict["index"] + 1,
        "seat": names[verdict["seat"]],
        "action": verdict["action"].split("@")[0],
        "best": verdict["best"].split("@")[0],
        "cost": round(verdict["cost"]),
        "number": verdict["exposed"],
    }
    if verdict["exposed"] is not None:
        return (
            _(
                "The hand was lost at move %(move)s: %(seat)s played %(action)s and left the "
                "%(number)s open to the opponents; %(best)s was worth about %(cost)s points "
                "more."
            )
            % params
        )
    return (
        _(
            "The hand was lost at move %(move)s: %(seat)s played %(action)s; %(best)s was "
            "worth about %(cost)s points more."
        )
        % params
    )


def payload(review: HandReview, names: list[str]) -> dict[str, Any]:
    """What a page or the API shows of a review: its progress, then its moves and verdict."""
    data: dict[str, Any] = {
        "status": review.status,
        "done": review.done,
        "total": review.total,
    }
    if review.status == HandReview.Status.DONE:
        result = review.result
        costly = set(result["costly"])
        data["verdict"] = verdict_text(result["verdict"], names)
        data["moves"] = [
            move | {"player": names[move["seat"]], "costly": move["index"] in costly}
            for move in result["moves"]
        ]
    return data


def seat_names(record: dict) -> list[str]:
    """The players' names of a record, else "Seat 1", "Seat 2"…"""
    players = record.get("players") or []
    count = len(record.get("deal") or [])
    return [
        players[s] if s < len(players) and players[s] else _("Seat %(n)s") % {"n": s + 1}
        for s in range(count)
    ]


def shown_record(record: dict) -> dict:
    """A finished hand's record as a page shows it: the boneyard cut to the tiles that were
    drawn, since nobody ever saw the others (the ruling is made on the whole record)."""
    actions = record.get("actions")
    boneyard = record.get("boneyard")
    if not isinstance(boneyard, list) or not isinstance(actions, list):
        return record
    drawn = sum(isinstance(a, str) and a.startswith("draw") for a in actions)
    return record | {"boneyard": boneyard[:drawn]}


def shown_review(review: dict) -> dict:
    """The referee's explanation of a finished hand without the tiles left in its boneyard
    (each replayed step's `boneyard_tiles`; the count stays)."""
    steps = [{k: v for k, v in step.items() if k != "boneyard_tiles"} for step in review["steps"]]
    return review | {"steps": steps}
