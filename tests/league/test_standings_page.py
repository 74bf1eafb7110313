"""The standings page as each format ranks: a league's table with a column for each of its
tiebreaks, a Swiss with Buchholz and Sonneborn-Berger, an elimination by placement."""

import csv
import io
import re

import pytest
from django.conf import settings
from django.urls import reverse

from league.models import Event, Match
from league.tournaments.services import brackets, groups, swiss
from league.tournaments.services.brackets import bracket_view
from tests.tournaments.conftest import build
from tests.tournaments.conftest import play as play_tournament

from .conftest import build_league, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def page_of(client, event: Event) -> str:
    response = client.get(reverse("standings", args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def columns(page: str) -> list[str]:
    return re.findall(r'data-tiebreak="([a-z_]+)"', page)


def test_a_league_table_has_a_column_for_each_of_its_tiebreaks_in_order(client):
    order = ["match_wins", "points_for", "head_to_head", "point_difference", "games_won", "lots"]
    league = build_league(size=4, tiebreaks=order)
    first, second = league.matches(1)
    play(league, first, 150, 60)
    play(league, second, 160, 100)
    page = page_of(client, league.event)
    # One game a match: the games won are the matches won; head-to-head separated nobody.
    assert columns(page) == ["match_wins", "points_for", "point_difference", "lots"]
    assert "Tiebreaks, in order: Match wins › Points for › Head-to-head" in page
    assert "› Lots." in page
    assert 'title="Drawn"' not in page  # no column for draws when none was drawn

    best_of = build_league(size=2, tag="b", tiebreaks=order, match_format="best_of", best_of=3)
    assert "games_won" in columns(page_of(client, best_of.event))


def test_the_swiss_standings_page_shows_the_tournament_table(client):
    data = build(Event.Format.SWISS, 4, tag="sw", rounds=3)
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    for match in Match.objects.filter(event=data.event):
        play_tournament(data, match)
    page = page_of(client, data.event)
    assert columns(page)[:3] == ["match_wins", "buchholz", "sonneborn_berger"]
    # Each tiebreak named once, by its own name (none passes for "Lots").
    named = re.search(r"Tiebreaks, in order: ([^<]*)<", page).group(1)
    assert named.count("Lots") == 1 and "Buchholz" in named and "Sonneborn-Berger" in named


def test_the_elimination_standings_page_ranks_by_placement(
    client, django_capture_on_commit_callbacks
):
    data = build(Event.Format.SINGLE_ELIMINATION, 4, tag="se")
    bracket = brackets.create_bracket(data.organiser, data.event)
    for _ in range(2):
        for view in bracket_view(bracket):
            if view.match and view.winner is None:
                with django_capture_on_commit_callbacks(execute=True):
                    play_tournament(data, view.match, a_wins=False)
    page = page_of(client, data.event)
    assert "Winner" in page and "Runner-up" in page
    finalists = [v for v in bracket_view(bracket) if v.name == "Final"][0]
    rows = re.findall(r'<tr[^>]*data-entry="(\d+)"', page)
    assert rows[:2] == [str(finalists.winner.pk), str(finalists.home.pk)]
    assert "position-chart" not in page  # positions over the rounds say nothing here


def test_the_public_standings_offer_the_csv_of_what_they_show(client):
    data = build(Event.Format.SINGLE_ELIMINATION, 4, tag="csv")
    bracket = brackets.create_bracket(data.organiser, data.event)
    semi = next(v for v in bracket_view(bracket) if v.match)
    play_tournament(data, semi.match)
    page = page_of(client, data.event)  # anonymous
    url = reverse("event_export", args=[data.event.slug, "standings"])
    assert f'href="{url}"' in page
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    shown = re.findall(r'<tr[^>]*data-entry="(\d+)"><td class="num">(\d+)</td>', page)
    names = {str(e.pk): e.name for e in data.entries}
    # The export ranks as the page does: by placement in the bracket.
    assert [(r["position"], r["entry"]) for r in rows] == [(p, names[pk]) for pk, p in shown]
    assert rows[0]["place"] == "In play" and rows[-1]["place"] == "4"
    assert "email" not in rows[0] and "phone" not in rows[0]


def test_a_group_stage_exports_its_tables_group_by_group(client):
    data = build(Event.Format.GROUPS_PLAYOFF, 8, tag="gp")
    groups.draw_groups(data.organiser, data.event)
    play_tournament(data, Match.objects.filter(event=data.event).exclude(entry_b=None).first())
    response = client.get(reverse("event_export", args=[data.event.slug, "standings"]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [r["group"] for r in rows] == ["A"] * 4 + ["B"] * 4
    assert [r["position"] for r in rows if r["group"] == "A"][0] == "1"


def test_the_projector_standings_show_a_leagues_table(client):
    league = build_league(size=4)
    first, second = league.matches(1)
    play(league, first, 150, 60)
    play(league, second, 160, 100)
    page = client.get(reverse("projector", args=[league.event.slug])).content.decode()
    heads = re.findall(r'<th class="num"[^>]*>([^<]+)</th>', page.split("projector-standings")[1])
    assert heads == ["#", "P", "W", "L", "Pts", "+/−"]  # no draws column: nobody drew


def test_the_signed_filter_writes_the_minus_sign():
    from league.templatetags.competition import signed

    assert [signed(-12), signed("-3.5"), signed(7), signed(0), signed("-0.0")] == [
        "−12",
        "−3.5",
        "7",
        "0",
        "0.0",
    ]
    assert [signed("2.4", "+"), signed("-2.4", "+"), signed("0.0", "+")] == ["+2.4", "−2.4", "0.0"]
    assert signed(None) == ""


def test_negative_point_differences_show_the_minus_sign_on_pages_and_stay_numbers_in_csv(
    client,
):
    order = ["match_wins", "point_difference", "lots"]
    league = build_league(size=4, tiebreaks=order)
    first, second = league.matches(1)
    play(league, first, 150, 60)
    play(league, second, 160, 100)
    loser = first.entry_b.name
    page = page_of(client, league.event)
    row = re.search(rf'data-entry="{re.escape(loser)}">.*?</tr>', page, re.S).group(0)
    assert '<td class="num">−90</td>' in row and "-90" not in row
    projector = client.get(reverse("projector", args=[league.event.slug])).content.decode()
    assert '<td class="num">−90</td>' in projector and ">-90<" not in projector
    widget = client.get(f"/widget/events/{league.event.slug}/standings/", {"lang": "en"})
    assert "<td>−90</td>" in widget.content.decode()
    export = client.get(reverse("event_export", args=[league.event.slug, "standings"]))
    assert "-90" in export.content.decode("utf-8-sig") and "−" not in export.content.decode()

    data = build(Event.Format.SWISS, 4, tag="minus", rounds=3)
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    for match in Match.objects.filter(event=data.event):
        play_tournament(data, match)
    page = client.get(reverse("tournament", args=[data.event.slug])).content.decode()
    assert "−90" in page and ">-90<" not in page
