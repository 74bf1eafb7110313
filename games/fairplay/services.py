"""Fair play: checking finished hands (a Celery task, off the request path) and the
referees' cases.

Every finished hand of a ranked or competition table is checked once (casual tables only
on request): each decision a person made is valued on that seat's own information and
with its partner's tiles (games/engine/fairplay.py), and the rows are written again only
when the hand's record changes (a referee's ruling that replaces it). A partnership whose
statistic passes the threshold, with enough hands behind it, opens a case for the
referees; they clear it or record a sanction, with a note, in the audit log.

Nothing here reaches a player: no page, message, API answer or log line of theirs reads
these rows (tests/fairplay/test_privacy.py).
"""

import hashlib
import json
import random
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.tasks import queue_on_commit
from games.disputes.models import Ruling
from games.engine import EngineError, replay
from games.engine import fairplay as engine
from games.models import Action, Hand, Table
from league.models import AuditEntry, Membership
from league.permissions import lineage
from league.services.audit import audit
from league.services.errors import ServiceError

from .models import Case, Decision, HandCheck

TASK = "fairplay.check_hand"
CHECKED = (Table.Kind.RANKED, Table.Kind.FIXTURE)  # casual tables: on request only


def option(name: str) -> Any:
    """A fair-play option: settings.FAIRPLAY[name], else the engine's default."""
    return getattr(settings, "FAIRPLAY", {}).get(name, getattr(engine, name))


def checked(kind: str, on_request: bool = False) -> bool:
    """Whether a hand of a table of this `kind` is checked: ranked and competition tables
    always, casual ones on request only."""
    return kind in CHECKED or on_request


def queue_hand(hand_id: int, on_request: bool = False, *, kind: str | None = None) -> None:
    """Check the hand once the transaction commits. Given its table's `kind`, a hand that
    is not checked costs no task (every casual table's hand end would queue one)."""
    if kind is None or checked(kind, on_request):
        queue_on_commit(TASK, hand_id, on_request)


def _record(hand: Hand) -> dict:
    """The hand's record as the latest referee's ruling left it."""
    ruling = Ruling.objects.filter(dispute__live_hand_id=hand.pk).order_by("-at", "-pk").first()
    return ruling.record_after if ruling is not None else hand.record


def _digest(record: Any) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _people(hand: Hand, shift: int) -> tuple[dict[int, int], dict[int, int], dict[int, float]]:
    """Who played each seat in the hand (a person who acted for it, not on timeout), who
    decided each action (by its index among the hand's actions; a bot's or a timeout's:
    nobody), and how long each took since the action before it. `shift`: the hand's
    five-doubles declarations, which Action numbers first."""
    actions = Action.objects.filter(table_id=hand.table_id, hand=hand.number).order_by("number")
    seated, deciders, thinking, last = {}, {}, {}, None
    for action in actions:
        if action.user_id is not None and not action.auto:
            seated[action.seat] = action.user_id
            deciders[action.number - shift] = action.user_id
            if last is not None:
                thinking[action.number - shift] = (action.created - last).total_seconds()
        last = action.created
    return seated, deciders, thinking


def check_hand(hand_id: int, on_request: bool = False) -> None:
    """Check one finished live hand (the task's work). Run twice on one record, the second
    run changes nothing; run after a ruling that replaced the record, it replaces the rows."""
    hand = Hand.objects.select_related("table").filter(pk=hand_id).first()
    if hand is None or not checked(hand.table.kind, on_request):
        return
    record = _record(hand)
    digest = _digest(record)
    if HandCheck.objects.filter(hand=hand, digest=digest).exists():
        return
    started = time.process_time()
    checks, status, reason = [], HandCheck.Status.DONE, ""
    seated: dict[int, int] = {}
    thinking: dict[int, float] = {}
    try:
        final = replay(record)
        seated, deciders, thinking = _people(hand, len(final.declarations))
        if not final.setup.rules.pairs:
            status, reason = HandCheck.Status.SKIPPED, "no_pairs"
        elif not deciders:
            status, reason = HandCheck.Status.SKIPPED, "bots_only"
        else:
            checks = engine.check_hand(
                final,
                deciders,
                random.Random(int(digest[:16], 16)),
                horizon=option("HORIZON"),
                samples=option("SAMPLES"),
                exact_deals=option("EXACT_DEALS"),
                nodes=option("NODES"),
            )
    except (EngineError, ValueError, TypeError, AttributeError):
        status, reason = HandCheck.Status.FAILED, "no_replay"
    seconds = time.process_time() - started
    with transaction.atomic():
        check, created = HandCheck.objects.select_for_update().get_or_create(
            hand=hand, defaults={"digest": digest, "status": status}
        )
        if not created and check.digest == digest:
            return  # another delivery stored this very check meanwhile
        check.digest, check.status, check.reason, check.seconds = digest, status, reason, seconds
        check.save()
        check.decisions.all().delete()
        rows = [
            Decision(
                hand_check=check,
                hand=hand,
                index=c.at,
                seat=c.seat,
                player_id=seated[c.seat],
                partner_id=seated.get((c.seat + 2) % 4),
                telling=c.telling,
                picked=c.picked,
                think=thinking.get(c.at),
                evidence=c.as_dict(),
            )
            for c in checks
            if c.seat in seated
        ]
        Decision.objects.bulk_create(rows)
        _review_cases({(r.player_id, r.partner_id) for r in rows})


@dataclass(frozen=True)
class Statistic:
    """A player's or a partnership's figures over its checked hands."""

    hands: int
    decisions: int  # decisions valued
    telling: int  # telling decisions where one of the two best moves was played
    partner_picks: int  # of those, the move best with the partner's tiles
    advantage: float | None  # mean points a decision the partner's tiles added to the moves
    z: float  # games.engine.fairplay.z_score of the advantages
    confidence: float  # games.engine.fairplay.confidence
    agreement: float | None  # share of moves a program would play (engine.program_move)
    evenness: float | None  # games.engine.fairplay.timing_evenness

    @property
    def shown(self) -> bool:
        """Enough hands and decisions behind it for a statistic at all."""
        return self.hands >= option("MIN_HANDS") and self.decisions >= option("MIN_DECISIONS")

    @property
    def share(self) -> float | None:
        return self.partner_picks / self.telling if self.telling else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "decisions": self.decisions,
            "telling": self.telling,
            "partner_picks": self.partner_picks,
            "advantage": None if self.advantage is None else round(self.advantage, 2),
            "z": round(self.z, 2),
            "confidence": round(self.confidence, 4),
            "agreement": None if self.agreement is None else round(self.agreement, 3),
            "evenness": None if self.evenness is None else round(self.evenness, 3),
        }


def _statistic(rows: list[tuple]) -> Statistic:
    hands = len({hand for hand, *_ in rows})
    picks = [picked for _, telling, picked, *_ in rows if telling and picked != "other"]
    advantages = [
        engine.advantage(e["action"], e["own_values"], e["partner_values"]) for *_, e in rows
    ]
    z = engine.z_score(advantages)
    margin = option("PROGRAM_MARGIN")
    programmed = [engine.program_move(e, margin) for *_, e in rows]
    agreement = sum(programmed) / len(rows) if rows else None
    times = [think for *_, think, _ in rows if think is not None]
    return Statistic(
        hands,
        len(rows),
        len(picks),
        picks.count("partner"),
        sum(advantages) / len(advantages) if advantages else None,
        z,
        engine.confidence(z),
        agreement,
        engine.timing_evenness(times),
    )


_FIELDS = ("hand_id", "telling", "picked", "think", "evidence")


def player_statistic(player_id: int) -> Statistic:
    return _statistic(list(Decision.objects.filter(player_id=player_id).values_list(*_FIELDS)))


def _pair(player_id: int, partner_id: int) -> Q:
    return Q(player_id=player_id, partner_id=partner_id) | Q(
        player_id=partner_id, partner_id=player_id
    )


def partnership_statistic(player_id: int, partner_id: int) -> Statistic:
    rows = Decision.objects.filter(_pair(player_id, partner_id)).values_list(*_FIELDS)
    return _statistic(list(rows))


def _organisations(query: Q) -> list[int]:
    """The organisations (and their parents) of the events whose tables the hands were
    played at."""
    found: set[int] = set()
    hands = Decision.objects.filter(query).values_list("hand_id", flat=True).distinct()
    for hand in Hand.objects.filter(pk__in=hands, table__fixture__isnull=False).select_related(
        "table__fixture__event__organisation"
    ):
        fixture = hand.table.fixture
        if fixture is not None:  # the query keeps only the tables of a fixture
            found.update(lineage(fixture.event.organisation))
    return sorted(found)


def _keep_case(kind: str, player_id: int, partner_id: int | None, query: Q, stat) -> None:
    """Open a case (or bring an open one's figures up to date); two checks at once open one."""
    Case.objects.update_or_create(
        kind=kind,
        player_id=player_id,
        partner_id=partner_id,
        status=Case.Status.OPEN,
        defaults={"statistic": stat.as_dict(), "organisations": _organisations(query)},
    )


def _review_cases(pairs: set[tuple[int, int | None]]) -> None:
    """After a hand is checked: a partnership past the threshold (or a player showing the
    softer signal) goes before the referees; an open case's figures are kept current."""
    players = set()
    for player_id, partner_id in pairs:
        players.add(player_id)
        if partner_id is None:
            continue
        a, b = sorted((player_id, partner_id))
        stat = partnership_statistic(a, b)
        if stat.shown and stat.z >= option("THRESHOLD"):
            _keep_case(Case.Kind.PARTNERSHIP, a, b, _pair(a, b), stat)
    for player_id in players:
        stat = player_statistic(player_id)
        if (
            stat.decisions >= option("PROGRAM_DECISIONS")
            and (stat.agreement or 0) >= option("PROGRAM_AGREEMENT")
            and (stat.evenness or 0) >= option("PROGRAM_EVENNESS")
        ):
            _keep_case(Case.Kind.PROGRAM, player_id, None, Q(player_id=player_id), stat)


# ---------------------------------------------------------------- the referees


def _referee_of(user) -> set[int]:
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.REFEREE).values_list(
            "organisation_id", flat=True
        )
    )


def may_review(user, case: Case) -> bool:
    """Site staff, and the referees of an organisation whose events the hands were played
    in; never one of the case's own players."""
    if not user.is_authenticated or user.pk in (case.player_id, case.partner_id):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return bool(_referee_of(user) & set(case.organisations))


def is_reviewer(user) -> bool:
    """Whether the user judges fair-play cases at all (site staff or a referee)."""
    return user.is_authenticated and (user.is_staff or user.is_superuser or bool(_referee_of(user)))


def cases_for(user) -> list[Case]:
    """The cases the user may review, open ones first."""
    if not is_reviewer(user):
        return []
    cases = Case.objects.select_related("player", "partner", "decided_by").order_by(
        "-status", "-opened"
    )
    found = [c for c in cases if may_review(user, c)]
    return sorted(found, key=lambda c: (c.status != Case.Status.OPEN, -c.opened.timestamp()))


def evidence(case: Case) -> list[Decision]:
    """The case's telling decisions, the most telling (largest gain) first."""
    query = (
        _pair(case.player_id, case.partner_id)
        if case.partner_id is not None
        else Q(player_id=case.player_id)
    )
    rows = Decision.objects.filter(query).select_related("hand__table", "player")
    if case.kind == Case.Kind.PARTNERSHIP:
        rows = rows.filter(telling=True)
    return sorted(rows, key=lambda d: -_gain(d.evidence))[:60]


def _gain(evidence: dict) -> float:
    values = evidence["partner_values"]
    return values[evidence["partner_best"]] - values[evidence["own_best"]]


OUTCOMES = {"clear": Case.Status.CLEARED, "sanction": Case.Status.SANCTIONED}
MAX_NOTE = 2000


@transaction.atomic
def decide(user, case: Case, outcome: Any, note: Any) -> Case:
    """A referee clears the case or records a sanction, with a note (the audit log keeps
    who, when and why)."""
    case = Case.objects.select_for_update().get(pk=case.pk)
    if not may_review(user, case):
        raise ServiceError("forbidden", _("Only the referees can decide a fair-play case."))
    if case.status != Case.Status.OPEN:
        raise ServiceError("not_open", _("This case has already been decided."))
    if outcome not in OUTCOMES:
        raise ServiceError("bad_outcome", _("Clear the case or record a sanction."))
    text = note.strip() if isinstance(note, str) else ""
    if not text:
        raise ServiceError("note_required", _("Write a note for the record."))
    if len(text) > MAX_NOTE:
        raise ServiceError(
            "note_too_long", _("Keep the note under %(n)s characters.") % {"n": MAX_NOTE}
        )
    case.status, case.decided_by, case.decided, case.note = (
        OUTCOMES[outcome],
        user,
        timezone.now(),
        text,
    )
    case.save(update_fields=["status", "decided_by", "decided", "note"])
    audit(
        user,
        f"fairplay.{outcome}",
        case,
        after={"status": case.status, "note": text, "statistic": case.statistic},
    )
    return case


def history(case: Case) -> list[AuditEntry]:
    """The case's entries in the audit log."""
    return list(AuditEntry.objects.filter(target=f"case:{case.pk}").select_related("actor"))
