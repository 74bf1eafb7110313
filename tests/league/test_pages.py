"""The pages: every page renders, actions go through the services, refusals leave no trace."""

import pytest
from django.conf import settings
from django.urls import reverse

from league.models import Entry, Event, Result
from league.services import results

from .conftest import build_league, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    """The messages checked below are the English ones."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def test_public_pages_render(client, league):
    play(league, league.matches(1)[0], 100, 20)
    match = league.matches(2)[0]
    player = league.pairs[0].player_1
    for url in (
        reverse("home"),
        reverse("events"),
        reverse("club", args=[league.club.slug]),
        reverse("event", args=[league.event.slug]),
        reverse("standings", args=[league.event.slug]),
        reverse("scoresheets", args=[league.event.slug]) + "?round=2",
        reverse("match", args=[match.pk]),
        reverse("player", args=[player.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    standings_page = client.get(reverse("standings", args=[league.event.slug])).content.decode()
    assert "<svg" in standings_page and "polyline" in standings_page
    assert client.get(reverse("event_manage", args=[league.event.slug])).status_code == 302


def test_drafts_and_the_dashboard_are_for_organisers(client, db):
    league = build_league(2, generate=False)
    client.force_login(league.pairs[0].player_1.user)
    assert client.get(reverse("event", args=[league.event.slug])).status_code == 403
    assert client.get(reverse("event_manage", args=[league.event.slug])).status_code == 403
    assert client.post(reverse("generate_fixtures", args=[league.event.slug])).status_code == 403
    client.force_login(league.organiser)
    assert client.get(reverse("event_manage", args=[league.event.slug])).status_code == 200
    assert client.get(reverse("event_edit", args=[league.event.slug])).status_code == 200


def test_create_an_event_through_the_form(client, league):
    client.force_login(league.organiser)
    url = reverse("event_create", args=[league.club.slug])
    assert 'data-format="swiss"' in client.get(url).content.decode()  # the format first
    assert 'name="legs"' not in client.get(url + "?format=swiss").content.decode()
    assert 'name="legs"' in client.get(url + "?format=league").content.decode()
    data = {
        "name": "Copa",
        "format": "league",
        "mode": "board",
        "entry_kind": "pair",
        "boards": 1,
        "legs": 2,
        "rule_preset": "dominican",
        "rule_target": "150",
        "match_format": "target",
        "absence": "forfeit",
        "forfeit_games": 1,
        "forfeit_points": 150,
        "tiebreaks": ["match_wins", "head_to_head", "lots"],
    }
    response = client.post(url, data)
    assert response.status_code == 302
    event = Event.objects.get(name="Copa")
    assert event.tiebreaks == ["match_wins", "head_to_head", "lots"]
    assert event.rule_overrides == {"target": 150}
    form = client.get(url, {"format": "league"}).content.decode()
    assert "The match ends after the hand in which a side reaches these points." in form
    client.cookies["django_language"] = "es"
    shown = client.get(event.get_absolute_url()).content.decode()
    assert "Puntos para ganar: 150" in shown and "target=" not in shown
    client.cookies["django_language"] = "en"
    for bad in ({"rule_target": "many"}, {"rule_target": "0"}, {"tiebreaks": []}):
        response = client.post(url, {**data, "name": "Broken", **bad})
        assert response.status_code == 200 and not Event.objects.filter(name="Broken").exists()
    # Tiebreak buttons without JavaScript: the form comes back reordered, nothing saved.
    moved = client.post(url, {**data, "name": "Moved", "tiebreak_move": "up:1"})
    page = moved.content.decode()
    assert page.index('value="head_to_head"') < page.index('value="match_wins"')
    added = client.post(url, {**data, "tiebreak_move": "add", "tiebreak_add": "points_for"})
    assert added.content.decode().count('name="tiebreaks"') == 4
    assert not Event.objects.filter(name="Moved").exists()


def test_result_forms_double_submission_and_nonsense(client, league):
    match = league.matches(1)[0]
    captain_a, captain_b = league.players(match.entry_a)[0], league.players(match.entry_b)[0]
    client.force_login(captain_a)
    url = reverse("result_enter", args=[match.pk])
    nonsense = client.post(url, {"game_1_a": "lots", "game_1_b": "-3"})
    assert nonsense.status_code == 400 and not Result.objects.exists()
    assert 'value="lots"' in nonsense.content.decode()  # what was typed is kept
    tied = client.post(url, {"game_1_a": "100", "game_1_b": "100", "game_1_hands": ""})
    page = tied.content.decode()
    assert tied.status_code == 400 and "tied" in page and not Result.objects.exists()
    assert page.count('value="100"') == 2 and ">null<" not in page
    client.post(url, {"game_1_a": "100", "game_1_b": "45"})
    again = client.post(url, {"game_1_a": "100", "game_1_b": "0"})
    assert "already waiting" in again.content.decode()
    assert list(Result.objects.values_list("points_b", flat=True)) == [45]
    result = Result.objects.get()
    forbidden = client.post(reverse("result_decide", args=[result.pk, "confirm"]))
    assert forbidden.status_code == 403
    client.force_login(captain_b)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'id="confirm-result"' in page
    client.post(reverse("result_decide", args=[result.pk, "confirm"]))
    second = client.post(reverse("result_decide", args=[result.pk, "confirm"]), follow=True)
    assert "no longer waiting" in second.content.decode()
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by == captain_b


def test_dashboard_actions(client, league):
    client.force_login(league.organiser)
    entry = league.pairs[0]
    response = client.post(reverse("entry_action", args=[entry.pk, "check-in"]))
    assert response.status_code == 302
    match = league.matches(2)[0]
    client.post(reverse("match_schedule", args=[match.pk]), {"postpone": "1"})
    match.refresh_from_db()
    assert match.status == "postponed"
    client.post(
        reverse("match_schedule", args=[match.pk]),
        {"scheduled": "2026-12-01T19:30", "venue": "Sede", "table": "4"},
    )
    match.refresh_from_db()
    assert (match.status, match.table, match.venue) == ("scheduled", 4, "Sede")
    client.post(reverse("entry_action", args=[entry.pk, "withdraw"]), {"reason": "ill"})
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"
    page = client.get(reverse("event_manage", args=[league.event.slug])).content.decode()
    assert "Entry withdrawn" in page  # the audit log in words, not codes


def test_invite_by_link_and_accept_through_the_pages(client, league):
    from league.models import Invitation, Membership

    client.force_login(league.owner)
    client.post(reverse("club_invite", args=[league.club.slug]), {"role": "referee"})
    invitation = Invitation.objects.get()
    client.post(reverse("club_season", args=[league.club.slug]), {"name": "2027"})
    assert league.club.seasons.filter(name="2027").exists()
    client.logout()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # logging out clears the cookies
    url = invitation.get_absolute_url()
    assert client.get(url).status_code == 200
    anonymous = client.post(url)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    newcomer = league.pairs[0].player_1.user
    client.force_login(newcomer)
    client.post(url)
    assert Membership.objects.filter(user=newcomer, role="referee").exists()
    again = client.post(url, follow=True)
    assert "already been used" in again.content.decode()
    assert Membership.objects.filter(user=newcomer).count() == 1


def test_a_refusal_never_redirects_off_the_site(client, league):
    client.force_login(league.organiser)
    entry = league.pairs[0]
    client.post(reverse("entry_action", args=[entry.pk, "withdraw"]))
    response = client.post(
        reverse("entry_action", args=[entry.pk, "withdraw"]),
        HTTP_REFERER="https://evil.example/phish",
    )
    assert response.status_code == 302 and "evil.example" not in response["Location"]


def test_a_refused_correction_keeps_what_was_typed_and_starts_from_the_score(client, league):
    match = league.matches(1)[0]
    results.enter_result(league.organiser, match, [{"points_a": 100, "points_b": 0}])
    client.force_login(league.organiser)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'name="game_1_a" value="100"' in page and 'name="game_1_b" value="0"' in page
    assert ">null</textarea>" not in page and 'id="result-lisa"' in page
    refused = client.post(
        reverse("result_correct", args=[match.pk]), {"game_1_a": "100", "game_1_b": "100"}
    )
    body = refused.content.decode()
    assert refused.status_code == 400 and body.count('value="100"') == 2
    assert "<details open>" in body  # the correction form is shown open, as typed
    assert Result.objects.get(status="confirmed").points_b == 0


def test_a_draft_event_says_it_is_not_published(client, league):
    league.event.status = "draft"
    league.event.save()
    response = client.get(reverse("event", args=[league.event.slug]))
    assert response.status_code == 403
    assert "not published yet" in response.content.decode()
    assert 'class="topbar"' in response.content.decode()  # the site's own page, styled
    missing = client.get("/events/no-such-event/")
    assert missing.status_code == 404 and 'class="topbar"' in missing.content.decode()


def test_the_audit_log_names_people(client, league):
    match = league.matches(1)[0]
    results.enter_result(league.organiser, match, [{"points_a": 100, "points_b": 40}])
    client.force_login(league.owner)
    page = client.get(reverse("event_manage", args=[league.event.slug])).content.decode()
    log = page[page.index("Audit log") :]
    assert "Organiser" in log and f"{match.round} · {match}" in log
    assert "result:" not in log and ">organiser<" not in log
