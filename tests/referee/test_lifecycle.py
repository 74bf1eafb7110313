"""Open, rule, appeal, decide: the match result, the standings and the ratings follow."""

import pytest

from games.disputes import services
from games.disputes.models import Dispute, Ruling
from games.disputes.selectors import has_open_dispute
from league.models import AuditEntry, Notification, Result
from league.services import results, standings
from league.services.errors import ServiceError

from .conftest import corrected_record


def open_it(refs, user=None):
    user = user or refs.b[0]
    return services.open_result_dispute(user, refs.match, 1, 1, "He passed holding 5-2.")


def test_dispute_freezes_confirmation_until_ruled(refs):
    dispute = open_it(refs)
    assert dispute.status == Dispute.Status.OPEN
    assert has_open_dispute(refs.match)
    assert Notification.objects.filter(user=refs.league.referee, url__contains=str(dispute.pk))
    with pytest.raises(ServiceError) as refused:
        results.confirm_result(refs.b[0], refs.result)
    assert refused.value.code == "dispute_open"
    refs.result.refresh_from_db()
    assert refs.result.status == Result.Status.PROPOSED

    services.rule(refs.league.referee, dispute, "uphold", "The table's score stands.")
    assert not has_open_dispute(refs.match)
    assert results.confirm_result(refs.b[0], refs.result).status == Result.Status.CONFIRMED


def test_correction_recomputes_result_and_standings_then_appeal(refs):
    results.confirm_result(refs.b[0], refs.result)
    dispute = open_it(refs)
    version = refs.match.event.results_version
    before = {row.entry.pk: row for row in standings.table(refs.league.event).standings}

    ruling = services.rule(
        refs.league.referee,
        dispute,
        "correct",
        "5-2 fits: he must play it.",
        record=corrected_record(),
    )
    assert ruling.points_before == [30, 0] and ruling.points_after == [48, 0]
    assert ruling.record_before["actions"][3] == "pass"
    assert ruling.record_after["actions"][3] == "5-2"
    new = Result.objects.get(match=refs.match, status=Result.Status.CONFIRMED)
    assert ruling.result == new
    assert (new.points_a, new.points_b) == (128, 60)
    assert new.games[0]["hands"][0]["actions"][3] == "5-2"
    assert new.games[0]["rulings"][0]["valid"] is True
    assert Result.objects.get(pk=refs.result.pk).status == Result.Status.SUPERSEDED
    assert AuditEntry.objects.filter(action="result.ruling").exists()
    refs.match.event.refresh_from_db()
    assert refs.match.event.results_version > version
    after = {row.entry.pk: row for row in standings.table(refs.league.event).standings}
    a = refs.match.entry_a.pk
    assert after[a].points_for == before[a].points_for + 18
    # the parties are told on the site
    assert Notification.objects.filter(user=refs.a[0], url=f"/disputes/{dispute.pk}/").exists()

    # appealed once, to the chief referee, who alone decides
    services.appeal(refs.a[1], dispute, "The pass was legal.")
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.APPEALED and has_open_dispute(refs.match)
    assert Notification.objects.filter(user=refs.chief, url=f"/disputes/{dispute.pk}/").exists()
    with pytest.raises(ServiceError) as refused:
        services.decide_appeal(refs.league.referee, dispute, "uphold", "No.")
    assert refused.value.code == "forbidden"
    final = services.decide_appeal(refs.chief, dispute, "uphold", "The table's score stands.")
    assert final.on_appeal and final.points_after == [30, 0]
    latest = Result.objects.get(match=refs.match, status=Result.Status.CONFIRMED)
    assert (latest.points_a, latest.points_b) == (110, 60)
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.FINAL
    with pytest.raises(ServiceError) as again:
        services.appeal(refs.a[1], dispute, "Again.")
    assert again.value.code == "not_appealable"


def test_award_and_penalty(refs):
    dispute = open_it(refs)
    with pytest.raises(ServiceError) as bad:
        services.rule(refs.league.referee, dispute, "award", "x", side=2, points=10)
    assert bad.value.code == "bad_side"
    ruling = services.rule(refs.league.referee, dispute, "penalty", "Illegal pass.", side=1)
    penalty = services.settings_for(refs.league.event).penalty_points
    assert ruling.points_after == [30 + penalty, 0]
    result = Result.objects.get(match=refs.match, status=Result.Status.CONFIRMED)
    assert result.points_a == 110 + penalty


def test_bad_rulings_change_nothing(refs):
    dispute = open_it(refs)
    faulty = corrected_record()
    faulty["actions"][5] = "6-6"
    cases = [
        ("correct", {"record": faulty}, "record_faulty"),
        ("correct", {"record": "nope"}, "bad_record"),
        ("award", {"side": 0, "points": -3}, "bad_points"),
        ("wrong", {}, "bad_ruling"),
    ]
    for kind, how, code in cases:
        with pytest.raises(ServiceError) as refused:
            services.rule(refs.league.referee, dispute, kind, "reason", **how)
        assert refused.value.code == code
    with pytest.raises(ServiceError) as no_reason:
        services.rule(refs.league.referee, dispute, "uphold", "  ")
    assert no_reason.value.code == "reason_required"
    # a correction the match's result cannot take (a game below the target) is refused whole
    with pytest.raises(ServiceError) as too_low:
        services.rule(refs.league.referee, dispute, "award", "x", side=1, points=0)
    assert too_low.value.code == "bad_score"
    assert not Ruling.objects.exists()
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.OPEN
    assert Result.objects.get(match=refs.match).status == Result.Status.PROPOSED


def test_window_and_duplicates(refs):
    from datetime import timedelta

    open_it(refs)
    with pytest.raises(ServiceError) as twice:
        open_it(refs, refs.a[0])
    assert twice.value.code == "already_disputed"
    late = refs.result.entered - timedelta(hours=25)
    with pytest.raises(ServiceError) as closed:
        services.open_dispute(
            refs.a[0], refs.match, game=1, hand=2, record={}, reason="x", played=late
        )
    assert closed.value.code == "window_closed"
    with pytest.raises(ServiceError) as missing:
        services.open_result_dispute(refs.a[0], refs.match, 1, 7, "x")
    assert missing.value.code == "no_such_hand"
