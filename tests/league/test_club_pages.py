"""The pages of a club night: founding a club, the roster, invitations kept through sign-up,
entry forms that search the roster, the CSV import and exports, and the dashboard."""

import csv
import io

import pytest
from django.urls import reverse

from league.models import Entry, Event, Invitation, Membership, Organisation, Player
from league.services import clubs, dashboard, invitations, results

from .conftest import build_league, game, make_user, play

PAIRS = "player 1;player 2;seed\nAna Pérez;Luis Peña;1\nMarta Núñez;João Brandão;2\n"


@pytest.fixture(autouse=True)
def english(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def league(db):
    return build_league(size=4, generate=True)


def rows_of(response) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_a_signed_in_person_creates_a_club_and_keeps_its_roster(client, db):
    user = make_user("founder")
    client.force_login(user)
    response = client.post(reverse("club_create"), {"name": "Los Tranques", "city": "Moca"})
    club = Organisation.objects.get(name="Los Tranques")
    assert response.url == reverse("club", args=[club.slug])
    assert Membership.objects.filter(user=user, organisation=club, role="owner").exists()
    client.post(
        reverse("roster_add", args=[club.slug]),
        {"display_name": "Ana Pérez", "email": "ana@example.org", "phone": "809-555"},
    )
    ana = Player.objects.get(display_name="Ana Pérez")
    assert (ana.user, ana.club, ana.phone) == (None, club, "809-555")
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Ana Pérez" in page and "ana@example.org" in page
    # Others see the names, not the contact details.
    client.force_login(make_user("visitor"))
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Ana Pérez" in page and "ana@example.org" not in page
    assert (
        client.post(reverse("roster_add", args=[club.slug]), {"display_name": "X"}).status_code
        == 403
    )


def test_anonymous_visitors_are_sent_to_log_in_to_create_a_club(client, db):
    response = client.get(reverse("club_create"))
    assert response.status_code == 302 and reverse("login") in response.url


def test_an_invitation_followed_by_sign_up_keeps_the_invitation(client, league):
    ana = clubs.add_player(league.organiser, league.club, display_name="Ana", email="ana@x.org")
    luis = clubs.add_player(league.organiser, league.club, display_name="Luis")
    invitation = invitations.invite(league.organiser, league.club, "player", player=ana)
    link = reverse("invitation", args=[invitation.token])
    page = client.get(link).content.decode()
    assert f"{reverse('signup')}?next={link}" in page
    # The person wanders off, then signs up from the menu: the invitation is still there.
    signup = client.get(reverse("signup")).content.decode()
    assert 'value="ana@x.org"' in signup and 'value="Ana"' in signup
    response = client.post(
        reverse("signup"),
        {
            "username": "ana",
            "email": "ana@x.org",
            "display_name": "Ana",
            "password1": "tranque-y-capicua-9",
            "password2": "tranque-y-capicua-9",
        },
    )
    assert response.url == link
    client.post(link)
    ana.refresh_from_db()
    assert ana.user.username == "ana"
    assert Player.objects.filter(user=ana.user).get() == ana
    assert Invitation.objects.get(pk=invitation.pk).accepted_by == ana.user
    assert luis.user is None


def test_sign_up_goes_back_to_the_page_it_was_asked_from(client, db):
    response = client.post(
        reverse("signup") + "?next=/events/",
        {
            "next": "/events/",
            "username": "newbie",
            "email": "newbie@x.org",
            "display_name": "Newbie",
            "password1": "tranque-y-capicua-9",
            "password2": "tranque-y-capicua-9",
        },
    )
    assert response.url == "/events/"


def test_entry_forms_search_the_roster_never_every_user(client, league):
    make_user("stranger-danger")  # a user of the site, on no roster of this club
    clubs.add_player(league.organiser, league.club, display_name="Ana Roster")
    event = league.event
    event.status = Event.Status.REGISTRATION
    event.save()
    client.force_login(league.organiser)
    page = client.get(reverse("event_manage", args=[event.slug])).content.decode()
    assert "Stranger-Danger" not in page and '<select name="player_1"' not in page
    found = client.get(reverse("roster_search", args=[event.slug]), {"q": "ana"}).json()
    assert [p["name"] for p in found["players"]] == ["Ana Roster"]
    assert client.get(reverse("roster_search", args=[event.slug]), {"q": "stranger"}).json() == {
        "players": []
    }
    # A picked roster player and a new name typed inline.
    ana = Player.objects.get(display_name="Ana Roster")
    client.post(
        reverse("entry_register", args=[event.slug]),
        {"player_1": "Ana Roster", "player_1_id": ana.pk, "player_2": "Nueva Persona"},
    )
    entry = Entry.objects.get(event=event, player_1=ana)
    assert entry.player_2.display_name == "Nueva Persona" and entry.player_2.user is None
    assert entry.player_2.club == league.club
    # An id from outside the roster is refused and nothing is written.
    outsider = make_user("outsider", Organisation.objects.create(name="O", slug="o")).player
    before = Player.objects.count()
    client.post(
        reverse("entry_register", args=[event.slug]),
        {"player_1": "x", "player_1_id": outsider.pk, "player_2": "Otra Nueva"},
    )
    assert Player.objects.count() == before
    assert not Entry.objects.filter(player_1=outsider).exists()


def test_roster_search_needs_an_open_event_or_an_organiser(client, league):
    client.force_login(make_user("nosy"))
    assert client.get(reverse("roster_search", args=[league.event.slug])).status_code == 403


def test_csv_import_previews_then_saves_on_confirmation(client, league):
    event = league.event
    client.force_login(league.organiser)
    upload = io.BytesIO(PAIRS.encode("cp1252"))
    upload.name = "pairs.csv"
    before = Entry.objects.count()
    page = client.post(
        reverse("entries_import", args=[event.slug]), {"file": upload, "add_players": "on"}
    ).content.decode()
    assert "Marta Núñez" in page and "confirm-import" in page and "Latin-1" in page
    assert Entry.objects.count() == before
    text = PAIRS.replace("\n", "\r\n")
    response = client.post(
        reverse("entries_import", args=[event.slug]), {"text": text, "add_players": "on"}
    )
    assert response.url == reverse("event_manage", args=[event.slug])
    assert Entry.objects.count() == before + 2


def test_csv_import_shows_each_bad_row_and_saves_nothing(client, league):
    client.force_login(league.organiser)
    upload = io.BytesIO(b"player_1,player_2\nAna,Ana\nLuis,\n")
    upload.name = "bad.csv"
    before = Entry.objects.count(), Player.objects.count()
    page = client.post(reverse("entries_import", args=[league.event.slug]), {"file": upload})
    html = page.content.decode()
    assert 'data-code="duplicate_player"' in html and 'data-code="player_missing"' in html
    assert "confirm-import" not in html
    # Confirming a bad text anyway (a crafted request) saves nothing either.
    client.post(reverse("entries_import", args=[league.event.slug]), {"text": "player_1\nAna\n"})
    assert (Entry.objects.count(), Player.objects.count()) == before


def test_csv_import_refuses_ten_megabytes(client, league):
    client.force_login(league.organiser)
    upload = io.BytesIO(b"x" * (10 * 1024 * 1024))
    upload.name = "junk.csv"
    html = client.post(reverse("entries_import", args=[league.event.slug]), {"file": upload})
    assert 'data-code="file_too_large"' in html.content.decode()


def test_only_organisers_import(client, league):
    client.force_login(league.referee)
    response = client.get(reverse("entries_import", args=[league.event.slug]))
    assert response.status_code == 403


def test_exports_of_entries_results_and_standings(client, league):
    event = league.event
    match = league.matches(1)[0]
    play(league, match, 150, 60)
    entries_csv = rows_of(client.get(reverse("event_export", args=[event.slug, "entries"])))
    assert entries_csv[0][:3] == ["player_1", "player_2", "club"] and len(entries_csv) == 5
    results_csv = rows_of(client.get(reverse("event_export", args=[event.slug, "results"])))
    assert results_csv[0][-1] == "hand_points"
    assert [r[3:9] for r in results_csv[1:]] == [
        [match.entry_a.name, match.entry_b.name, "1", "0", "150", "60"]
    ]
    standings_csv = rows_of(client.get(reverse("event_export", args=[event.slug, "standings"])))
    assert standings_csv[0][:3] == ["position", "entry", "players"]
    assert standings_csv[1][1] == match.entry_a.name and standings_csv[1][4] == "1"
    assert client.get(reverse("event_export", args=[event.slug, "secrets"])).status_code == 404


def test_results_export_lists_each_hand_points(client, league):
    from games.engine import adjudicate
    from tests.engine.records import played_match

    records, played = played_match("tournament")
    a, b = played.scores
    games = [{"points_a": a, "points_b": b, "hands": records}]
    result = results.enter_result(league.organiser, league.matches(1)[0], games)
    assert result.status == "confirmed"  # an organiser's entry counts at once
    rows = rows_of(client.get(reverse("event_export", args=[league.event.slug, "results"])))
    each = " ".join("{}-{}".format(*adjudicate(hand)["points"]) for hand in records)
    assert rows[1][-4:] == ["1", str(a), str(b), each]


def test_draft_events_are_exported_to_organisers_only(client, db):
    data = build_league(size=2, generate=False)
    assert client.get(reverse("event_export", args=[data.event.slug, "entries"])).status_code in (
        302,
        403,
    )


def test_the_dashboard_shows_what_each_event_needs(client, league):
    client.force_login(league.organiser)
    page = client.get(reverse("dashboard")).content.decode()
    assert league.event.name in page
    assert "Round 1: 2 results missing" in page
    match = league.matches(1)[0]
    # one click: straight to the round sheet of the round whose results are missing
    sheet = reverse("round_sheet", args=[match.round_id])
    item = next(i for i in dashboard.events_of(league.organiser) if i.event == league.event)
    assert item.todos[0].url == sheet and f'href="{sheet}"' in page
    results.enter_result(league.players(match.entry_a)[0], match, game(150, 60))
    page = client.get(reverse("dashboard")).content.decode()
    assert "1 result waits for confirmation" in page
    assert "Round 1: 1 result missing" in page
    client.force_login(make_user("bystander"))
    assert league.event.name not in client.get(reverse("dashboard")).content.decode()


def test_after_login_an_organiser_lands_on_the_dashboard(client, league):
    league.organiser.set_password("tranque-y-capicua-9")
    league.organiser.save()
    response = client.post(
        reverse("login"), {"username": league.organiser.username, "password": "tranque-y-capicua-9"}
    )
    assert response.url == reverse("dashboard")


def test_the_dashboard_of_someone_without_a_club_offers_to_create_one(client, db):
    client.force_login(make_user("loner"))
    page = client.get(reverse("dashboard")).content.decode()
    assert reverse("club_create") in page
