"""Match results: entered, confirmed, disputed, corrected.

Who may enter a result and when it counts is decided in one place, `enter_result`: an
organiser's or referee's entry is confirmed at once (the audit log names who entered it); a
player's entry, when the event lets players enter results, waits for the other side, an
organiser or a referee. A match played at a live table is final when it ends
(`record_online_result`): the server saw every action, and the event's dispute window opens.

The database holds at most one confirmed result per match (a partial unique constraint); every
write here first locks the match row, so two people confirming at once cannot both win.
"""

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import Rules, adjudicate

from ..faults import localised
from ..models import Autopilot, Event, Match, Result, Round
from ..notifications import notify
from ..permissions import MANAGERS, can, lineage, require, sides_of, speaks_for
from ..signals import result_confirmed
from .audit import audit, snapshot
from .errors import ServiceError
from .events import bump_standings, rules_of
from .holds import refuse_while_held

MAX_POINTS = 100_000
MAX_HANDS = 200
RESULT_FIELDS = [
    "status",
    "games_a",
    "games_b",
    "points_a",
    "points_b",
    "shutout",
    "forfeit",
    "entered_by",
    "confirmed_by",
    "corrects",
    "note",
]


def _bad(message) -> ServiceError:
    return ServiceError("bad_score", message)


def _points(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise _bad(_("Points must be whole numbers from 0 to %(max)s.") % {"max": MAX_POINTS})
    return value


def _dash(points: list[int]) -> str:
    return "–".join(str(p) for p in points)


def _start(ruling: dict[str, Any]) -> tuple[list[int], list[int]]:
    """A ruled hand's match score and normal points before it (after, less the hand's own)."""
    return (
        [x - y for x, y in zip(ruling["scores_after"], ruling["points"], strict=True)],
        [x - y for x, y in zip(ruling["normal_after"], ruling["normal_points"], strict=True)],
    )


# Where a hand starts elsewhere than the game did (hand 1) or the hand before it ended:
# (its score differs, its normal points differ) x (hand 1, a later hand).
BREAKS = {
    (0, True): _("Game %(g)s, hand 1 starts at %(start)s: a game starts at 0–0."),
    (0, False): _("Game %(g)s, hand %(h)s starts at %(start)s, but hand %(p)s ended at %(end)s."),
    (1, True): _(
        "Game %(g)s, hand 1 counts %(start)s normal points before it: a game starts at 0–0."
    ),
    (1, False): _(
        "Game %(g)s, hand %(h)s counts %(start)s normal points before it, but hand %(p)s "
        "ended with %(end)s."
    ),
}


def disagreement(number: int, typed: tuple[int, int], rulings: list[dict[str, Any]]) -> str | None:
    """Where game `number`'s hand records disagree with each other or with the typed score,
    in words naming the hand; None when they add up.

    The first hand starts the game at 0–0, each hand starts where the one before it ended
    (match score and normal points), and the last ends at the typed score. A faulty hand
    (the engine stopped at its fault) is left to the referees: what the table scored in it
    cannot be read from it, so nothing is compared across it.
    """
    end: tuple[list[int], list[int]] | None = ([0, 0], [0, 0])
    for hand, ruling in enumerate(rulings, start=1):
        if not ruling.get("valid"):
            end = None
            continue
        start = _start(ruling)
        if end is not None and start != end:
            part = 0 if start[0] != end[0] else 1
            words = {"g": number, "h": hand, "p": hand - 1}
            words |= {"start": _dash(start[part]), "end": _dash(end[part])}
            return BREAKS[part, hand == 1] % words
        end = (ruling["scores_after"], ruling["normal_after"])
    if end is not None and tuple(end[0]) != typed:
        return _(
            "Game %(g)s: the hand records end at %(records)s after hand %(h)s, not at the "
            "%(typed)s entered. Enter the records' score, or correct the records."
        ) % {"g": number, "h": len(rulings), "records": _dash(end[0]), "typed": _dash(typed)}
    return None


def records_lisa(rulings: list[dict[str, Any]], winner: str) -> bool:
    """The records show `winner` ("a" or "b") winning the game by a lisa: the engine's
    ruling on the last hand (bonuses never save a side from the lisa: rules.md 12)."""
    last = rulings[-1]
    return bool(last["shutout"]) and last["match_winner"] == "ab".index(winner)


def score(
    event: Event,
    games: Any,
    rules: Rules | None = None,
    lisa: bool | None = None,
    ruled: bool = False,
    timed: bool = False,
) -> dict[str, Any]:
    """Check a match's games against the event's format and rules; the Result's fields.

    `games`: [{"points_a": int, "points_b": int, "hands": [hand record, ...]}, ...], in the
    order played. Hand records are optional; the engine adjudicates each and its ruling is
    kept. When a game comes with records, the records decide: their score must be the one
    typed (else `records_disagree`, naming the hand), and the lisa is the engine's. A faulty
    hand is shown, not refused: the table's score stands for the referees. `lisa`: the
    organiser's tick for games entered as points only (None: a lisa when the loser scored
    nothing). `ruled`: a referee's ruling set the points (an award, a penalty), so records
    that no longer add up are kept as they are, and the tick decides.
    `timed`: a live table's match ended at its time limit, the side ahead short of the
    target (an online event's round deadline, docs/online-events.md).
    """
    rules = rules or rules_of(event)
    if not isinstance(games, list) or not games:
        raise _bad(_("Enter the points of each game played."))
    low_wins = rules.scoring == "penalty"
    needed = event.games_per_match // 2 + 1
    limit = event.games_per_match
    if len(games) > limit:
        raise _bad(_("Too many games for this match format."))
    won = {"a": 0, "b": 0}
    kept, winners, shown = [], [], []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, dict):
            raise _bad(_("Each game needs points for both sides."))
        a, b = _points(game.get("points_a")), _points(game.get("points_b"))
        if a == b:
            raise _bad(_("Game %(n)s is tied: one side must win it.") % {"n": number})
        if max(won.values()) >= needed:
            raise _bad(_("The match was already decided before game %(n)s.") % {"n": number})
        winner = ("a" if a < b else "b") if low_wins else ("a" if a > b else "b")
        untimed = event.match_format != Event.MatchFormat.TIME_LIMIT and not timed
        if untimed and max(a, b) < rules.target:
            raise _bad(
                _("In game %(n)s no side reached the target of %(target)s.")
                % {"n": number, "target": rules.target}
            )
        won[winner] += 1
        winners.append(winner)
        hands = game.get("hands") or []
        if not isinstance(hands, list) or len(hands) > MAX_HANDS:
            raise _bad(_("Hand records must be a list of records."))
        rulings = [adjudicate(hand) for hand in hands]
        wrong = disagreement(number, (a, b), rulings) if rulings else None
        if wrong and not ruled:
            raise ServiceError("records_disagree", wrong)
        decides = rulings and not wrong and all(r["valid"] for r in rulings)
        shown.append(records_lisa(rulings, winner) if decides else None)
        kept.append({"points_a": a, "points_b": b, "hands": hands, "rulings": rulings})
    if max(won.values()) < needed:
        raise _bad(_("The games entered do not finish the match."))
    winner = "a" if won["a"] > won["b"] else "b"
    loser_points = sum(g["points_b" if winner == "a" else "points_a"] for g in kept)
    typed = (not low_wins and loser_points == 0) if lisa is None else bool(lisa)
    shutout = set(winners) == {winner} and all(
        typed if game_lisa is None else game_lisa for game_lisa in shown
    )
    return {
        "games_a": won["a"],
        "games_b": won["b"],
        "points_a": sum(g["points_a"] for g in kept),
        "points_b": sum(g["points_b"] for g in kept),
        "shutout": shutout,
        "games": kept,
    }


def same_score(result: Result, fields: dict[str, Any]) -> bool:
    """`fields` (from `score`) say what `result` says: each game's points, and the lisa
    unless the result's hand records decided it (points typed from a sheet keep them)."""

    def points(games: list) -> list:
        return [(g["points_a"], g["points_b"]) for g in games]

    recorded = any(g.get("hands") for g in result.games)
    return points(result.games) == points(fields["games"]) and (
        recorded or result.shutout == fields["shutout"]
    )


def faults(result: Result) -> list[dict[str, Any]]:
    """The engine's faults in the result's hand records: game, hand and the error, explained
    in the active language."""
    return [
        {"game": g, "hand": h, **localised(ruling)["error"]}
        for g, game in enumerate(result.games, start=1)
        for h, ruling in enumerate(game.get("rulings", []), start=1)
        if not ruling.get("valid", True) and ruling.get("error")
    ]


def _lock(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__organisation", "entry_a__team", "entry_b__team")
        .get(pk=match.pk)
    )


def _check_playable(match: Match) -> None:
    if match.event.status in (Event.Status.DRAFT, Event.Status.CANCELLED):
        raise ServiceError("event_not_in_play", _("This event is not in play."))
    if match.entry_b_id is None or match.status in (Match.Status.BYE, Match.Status.CANCELLED):
        raise ServiceError("not_playable", _("This match is not played (a bye or cancelled)."))
    if match.boards.exists():
        raise ServiceError("team_fixture", _("Enter a team fixture's results board by board."))


def _captain_users(match: Match, sides: set[str]) -> list:
    users = []
    for side in sorted(sides):
        entry = match.entry_a if side == "a" else match.entry_b
        for player in entry.players + ([entry.captain] if entry.captain else []):
            if player.user_id and player.user not in users and speaks_for(player.user, entry):
                users.append(player.user)
    return users


def organisers(event: Event) -> list:
    return list(
        get_user_model()
        .objects.filter(
            memberships__organisation_id__in=lineage(event.organisation),
            memberships__role__in=MANAGERS,
        )
        .distinct()
    )


def _confirmed(result: Result) -> None:
    """Bookkeeping once `result` is saved as confirmed (inside the transaction)."""
    match = result.match
    match.status = Match.Status.PLAYED
    match.save(update_fields=["status"])
    if match.parent_id and not (
        Match.objects.filter(parent_id=match.parent_id)
        .exclude(results__status=Result.Status.CONFIRMED)
        .exists()
    ):
        Match.objects.filter(pk=match.parent_id).update(status=Match.Status.PLAYED)
    bump_standings(match.event)
    correction = result.corrects_id is not None and result.corrects.status == (
        Result.Status.SUPERSEDED
    )
    transaction.on_commit(
        lambda: result_confirmed.send(
            sender=Result, match=match, result=result, correction=correction
        )
    )


def _save_confirmed(result: Result) -> Result:
    try:
        with transaction.atomic():
            result.save()
    except IntegrityError as error:
        raise ServiceError(
            "already_confirmed", _("This match already has a confirmed result.")
        ) from error
    _confirmed(result)
    return result


def _official(user, match: Match) -> bool:
    """The user's entries count at once: an organiser or referee of the match's event."""
    return can(user, "event.referee", match.event)


def require_by_hand(event: Event) -> None:
    """A result entered by hand (a match's, a round sheet's, an individual table's; by
    anyone) is refused while the event runs itself: its live tables enter every result, the
    moment each ends. A referee's ruling and an organiser's correction of a confirmed result
    stay possible (apply_ruling, correct_result, resolve_dispute)."""
    if Autopilot.objects.filter(event=event, finished__isnull=True).exists():
        raise ServiceError(
            "autopilot_results",
            _("This event runs itself: its tables enter the results as they end."),
        )


@transaction.atomic
def enter_result(
    user, match: Match, games: Any, note: str = "", lisa: bool | None = None
) -> Result:
    """Enter a match's result: the one rule of who enters results and when they count.

    - An organiser's or referee's entry is confirmed at once; the audit log says who entered
      it. A player's entry still waiting for confirmation is settled by it: confirmed if the
      scores agree, replaced otherwise.
    - A player's entry (if the event lets players enter results) waits for the other side,
      an organiser or a referee to confirm it.

    `lisa`: the tick for a match entered as points only (see `score`).
    """
    match = _lock(match)
    official = _official(user, match)
    if not official and sides_of(user, match) and not match.event.players_enter_results:
        raise ServiceError(
            "organisers_enter_results", _("In this event the organisers enter the results.")
        )
    require(user, "result.enter", match)
    require_by_hand(match.event)
    _check_playable(match)
    current = match.results.filter(status__in=Result.CURRENT).first()
    if current is not None and current.status == Result.Status.CONFIRMED:
        raise ServiceError("already_confirmed", _("This match already has a confirmed result."))
    if current is not None and (not official or current.status == Result.Status.DISPUTED):
        raise ServiceError(
            "result_pending", _("A result for this match is already waiting for confirmation.")
        )
    fields = score(match.event, games, lisa=lisa)
    if current is not None:
        refuse_while_held(match)
        current.match = match
        if same_score(current, fields):
            return _confirm(user, match, current, "result.confirm")
        return _replace(user, current, Result.Status.REJECTED, fields, note, "result.enter")
    result = Result(match=match, entered_by=user, note=note[:300], **fields)
    if official:
        result.status = Result.Status.CONFIRMED
        result.confirmed_by = user
        result.confirmed = timezone.now()
        _save_confirmed(result)
    else:
        result.save()
    audit(user, "result.enter", result, event=match.event, after=snapshot(result, RESULT_FIELDS))
    if not official:
        for other in _captain_users(match, {"a", "b"} - sides_of(user, match)):
            if other != user:
                message = _("A result awaits your confirmation: %(m)s")
                notify(other, message, match.get_absolute_url(), m=match)
    return result


@transaction.atomic
def record_online_result(match: Match, games: Any, note: str = "", timed: bool = False) -> Result:
    """A match played at a live table is final when it ends: the server saw every action.

    Confirmed at once, entered by nobody (the server); the event's dispute window runs from
    the hands' ends, and a referee's ruling replaces it (`apply_ruling`). `timed`: the match
    ended at its time limit (see `score`).
    """
    match = _lock(match)
    _check_playable(match)
    if match.results.filter(status__in=Result.CURRENT).exists():
        raise ServiceError("already_confirmed", _("This match already has a confirmed result."))
    result = Result(
        match=match,
        status=Result.Status.CONFIRMED,
        confirmed=timezone.now(),
        note=note[:300],
        **score(match.event, games, timed=timed),
    )
    _save_confirmed(result)
    audit(None, "result.online", result, event=match.event, after=snapshot(result, RESULT_FIELDS))
    return result


@dataclass(frozen=True)
class SheetRow:
    """One typed row of a round sheet: a match's games and the lisa tick."""

    match_id: int
    games: Any
    lisa: bool | None = None


@transaction.atomic
def enter_round(user, round_: Round, rows: list[SheetRow]) -> tuple[list[Result], dict]:
    """The round sheet: every typed row of a round, saved in one submit.

    Each row goes through `enter_result` in a savepoint of its own: a refused row saves
    nothing and its error is returned by match id ({match id: ServiceError}); the other rows
    are saved. A row that repeats the match's confirmed result (a sheet sent twice) changes
    nothing; one that differs from it is refused: a correction says why.
    """
    require(user, "event.referee", round_.event)
    require_by_hand(round_.event)
    matches = round_.matches.filter(parent__isnull=True).select_related("event")
    by_id = {m.pk: m for m in matches.filter(pk__in=[row.match_id for row in rows])}
    saved, errors = [], {}
    for row in sorted(rows, key=lambda r: r.match_id):
        match = by_id.get(row.match_id)
        if match is None:
            errors[row.match_id] = ServiceError(
                "not_in_round", _("This match is not in this round; reload the page.")
            )
            continue
        try:
            with transaction.atomic():
                saved.append(enter_result(user, match, row.games, lisa=row.lisa))
        except ServiceError as error:
            if not (error.code == "already_confirmed" and _repeats(match, row)):
                errors[row.match_id] = error
    return saved, errors


def _repeats(match: Match, row: SheetRow) -> bool:
    """The row says what the match's confirmed result already says."""
    confirmed = match.results.filter(status=Result.Status.CONFIRMED).first()
    try:
        fields = score(match.event, row.games, lisa=row.lisa)
    except ServiceError:
        return False
    return confirmed is not None and same_score(confirmed, fields)


def _lock_result(result: Result, status: str, code: str, message) -> tuple[Match, Result]:
    match = _lock(result.match)
    result = (
        Result.objects.select_for_update(of=("self",))
        .select_related("entered_by")
        .get(pk=result.pk)
    )
    result.match = match
    if result.status != status:
        raise ServiceError(code, message)
    return match, result


@transaction.atomic
def confirm_result(user, result: Result) -> Result:
    """The second person agrees: the result counts from now on."""
    match, result = _lock_result(
        result,
        Result.Status.PROPOSED,
        "not_awaiting",
        _("This result is no longer waiting for confirmation."),
    )
    require(user, "result.confirm", result)
    refuse_while_held(match)
    return _confirm(user, match, result, "result.confirm")


def _confirm(user, match: Match, result: Result, action: str) -> Result:
    """Make the (locked) result the match's confirmed one, audited as `action`."""
    before = snapshot(result, RESULT_FIELDS)
    result.status = Result.Status.CONFIRMED
    result.confirmed_by = user
    result.confirmed = timezone.now()
    _save_confirmed(result)
    audit(
        user,
        action,
        result,
        event=match.event,
        before=before,
        after=snapshot(result, RESULT_FIELDS),
    )
    return result


@transaction.atomic
def dispute_result(user, result: Result, note: str = "") -> Result:
    """The second person disagrees: an organiser settles it."""
    match, result = _lock_result(
        result,
        Result.Status.PROPOSED,
        "not_awaiting",
        _("This result is no longer waiting for confirmation."),
    )
    require(user, "result.confirm", result)
    before = snapshot(result, RESULT_FIELDS)
    result.status = Result.Status.DISPUTED
    if note:
        result.note = note[:300]
    result.save(update_fields=["status", "note"])
    audit(
        user,
        "result.dispute",
        result,
        event=match.event,
        before=before,
        after=snapshot(result, RESULT_FIELDS),
    )
    for organiser in organisers(match.event):
        notify(organiser, _("A result is disputed: %(m)s"), match.get_absolute_url(), m=match)
    return result


def _replace(
    user, old: Result, new_status: str, fields: dict[str, Any], note: str, action: str
) -> Result:
    """Put a new confirmed result (`score`'s fields), entered by `user`, in place of `old`."""
    match = old.match
    before = snapshot(old, RESULT_FIELDS)
    old.status = new_status
    old.save(update_fields=["status"])
    now = timezone.now()
    result = Result(
        match=match,
        entered_by=user,
        confirmed_by=user,
        confirmed=now,
        status=Result.Status.CONFIRMED,
        corrects=old,
        note=note[:300],
        **fields,
    )
    _save_confirmed(result)
    audit(
        user,
        action,
        result,
        event=match.event,
        before=before,
        after=snapshot(result, RESULT_FIELDS),
    )
    return result


@transaction.atomic
def resolve_dispute(
    user, result: Result, games: Any = None, note: str = "", lisa: bool | None = None
) -> Result:
    """An organiser settles a dispute: upholds the entered result, or enters the right one."""
    match, result = _lock_result(
        result, Result.Status.DISPUTED, "not_disputed", _("This result is not disputed.")
    )
    require(user, "result.resolve", result)
    refuse_while_held(match)
    if games is None:
        return _confirm(user, match, result, "result.resolve")
    fields = score(match.event, games, lisa=lisa)
    return _replace(user, result, Result.Status.REJECTED, fields, note, "result.resolve")


@transaction.atomic
def correct_result(
    user, match: Match, games: Any, note: str = "", lisa: bool | None = None
) -> Result:
    """An organiser corrects a confirmed result; standings recompute from all results."""
    match = _lock(match)
    require(user, "event.manage", match.event)
    old = match.results.select_for_update().filter(status=Result.Status.CONFIRMED).first()
    if old is None:
        raise ServiceError("no_result", _("This match has no confirmed result to correct."))
    if not note.strip():
        raise ServiceError("note_required", _("Say why the result is corrected."))
    fields = score(match.event, games, lisa=lisa)
    return _replace(user, old, Result.Status.SUPERSEDED, fields, note, "result.correct")


@transaction.atomic
def apply_ruling(user, match: Match, games: Any, note: str) -> Result | None:
    """A referee's ruling on a disputed hand (games.disputes) changed the match's points.

    The confirmed or pending result is replaced by a confirmed one with `games`; standings and
    ratings recompute as for a correction. The caller has checked that `user` may rule. None
    when the match has no result yet.
    """
    match = _lock(match)
    old = match.results.select_for_update().filter(status__in=Result.CURRENT).first()
    if old is None:
        return None
    confirmed = old.status == Result.Status.CONFIRMED
    status = Result.Status.SUPERSEDED if confirmed else Result.Status.REJECTED
    fields = score(match.event, games, lisa=old.shutout, ruled=True)
    return _replace(user, old, status, fields, note, "result.ruling")


def award_forfeit(match: Match, absent: str, actor=None) -> Result:
    """The side `absent` ("a" or "b") does not play: the other wins by the event's set score.

    Called inside the caller's transaction with the match locked.
    """
    event = match.event
    won, points = event.forfeit_games, event.forfeit_points
    a_wins = absent == "b"
    result = Result(
        match=match,
        status=Result.Status.CONFIRMED,
        forfeit=True,
        games_a=won if a_wins else 0,
        games_b=0 if a_wins else won,
        points_a=points if a_wins else 0,
        points_b=0 if a_wins else points,
        entered_by=actor,
        confirmed_by=actor,
        confirmed=timezone.now(),
        note=str(_("Forfeit")),
    )
    _save_confirmed(result)
    audit(actor, "result.forfeit", result, event=event, after=snapshot(result, RESULT_FIELDS))
    return result
