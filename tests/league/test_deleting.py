"""On the pages: an entry made by mistake deleted (the browser asks first), a check-in
undone, check-in closed and reopened, and a draft deleted from the page that says what it
deletes. In Chromium at 390 and 1,366 px; `SCREENSHOTS=<folder>` keeps what was seen."""

import pytest

from league.models import AuditEntry, Entry, Event
from league.services import entries
from tests.conftest import in_thread

from .conftest import build_league
from .test_last_mile import VIEWPORTS, fits, shot, signed_in, tag_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@VIEWPORTS
def test_an_organiser_deletes_an_entry_and_the_draft_after_being_asked(
    chromium, asgi_server, viewport
):
    tag = tag_of(viewport)
    league = in_thread(build_league, 4, generate=False, tag=tag)
    in_thread(entries.check_in, league.organiser, league.pairs[0])
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    manage = f"{asgi_server}/events/{league.event.slug}/manage/"
    page.goto(manage)
    shot(page, f"delete-1-manage-{tag}")
    fits(page, viewport)

    page.click("text=Anular asistencia")
    page.wait_for_load_state()
    assert in_thread(lambda: Entry.objects.get(pk=league.pairs[0].pk).checked_in) is None
    page.click("#close-check-in")
    page.wait_for_selector("#reopen-check-in")
    assert page.locator("text=Confirmar asistencia").count() == 0
    assert not in_thread(lambda: Event.objects.get(pk=league.event.pk).check_in_open)
    page.click("#reopen-check-in")
    page.wait_for_selector("#close-check-in")

    gone = league.pairs[3]
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator("tr", has_text=gone.name).locator("text=Eliminar").click()
    assert asked and "por error" in asked[0]
    assert in_thread(lambda: Entry.objects.filter(pk=gone.pk).exists())
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("tr", has_text=gone.name).locator("text=Eliminar").click()
    page.wait_for_selector(f"text={gone.name} eliminada.")
    assert not in_thread(lambda: Entry.objects.filter(pk=gone.pk).exists())

    page.click("#delete-event")
    confirm = page.locator("#delete-confirm")
    assert "3 inscripciones se eliminan" in confirm.inner_text()
    assert in_thread(lambda: Event.objects.filter(pk=league.event.pk).exists())
    shot(page, f"delete-2-confirm-{tag}")
    fits(page, viewport)
    page.click("#confirm-delete")
    page.wait_for_selector("text=fue eliminado")
    assert not in_thread(lambda: Event.objects.filter(pk=league.event.pk).exists())
    actions = in_thread(
        lambda: set(
            AuditEntry.objects.filter(organisation=league.club).values_list("action", flat=True)
        )
    )
    assert {"event.delete", "entry.delete", "event.check_in_close"} <= actions
    shot(page, f"delete-3-club-{tag}")
