"""Disputes over a hand: opening one, the referees' rulings, appeals to the chief referee.

Every function checks who may act, refuses bad input with a `ServiceError` (a stable code and
a translated message) before anything is written, and runs in one transaction. A ruling that
changes a hand's points goes through the league's result service, so the match result, the
standings and the ratings recompute as for any correction.
"""

import copy
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import adjudicate
from games.fairplay.services import queue_hand as queue_fair_play
from games.models import Hand
from games.stats.services import queue_live_hand
from league.models import Event, Match, Membership, Result
from league.notifications import absolute, in_language_of, notify
from league.permissions import can, has_role, lineage
from league.services.errors import ServiceError
from league.services.results import apply_ruling
from league.tasks import send_email

from .models import Appeal, Dispute, RefereeSettings, Ruling

MAX_REASON = 2000
MAX_AWARD = 1000


def settings_for(event: Event) -> RefereeSettings:
    return RefereeSettings.objects.get_or_create(event=event)[0]


def is_referee(user, event: Event) -> bool:
    return has_role(user, event.organisation, [Membership.Role.REFEREE])


def is_chief(user, event: Event) -> bool:
    return user.is_authenticated and settings_for(event).chief_referee_id == user.pk


def referees(event: Event) -> list:
    return list(
        get_user_model()
        .objects.filter(
            memberships__organisation_id__in=lineage(event.organisation),
            memberships__role=Membership.Role.REFEREE,
        )
        .distinct()
    )


def parties(match: Match) -> list:
    """The users who play in or captain either side of the match."""
    users = []
    for entry in (match.entry_a, match.entry_b):
        if entry is None:
            continue
        people = [*entry.players, entry.captain, entry.team and entry.team.captain]
        users += [p.user for p in people if p is not None and p.user_id and p.user not in users]
    return users


def can_open(user, match: Match) -> bool:
    return can(user, "event.manage", match.event) or user in parties(match)


def can_see(user, dispute: Dispute) -> bool:
    event = dispute.event
    return (
        is_referee(user, event)
        or is_chief(user, event)
        or can(user, "event.manage", event)
        or user in parties(dispute.match)
    )


def sees_full_record(user, dispute: Dispute) -> bool:
    """Referees and organisers always; the players only once the hand has ended."""
    event = dispute.event
    return dispute.hand_ended or (
        is_referee(user, event) or is_chief(user, event) or can(user, "event.manage", event)
    )


def _reason(reason: Any) -> str:
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise ServiceError("reason_required", _("Say why."))
    if len(text) > MAX_REASON:
        raise ServiceError(
            "reason_too_long", _("Keep the reason under %(n)s characters.") % {"n": MAX_REASON}
        )
    return text


def _dispute_url(dispute: Dispute) -> str:
    return reverse("dispute", args=[dispute.pk])


def _tell(users: list, subject, body, url: str, **params: Any) -> None:
    """A site notification for each user and an email (queued once the change commits),
    each in the user's own language. `subject` and `body` are lazy messages for `params`."""
    for user in users:
        notify(user, subject, url, **params)
        if user.email:
            text = f"{in_language_of(user, body, params)}\n\n{absolute(url)}"
            mail = (in_language_of(user, subject, params), text, [user.email])
            transaction.on_commit(lambda mail=mail: send_email.delay(*mail))


@transaction.atomic
def open_dispute(
    user,
    match: Match,
    *,
    game: int,
    hand: int,
    record: Any,
    reason: Any,
    played: datetime,
    hand_ended: bool = True,
    live_hand_id: int | None = None,
) -> Dispute:
    """Refer a hand to the event's referees; the match's result cannot be confirmed until
    the dispute is ruled on. `played`: when the hand was played (the window runs from it)."""
    match = Match.objects.select_for_update().select_related("event__organisation").get(pk=match.pk)
    event = match.event
    if not can_open(user, match):
        raise ServiceError(
            "forbidden",
            _("Only the players, their captains or an organiser can dispute a hand of this match."),
        )
    if not isinstance(record, dict):
        raise ServiceError("bad_record", _("The hand record must be a JSON object."))
    if not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 999 for n in (game, hand)
    ):
        raise ServiceError("bad_hand", _("Give the game and hand numbers, from 1."))
    text = _reason(reason)
    window = settings_for(event).window_hours
    if timezone.now() > played + timedelta(hours=window):
        raise ServiceError(
            "window_closed",
            _("Disputes on this hand closed %(hours)s hours after it was played.")
            % {"hours": window},
        )
    if Dispute.objects.filter(
        match=match, game=game, hand=hand, status__in=Dispute.PENDING
    ).exists():
        raise ServiceError("already_disputed", _("This hand is already before the referees."))
    dispute = Dispute.objects.create(
        event=event,
        match=match,
        game=game,
        hand=hand,
        live_hand_id=live_hand_id,
        record=record,
        hand_ended=hand_ended,
        played=played,
        reason=text,
        opened_by=user,
    )
    _tell(
        referees(event),
        gettext_lazy("A hand is disputed: %(d)s"),
        gettext_lazy("Reason given: %(reason)s"),
        _dispute_url(dispute),
        d=dispute,
        reason=text,
    )
    return dispute


def _current_result(match: Match) -> Result | None:
    return match.results.filter(status__in=[*Result.OPEN, Result.Status.CONFIRMED]).first()


def open_result_dispute(user, match: Match, game: int, hand: int, reason: Any) -> Dispute:
    """Dispute a hand record entered with the match's (pending or confirmed) result."""
    result = _current_result(match)
    try:
        record = result.games[game - 1]["hands"][hand - 1]
    except (AttributeError, IndexError, KeyError, TypeError):
        raise ServiceError(
            "no_such_hand", _("The match's result has no record of that hand.")
        ) from None
    return open_dispute(
        user, match, game=game, hand=hand, record=record, reason=reason, played=result.entered
    )


def open_live_dispute(user, hand: Hand, reason: Any) -> Dispute:
    """Dispute a finished hand of the live table that played a competition match."""
    match = hand.table.fixture
    if match is None:
        raise ServiceError(
            "not_a_fixture", _("Only hands of competition matches go to the referees.")
        )
    return open_dispute(
        user,
        match,
        game=1,
        hand=hand.number,
        record=hand.record,
        reason=reason,
        played=hand.finished,
        live_hand_id=hand.pk,
    )


def _points(record: Any) -> list[int]:
    return adjudicate(record).get("points") or [0, 0]


def current(dispute: Dispute) -> tuple[dict, list[int]]:
    """The hand's record and points as the latest ruling left them (or as disputed)."""
    last = dispute.rulings.order_by("-at", "-pk").first()
    if last is None:
        return dispute.record, _points(dispute.record)
    return last.record_after, last.points_after


def _side(side: Any) -> int:
    if side not in (0, 1) or isinstance(side, bool):
        raise ServiceError("bad_side", _("Choose one of the two sides."))
    return side


def _decide(
    dispute: Dispute, kind: str, *, record: Any = None, side: Any = None, points: Any = None
) -> tuple:
    """What the ruling leaves: (record after, points after, side)."""
    before, points_before = current(dispute)
    if kind == Ruling.Kind.UPHOLD:
        return dispute.record, _points(dispute.record), None
    if kind == Ruling.Kind.REPLAY:
        return before, points_before, None
    if kind == Ruling.Kind.CORRECT:
        if not isinstance(record, dict):
            raise ServiceError("bad_record", _("The hand record must be a JSON object."))
        ruling = adjudicate(record)
        if ruling["error"]:
            raise ServiceError(
                "record_faulty",
                _("The corrected record still breaks the rules (%(code)s).")
                % {"code": ruling["error"]["code"]},
            )
        if ruling["ended"] == "incomplete":
            raise ServiceError("record_incomplete", _("The corrected record must finish the hand."))
        return record, ruling["points"], None
    if kind == Ruling.Kind.AWARD:
        side = _side(side)
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_AWARD:
            raise ServiceError(
                "bad_points", _("Award from 0 to %(max)s points.") % {"max": MAX_AWARD}
            )
        return before, [points if s == side else 0 for s in (0, 1)], side
    if kind == Ruling.Kind.PENALTY:
        side = _side(side)
        penalty = settings_for(dispute.event).penalty_points
        return (
            before,
            [p + (penalty if s != side else 0) for s, p in enumerate(points_before)],
            side,
        )
    raise ServiceError("bad_ruling", _("Choose a ruling."))


def _new_games(result: Result, game: int, hand: int, record: dict, delta: list[int]) -> list:
    games = [{k: v for k, v in g.items() if k != "rulings"} for g in copy.deepcopy(result.games)]
    if not 1 <= game <= len(games):
        raise ServiceError("no_such_game", _("The match's result has no game %(n)s.") % {"n": game})
    entry = games[game - 1]
    entry["points_a"] += delta[0]
    entry["points_b"] += delta[1]
    hands = entry.get("hands") or []
    if 1 <= hand <= len(hands):
        hands[hand - 1] = record
    return games


def _write(user, dispute: Dispute, kind: str, reason: Any, on_appeal: bool, **how) -> Ruling:
    text = _reason(reason)
    record_before, points_before = current(dispute)
    record_after, points_after, side = _decide(dispute, kind, **how)
    result = None
    if len(points_after) == 2 and (points_after != points_before or record_after != record_before):
        found = _current_result(dispute.match)
        if found is not None:
            delta = [after - was for after, was in zip(points_after, points_before, strict=True)]
            games = _new_games(found, dispute.game, dispute.hand, record_after, delta)
            note = _("Referee's ruling on game %(g)s, hand %(h)s") % {
                "g": dispute.game,
                "h": dispute.hand,
            }
            result = apply_ruling(user, dispute.match, games, note)
    ruling = Ruling.objects.create(
        dispute=dispute,
        kind=kind,
        on_appeal=on_appeal,
        by=user,
        reason=text,
        side=side,
        record_before=record_before,
        record_after=record_after,
        points_before=points_before,
        points_after=points_after,
        result=result,
    )
    if dispute.live_hand_id is not None:  # the statistics and fair play count it again
        queue_live_hand(dispute.live_hand_id)
        queue_fair_play(dispute.live_hand_id)
    return ruling


def _lock(dispute: Dispute) -> Dispute:
    return (
        Dispute.objects.select_for_update(of=("self",))
        .select_related("event__organisation", "match__entry_a", "match__entry_b")
        .get(pk=dispute.pk)
    )


def _announce(dispute: Dispute, ruling: Ruling) -> None:
    users = parties(dispute.match)
    if dispute.opened_by and dispute.opened_by not in users:
        users.append(dispute.opened_by)
    _tell(
        users,
        gettext_lazy("Ruling on %(d)s: %(kind)s"),
        gettext_lazy("Points of the hand: %(before)s before, %(after)s after. Reason: %(reason)s"),
        _dispute_url(dispute),
        d=dispute,
        kind=Ruling.Kind(ruling.kind).label,
        before="–".join(map(str, ruling.points_before)),
        after="–".join(map(str, ruling.points_after)),
        reason=ruling.reason,
    )


@transaction.atomic
def rule(user, dispute: Dispute, kind: str, reason: Any, **how: Any) -> Ruling:
    """A referee of the event rules on an open dispute. `how`: `record` (correct), `side`
    (award, penalty: the side penalised) and `points` (award)."""
    dispute = _lock(dispute)
    if not is_referee(user, dispute.event):
        raise ServiceError("forbidden", _("Only the event's referees can rule on a dispute."))
    if dispute.status != Dispute.Status.OPEN:
        raise ServiceError("not_open", _("This dispute has already been ruled on."))
    ruling = _write(user, dispute, kind, reason, False, **how)
    dispute.status = Dispute.Status.RULED
    dispute.save(update_fields=["status"])
    _announce(dispute, ruling)
    return ruling


@transaction.atomic
def appeal(user, dispute: Dispute, reason: Any) -> Appeal:
    """A party appeals the ruling, once, to the event's chief referee."""
    dispute = _lock(dispute)
    if user not in parties(dispute.match) and user != dispute.opened_by:
        raise ServiceError("forbidden", _("Only the parties to the dispute can appeal."))
    if dispute.status != Dispute.Status.RULED:
        raise ServiceError("not_appealable", _("Only a ruled dispute can be appealed, once."))
    chief = settings_for(dispute.event).chief_referee
    if chief is None:
        raise ServiceError("no_chief_referee", _("This event has no chief referee to appeal to."))
    ruling = dispute.rulings.order_by("-at", "-pk").first()
    made = Appeal.objects.create(ruling=ruling, by=user, reason=_reason(reason))
    dispute.status = Dispute.Status.APPEALED
    dispute.save(update_fields=["status"])
    _tell(
        [chief],
        gettext_lazy("A ruling is appealed: %(d)s"),
        gettext_lazy("Reason given: %(reason)s"),
        _dispute_url(dispute),
        d=dispute,
        reason=made.reason,
    )
    return made


@transaction.atomic
def decide_appeal(user, dispute: Dispute, kind: str, reason: Any, **how: Any) -> Ruling:
    """The chief referee decides the appeal with a final ruling of any kind."""
    dispute = _lock(dispute)
    if not is_chief(user, dispute.event):
        raise ServiceError("forbidden", _("Only the event's chief referee decides appeals."))
    if dispute.status != Dispute.Status.APPEALED:
        raise ServiceError("not_appealed", _("This dispute has no appeal to decide."))
    pending = Appeal.objects.select_for_update().get(ruling__dispute=dispute, decision=None)
    ruling = _write(user, dispute, kind, reason, True, **how)
    pending.decision = ruling
    pending.save(update_fields=["decision"])
    dispute.status = Dispute.Status.FINAL
    dispute.save(update_fields=["status"])
    _announce(dispute, ruling)
    return ruling
