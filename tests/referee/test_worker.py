"""Batch adjudication and ruling-driven rating recalculation on a real Celery worker."""

import json
import time

import pytest
from django.urls import reverse

from demo.disputes import illegal_pass_record
from games.disputes import batches, services
from games.disputes.models import Batch
from league.models import Result
from league.ratings import services as ratings
from league.ratings.models import Rating
from league.services import results
from tests.conftest import in_thread, wait_for_mails, worker_finished
from tests.ratings.test_worker import from_scratch, wait_until_recalculated

from .conftest import build_referees, corrected_record, game_with_hand

pytestmark = pytest.mark.django_db(transaction=True)


def line(record: dict, **where) -> bytes:
    return json.dumps(record | where).encode()


def test_batch_of_faulty_and_malformed_lines(celery_worker_process, client):
    refs = in_thread(build_referees, "b")
    match = refs.match
    bad_tile = corrected_record()
    bad_tile["actions"][6] = "7-7"
    data = b"\n".join(
        [
            line(corrected_record(), table=match.table),
            line(illegal_pass_record(), table=match.table, hand_number=2),
            b'{"format": "domino-hand/1", "rules": ',
            b"[1, 2, 3]",
            line(corrected_record(), table=99),
            b'{"format": "domino-hand/1"}',
            b"",
            b"\xff\xfe not text",
            line(bad_tile, table=match.table, hand_number=3),
            line(corrected_record(), table="one"),
        ]
    )
    batch = in_thread(
        batches.create_batch,
        refs.league.organiser,
        refs.league.event,
        match.round,
        data,
        "round-1.jsonl",
    )
    batch = worker_finished(batch, "check the batch")
    assert batch.status == Batch.Status.DONE and batch.processed == batch.total == 10
    by_line = {entry["line"]: entry for entry in batch.report}
    assert by_line[1]["kind"] == "valid" and by_line[1]["points"] == [48, 0]
    assert by_line[2] | {"detail": ""} == {
        "line": 2,
        "kind": "fault",
        "code": "illegal_pass",
        "action": 3,
        "seat": 1,
        "table": match.table,
        "match": match.pk,
        "game": 1,
        "hand": 2,
        "detail": "",
    }
    errors = {
        n: (e["code"], batches.message(e)) for n, e in by_line.items() if e["kind"] == "error"
    }
    assert {n: code for n, (code, _) in errors.items()} == {
        3: "invalid_json",
        4: "not_an_object",
        5: "unknown_table",
        6: "bad_record",
        8: "bad_encoding",
        10: "bad_reference",
    }
    assert all(message for _, message in errors.values())
    assert "99" in errors[5][1]
    assert by_line[9]["code"] == "bad_tile" and 7 not in by_line

    client.force_login(refs.league.organiser)
    progress = client.get(reverse("batch_progress", args=[batch.pk])).json()
    assert progress == {"status": "done", "done": 10, "total": 10, "percent": 100}
    page = client.get(reverse("batch", args=[batch.pk])).content.decode()
    assert "illegal_pass" in page and "invalid_json" in page and "bad_encoding" in page
    response = in_thread(client.post, reverse("batch_dispute", args=[batch.pk, 2]))
    dispute = refs.match.disputes.get()
    assert response.url == reverse("dispute", args=[dispute.pk])
    assert dispute.hand == 2 and dispute.record["actions"][3] == "pass"
    assert (
        client.get(reverse("batch_progress", args=[batch.pk]), HTTP_ACCEPT="x").status_code == 200
    )
    client.force_login(refs.a[0])
    assert client.get(reverse("batch_progress", args=[batch.pk])).status_code == 403
    assert celery_worker_process.poll() is None


def test_a_ruling_that_changes_the_winner_recomputes_the_ratings(celery_worker_process):
    refs = in_thread(build_referees, "r")
    pool = ratings.organisation_pool(refs.league.club)
    ratings.feed(refs.league.event, pool)
    in_thread(results.confirm_result, refs.b[0], refs.result)
    wait_until_recalculated(pool)
    stored = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(pool=pool)}
    assert stored == from_scratch(refs.league.event)

    dispute = in_thread(services.open_result_dispute, refs.b[0], refs.match, 1, 1, "Illegal.")
    ruling = in_thread(
        services.rule,
        refs.league.referee,
        dispute,
        "award",
        "The hand goes to side 1.",
        side=1,
        points=200,
    )
    assert ruling.points_after == [0, 200]
    result = Result.objects.get(match=refs.match, status=Result.Status.CONFIRMED)
    assert (result.points_a, result.points_b, result.winner) == (80, 260, "b")
    wait_until_recalculated(pool)
    recomputed = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(pool=pool)}
    assert recomputed != stored and recomputed == from_scratch(refs.league.event)
    assert game_with_hand()[0]["points_a"] == 110


def test_referees_get_an_email_with_a_full_link(celery_worker_process, mail_dir, settings):
    for path in mail_dir.iterdir():
        path.unlink()
    refs = in_thread(build_referees, "m")
    player = refs.b[0]
    dispute = in_thread(
        services.open_result_dispute, player, refs.match, 1, 1, "Pasó teniendo el 5-2"
    )
    wait_for_mails(mail_dir)
    time.sleep(1)  # the other referees' mails
    mails = "\n".join(wait_for_mails(mail_dir))
    link = settings.SITE_URL + reverse("dispute", args=[dispute.pk])
    assert refs.chief.email in mails
    assert link in mails
