"""Rounds whose pairing needs longer than a request: a real Celery worker computes them, the
organiser's page shows the progress (issue 32)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Event, Round
from league.services.errors import ServiceError
from league.tournaments.models import DraftPairing, PairingJob, Seat, SitOut
from league.tournaments.services import jobs, swiss
from tests.api.conftest import csrf_post, signed_in
from tests.conftest import in_thread, worker_finished

from .conftest import PASSWORD, build

pytestmark = pytest.mark.django_db(transaction=True)
MESSAGE_ES = "Primero hay que confirmar todas las mesas de la ronda actual."


def draft_tables(event: Event) -> list[tuple[int, int | None]]:
    return list(
        DraftPairing.objects.filter(event=event)
        .order_by("table", "pk")
        .values_list("entry_a_id", "entry_b_id")
    )


def test_a_swiss_round_too_long_for_the_request_is_paired_by_the_worker(
    celery_worker_process, settings
):
    settings.PAIRING_REQUEST_STEPS = 0  # no search fits in the request
    data = build(Event.Format.SWISS, 15, rounds=5)
    job = jobs.start(data.organiser, data.event, PairingJob.Kind.PAIR)
    assert job is not None and not DraftPairing.objects.filter(event=data.event).exists()
    job = worker_finished(job, "pair the round")
    assert job.status == PairingJob.Status.DONE, job.message
    assert jobs.progress_of(job) == {"status": "done", "done": 1000, "total": 1000, "percent": 100}
    by_worker = draft_tables(data.event)
    assert len(by_worker) == 8 and sum(b is None for _, b in by_worker) == 1  # 7 tables, a bye
    # The same round as the request would have made, had it had the time.
    swiss.discard_draft(data.organiser, data.event)
    swiss.pair_round(data.organiser, data.event)
    assert draft_tables(data.event) == by_worker


def test_an_individual_round_is_seated_by_the_worker_in_the_organisers_language(
    celery_worker_process, settings, client
):
    settings.PAIRING_REQUEST_STEPS = 0
    data = build(Event.Format.INDIVIDUAL, 10, rounds=3)
    client.login(username=data.organiser.username, password=PASSWORD)
    run = reverse("tournament_run", args=[data.event.slug])
    response = client.post(
        reverse("tournament_act", args=[data.event.slug, "seat"]),
        HTTP_ACCEPT_LANGUAGE="es",
        follow=True,
    )
    assert "se está emparejando en segundo plano" in response.content.decode()
    job = worker_finished(PairingJob.objects.get(event=data.event), "seat the round")
    assert job.status == PairingJob.Status.DONE and job.language == "es"
    round_ = Round.objects.get(event=data.event)
    assert Seat.objects.filter(round=round_).count() == 8
    assert SitOut.objects.filter(round=round_).count() == 2
    page = client.get(run, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="pairing-progress"' not in page  # the page shows the round, no progress
    progress = client.get(reverse("tournament_job_progress", args=[data.event.slug])).json()
    assert progress["status"] == "done"
    # What the worker refuses reaches the organiser in Spanish too: round 1 is not over.
    job = PairingJob.objects.create(
        event=data.event, kind="seat", requested_by=data.organiser, language="es"
    )
    in_thread(jobs.run, job.pk)
    job.refresh_from_db()
    assert job.status == PairingJob.Status.FAILED
    assert job.message == MESSAGE_ES
    assert Round.objects.filter(event=data.event).count() == 1


def test_the_rounds_wait_while_the_worker_pairs_one(client):
    data = build(Event.Format.SWISS, 8, rounds=3)
    swiss.pair_round(data.organiser, data.event)
    PairingJob.objects.create(event=data.event, kind="pair", requested_by=data.organiser)
    with pytest.raises(ServiceError) as refused:
        jobs.start(data.organiser, data.event, PairingJob.Kind.PAIR)
    assert refused.value.code == "pairing_under_way"
    client.login(username=data.organiser.username, password=PASSWORD)
    page = client.post(
        reverse("tournament_act", args=[data.event.slug, "publish"]),
        HTTP_ACCEPT_LANGUAGE="en",
        HTTP_REFERER=reverse("tournament_run", args=[data.event.slug]),
        follow=True,
    ).content.decode()
    assert "The round is still being paired" in page
    assert not Round.objects.filter(event=data.event).exists()
    api = signed_in(data.organiser)  # the API waits for it as the run page does
    for step in ("publish", "pair", "discard-draft"):
        answer = csrf_post(api, f"/api/v1/events/{data.event.slug}/{step}/")
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "pairing_under_way"
    assert not Round.objects.filter(event=data.event).exists()
    assert DraftPairing.objects.filter(event=data.event).exists()
    assert 'id="pairing-progress"' in page and "In the queue" in page
    # A job a lost worker left behind stops blocking the event after a while.
    PairingJob.objects.update(created=timezone.now() - jobs.STALE_AFTER - timedelta(seconds=1))
    assert jobs.active_job(data.event) is None
    assert PairingJob.objects.get().status == PairingJob.Status.FAILED
    swiss.publish(data.organiser, data.event)
    assert Round.objects.filter(event=data.event).count() == 1


def test_only_the_events_organisers_follow_its_pairing(client):
    data = build(Event.Format.SWISS, 8, rounds=3)
    PairingJob.objects.create(event=data.event, kind="pair", requested_by=data.organiser)
    url = reverse("tournament_job_progress", args=[data.event.slug])
    data.other_organiser.set_password(PASSWORD)
    data.other_organiser.save()
    client.login(username=data.other_organiser.username, password=PASSWORD)
    assert client.get(url).status_code == 403
    client.login(username=data.organiser.username, password=PASSWORD)
    assert client.get(url).json() == {"status": "queued", "done": 0, "total": 0, "percent": 0}


@pytest.mark.browser
def test_the_organiser_watches_a_long_pairing_in_chromium(
    chromium, own_server, celery_worker_process
):
    from .test_browser import log_in, no_errors
    from .test_round_sheet import shot

    server = own_server(PAIRING_REQUEST_STEPS="0")  # every search goes to the worker
    data = build(Event.Format.SWISS, 15, rounds=5)
    run_url = f"{server}/events/{data.event.slug}/tournament/run/"
    # A search under way (as the worker writes it): the page shows how far it has come.
    job = PairingJob.objects.create(
        event=data.event, kind="pair", requested_by=data.organiser, status="running"
    )
    for width, height in ((390, 844), (1366, 768)):
        PairingJob.objects.filter(pk=job.pk).update(done=350, total=1000)
        context = chromium.new_context(locale="es-ES", viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(15000)
        log_in(page, server, data.organiser.username)
        page.goto(run_url)
        label = page.locator("#pairing-progress .progress-label")
        assert "35" in label.inner_text()
        assert page.locator("#pair-round").count() == 0  # nothing to click while it runs
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"pairing-progress-{width}")
        PairingJob.objects.filter(pk=job.pk).update(done=700)  # the page follows it
        page.wait_for_function(
            "() => document.querySelector('#pairing-progress .progress-label')"
            ".textContent.includes('70')"
        )
        assert "70%" in page.locator("#pairing-progress .progress > div").get_attribute("style")
        context.close()
    PairingJob.objects.all().delete()
    # The real thing: the request hands the round to the worker, the page follows it and
    # shows the draft once it is ready.
    context = chromium.new_context(locale="es-ES", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(30000)
    log_in(page, server, data.organiser.username)
    page.goto(run_url)
    page.click("#pair-round")
    page.wait_for_selector("table.draft")
    no_errors(page)
    assert page.locator("table.draft tbody tr").count() == 8
    assert page.locator("#pairing-progress").count() == 0
    assert PairingJob.objects.get().status == PairingJob.Status.DONE
    shot(page, "pairing-done-390")
    context.close()
