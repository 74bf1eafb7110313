"""Embeddable standings, fixtures and bracket: framable, in the club site's language."""

import re

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import RequestFactory

from league.models import Event, Match
from league.services import events
from league.tournaments.models import BracketSlot
from league.tournaments.services import brackets, swiss
from tests.league.conftest import play
from tests.tournaments.conftest import build
from tests.tournaments.conftest import play as tournament_play

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", ["standings", "fixtures"])
def test_a_widget_may_be_framed_by_any_site(client, league, kind):
    response = client.get(f"/widget/events/{league.event.slug}/{kind}/")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response
    assert response["Access-Control-Allow-Origin"] == "*"
    assert client.get("/")["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize(("lang", "html_lang"), [("es", "es"), ("pt-br", "pt-br"), ("en", "en")])
def test_a_widget_speaks_the_sites_language(client, league, lang, html_lang):
    response = client.get(f"/widget/events/{league.event.slug}/standings/", {"lang": lang})
    assert f'<html lang="{html_lang}">' in response.content.decode()


def test_standings_widget_shows_the_table(client, league):
    play(league, league.matches(1)[0], 150, 40)
    body = client.get(f"/widget/events/{league.event.slug}/standings/").content.decode()
    assert all(pair.name in body for pair in league.pairs)


def test_fixtures_widget_shows_a_round_and_its_results(client, league):
    match = league.matches(1)[0]
    play(league, match, 150, 40)
    body = client.get(f"/widget/events/{league.event.slug}/fixtures/", {"round": 1})
    assert "150 – 40" in body.content.decode()


def test_a_draft_has_no_widget(client, league):
    draft = events.create_event(league.organiser, league.club, name="Borrador")
    assert client.get(f"/widget/events/{draft.slug}/standings/").status_code == 404


@pytest.mark.parametrize(("who", "shown"), [("organiser", True), ("referee", False)])
def test_the_snippet_is_shown_to_organisers(league, who, shown):
    request = RequestFactory().get("/")
    request.user = getattr(league, who)
    html = Template("{% load api_widgets %}{% widget_snippet event %}").render(
        Context({"request": request, "event": league.event})
    )
    assert (f"/widget/events/{league.event.slug}/standings/?lang=" in html) is shown


@pytest.mark.parametrize(("who", "shown"), [("organiser", True), ("referee", False)])
def test_the_event_page_shows_organisers_the_snippet(client, league, who, shown):
    client.force_login(getattr(league, who))
    page = client.get(league.event.get_absolute_url()).content.decode()
    assert ("/widget/events/" in page) is shown


@pytest.mark.parametrize(("who", "shown"), [("owner", True), ("organiser", False)])
def test_the_club_page_links_owners_to_keys_and_webhooks(client, league, who, shown):
    client.force_login(getattr(league, who))
    page = client.get(f"/clubs/{league.club.slug}/").content.decode()
    assert (f"/clubs/{league.club.slug}/integrations/" in page) is shown


def _bracket_event(size: int = 4):
    data = build(Event.Format.DOUBLE_ELIMINATION, size, tag="w", grand_final_reset=True)
    events.set_status(data.organiser, data.event, Event.Status.REGISTRATION)
    return data


def test_bracket_widget_shows_the_draw_and_who_won(client, django_capture_on_commit_callbacks):
    data = _bracket_event()
    url = f"/widget/events/{data.event.slug}/bracket/"
    assert "La llave aún no está sorteada." in client.get(url, {"lang": "es"}).content.decode()
    bracket = brackets.create_bracket(data.organiser, data.event)
    first = BracketSlot.objects.get(bracket=bracket, number=1).match
    with django_capture_on_commit_callbacks(execute=True):
        tournament_play(data, first)
    response = client.get(url, {"lang": "en"})
    assert response.status_code == 200 and "X-Frame-Options" not in response
    body = response.content.decode()
    assert all(entry.name in body for entry in data.entries)
    won = f'<span class="side won"><span class="who"><span class="name-part">{first.entry_a.name}<'
    assert won in body
    assert "Correct" not in body  # the organiser's links stay on the site


@pytest.mark.parametrize(("fmt", "shown"), [("double_elimination", True), ("league", False)])
def test_the_snippet_offers_the_bracket_to_bracket_events(league, fmt, shown):
    event = events.create_event(league.organiser, league.club, name="Copa", format=fmt)
    event = events.set_status(league.organiser, event, Event.Status.REGISTRATION)
    request = RequestFactory().get("/")
    request.user = league.organiser
    html = Template("{% load api_widgets %}{% widget_snippet event %}").render(
        Context({"request": request, "event": event})
    )
    assert (f"/widget/events/{event.slug}/bracket/?lang=" in html) is shown


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("es", ["Semifinales", "Final", "Encuentro por el tercer puesto"]),
        ("pt-br", ["Semifinais", "Final", "Confronto pelo terceiro lugar"]),
    ],
)
def test_the_bracket_widget_names_the_rounds_in_the_sites_language(client, lang, names):
    data = build(Event.Format.SINGLE_ELIMINATION, 4, tag=lang, third_place=True)
    events.set_status(data.organiser, data.event, Event.Status.REGISTRATION)
    brackets.create_bracket(data.organiser, data.event)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the reader speaks another language
    body = client.get(f"/widget/events/{data.event.slug}/bracket/", {"lang": lang}).content
    body = body.decode()
    assert all(name in body for name in names)
    assert "Semi-finals" not in body and "Third-place match" not in body


def test_the_standings_widget_counts_a_swiss_bye_as_the_page_does(client):
    data = build(Event.Format.SWISS, 3, tag="bye", rounds=2)
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    played = Match.objects.get(event=data.event, entry_b__isnull=False)
    tournament_play(data, played)
    bye = Match.objects.get(event=data.event, entry_b__isnull=True).entry_a
    body = client.get(f"/widget/events/{data.event.slug}/standings/", {"lang": "en"}).content
    rows = re.findall(
        r"<tr[^>]*>\s*<td>\d+=?</td><td>([^<]+)</td>\s*<td>(\d+)</td><td>(\d+)</td>", body.decode()
    )
    won = {name: int(w) for name, _played, w in rows}
    assert won == {played.entry_a.name: 1, bye.name: 1, played.entry_b.name: 0}
