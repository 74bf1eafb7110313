import pytest
from django.urls import reverse
from django.utils import translation

from league.models import Event, Match, Result
from league.tournaments.models import DraftPairing
from league.tournaments.services import brackets, groups, individual, swiss

from .conftest import play

FORMATS = [
    (Event.Format.SWISS, 5),
    (Event.Format.SINGLE_ELIMINATION, 5),
    (Event.Format.DOUBLE_ELIMINATION, 4),
    (Event.Format.GROUPS_PLAYOFF, 6),
    (Event.Format.INDIVIDUAL, 5),
]
FIRST_STEP = {
    Event.Format.SWISS: "pair",
    Event.Format.SINGLE_ELIMINATION: "draw-bracket",
    Event.Format.DOUBLE_ELIMINATION: "draw-bracket",
    Event.Format.GROUPS_PLAYOFF: "draw-groups",
    Event.Format.INDIVIDUAL: "seat",
}


@pytest.mark.parametrize(("fmt", "size"), FORMATS)
def test_every_format_runs_from_its_pages(build_event, client, fmt, size):
    data = build_event(fmt, size)
    slug = data.event.slug
    client.force_login(data.organiser)
    assert client.get(reverse("tournament_run", args=[slug])).status_code == 200
    response = client.post(reverse("tournament_act", args=[slug, FIRST_STEP[fmt]]), follow=True)
    assert response.status_code == 200
    assert not [m for m in response.context["messages"] if m.level_tag == "error"]
    if fmt == Event.Format.SWISS:
        client.post(reverse("tournament_act", args=[slug, "publish"]))
    assert data.event.rounds.exists()
    public = client.get(reverse("tournament", args=[slug]))
    assert public.status_code == 200
    printed = client.get(reverse("tournament_print", args=[slug, 1]))
    assert printed.status_code == 200 and b"table-card" in printed.content


def test_only_organisers_run_it(build_event, client):
    data = build_event(Event.Format.SWISS, 4)
    slug = data.event.slug
    for user in (data.stranger, data.other_organiser):
        client.force_login(user)
        assert client.get(reverse("tournament_run", args=[slug])).status_code == 403
        assert client.post(reverse("tournament_act", args=[slug, "pair"])).status_code == 403
    assert not DraftPairing.objects.exists()
    client.logout()
    assert client.post(reverse("tournament_act", args=[slug, "pair"])).status_code == 302
    assert not DraftPairing.objects.exists()


def test_nonsense_input_gets_a_clear_error(build_event, client):
    data = build_event(Event.Format.SWISS, 4)
    slug = data.event.slug
    client.force_login(data.organiser)
    client.defaults["HTTP_REFERER"] = reverse("tournament_run", args=[slug])
    swiss.pair_round(data.organiser, data.event)
    response = client.post(
        reverse("tournament_act", args=[slug, "swap"]),
        {"first": "x", "second": "999999"},
        follow=True,
    )
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    response = client.post(
        reverse("tournament_act", args=[slug, "options"]), {"rounds": "-3"}, follow=True
    )
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert client.post(reverse("tournament_act", args=[slug, "nonsense"])).status_code == 404
    client.post(reverse("tournament_act", args=[slug, "publish"]))
    response = client.post(reverse("tournament_act", args=[slug, "publish"]), follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["success", "error"]
    match = Match.objects.filter(event=data.event).first()
    response = client.post(
        reverse("tournament_result", args=[match.pk]), {"game_1_a": "abc"}, follow=True
    )
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    assert not Result.objects.exists()


def test_bracket_correction_is_previewed_then_confirmed(
    build_event, client, django_capture_on_commit_callbacks
):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 4)
    bracket = brackets.create_bracket(data.organiser, data.event)
    with django_capture_on_commit_callbacks(execute=True):
        for match in Match.objects.filter(event=data.event):
            play(data, match)
    final = bracket.slots.get(number=3).match
    with django_capture_on_commit_callbacks(execute=True):
        play(data, final)
    semi = bracket.slots.get(number=1).match
    client.force_login(data.organiser)
    url = reverse("tournament_correct", args=[semi.pk])
    flipped = {"game_1_a": 80, "game_1_b": 150, "note": "sheet misread"}
    preview = client.post(url, flipped)
    assert preview.status_code == 200 and preview.context["reset"] == [final]
    assert final.results.filter(status="confirmed").exists()  # nothing changed yet
    done = client.post(url, {**flipped, "confirm": "1", "reset": [final.pk]})
    assert done.status_code == 302
    assert not final.results.filter(status="confirmed").exists()


def test_individual_table_result_from_the_page(build_event, client):
    data = build_event(Event.Format.INDIVIDUAL, 4)
    round_ = individual.seat_round(data.organiser, data.event)
    client.force_login(data.referee)
    client.post(
        reverse("tournament_table_result", args=[round_.pk, 1]), {"points_a": 150, "points_b": 90}
    )
    result = round_.table_results.get()
    assert result.status == "confirmed"  # a referee's entry counts at once
    page = client.get(reverse("tournament", args=[data.event.slug]))
    assert page.context["players"][0].won == 1


def test_demo_swiss_tournament_is_ready_to_pair(db):
    from demo import club as demo

    demo.run()
    event = Event.objects.get(format=Event.Format.SWISS)
    assert event.entries.filter(status="accepted").count() == 8
    organiser = event.organisation.memberships.filter(role="organiser").first().user
    assert len(swiss.pair_round(organiser, event)) == 4


def test_demo_double_elimination_is_half_played(db, client):
    from demo import club as demo
    from demo.tournaments import CUP_NAME
    from league.tournaments.services.brackets import bracket_view

    demo.run()
    assert not demo.run()  # once only
    event = Event.objects.get(name=CUP_NAME, format=Event.Format.DOUBLE_ELIMINATION)
    views = bracket_view(event.bracket)
    played = [v for v in views if v.winner is not None]
    waiting = [v for v in views if v.match is not None and v.winner is None]
    # the winners' three rounds and the losers' first are played, the losers' second waits
    assert len(played) == 9 and len(waiting) == 2
    page = client.get(reverse("tournament", args=[event.slug])).content.decode()
    assert page.count('class="pts"') == 2 * len(played)


def test_results_to_enter_are_listed_round_by_round_each_with_its_sheet(build_event, client):
    data = build_event(Event.Format.GROUPS_PLAYOFF, 6)
    groups.draw_groups(data.organiser, data.event)
    client.force_login(data.organiser)
    page = client.get(reverse("tournament_run", args=[data.event.slug])).content.decode()
    rounds = data.event.rounds.order_by("number")
    assert rounds.count() > 1  # a group stage's rounds are all drawn at once
    for round_ in rounds:
        assert page.count(f'href="{reverse("round_sheet", args=[round_.pk])}"') >= 1
    assert page.count('class="result-round"') == rounds.count()


def test_start_the_playoff_is_offered_only_once_every_group_match_counts(build_event, client):
    from league.services import dashboard, results
    from league.tournaments.models import Bracket

    data = build_event(Event.Format.GROUPS_PLAYOFF, 8, groups=2, qualifiers_per_group=2)
    groups.draw_groups(data.organiser, data.event)
    slug = data.event.slug
    run = reverse("tournament_run", args=[slug])
    matches = list(Match.objects.filter(event=data.event).order_by("round__number", "table"))
    for match in matches[:-3]:
        play(data, match)
    waiting = matches[-3]  # a player's entry, not confirmed yet
    results.enter_result(waiting.entry_a.player_1.user, waiting, [{"points_a": 150, "points_b": 9}])
    client.force_login(data.organiser)
    client.cookies.load({"django_language": "en"})
    page = client.get(run).content.decode()
    assert 'id="start-playoff"' not in page
    assert "3 group matches still need a confirmed result." in page
    sheet = reverse("round_sheet", args=[matches[-2].round_id])
    assert f'href="{sheet}"' in page.split('id="playoff-waits"')[1].split("</p>")[0]
    with translation.override("en"):
        item = next(i for i in dashboard.events_of(data.organiser) if i.event == data.event)
        assert "Start the playoff" not in [str(t.text) for t in item.todos]

    # a forged POST is refused with the same words, and nothing is drawn
    counts = (Match.objects.count(), data.event.rounds.count())
    response = client.post(reverse("tournament_act", args=[slug, "playoff"]), follow=True)
    errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
    assert errors == ["3 group matches still need a confirmed result."]
    assert not Bracket.objects.filter(event=data.event).exists()
    assert (Match.objects.count(), data.event.rounds.count()) == counts

    for match in matches[-2:]:
        play(data, match)
    results.confirm_result(data.organiser, waiting.results.get())
    page = client.get(run).content.decode()
    assert 'id="start-playoff"' in page and 'id="playoff-waits"' not in page
    with translation.override("en"):
        item = next(i for i in dashboard.events_of(data.organiser) if i.event == data.event)
        assert [(str(t.text), t.url) for t in item.todos] == [("Start the playoff", run)]
    client.post(reverse("tournament_act", args=[slug, "playoff"]))
    assert Bracket.objects.filter(event=data.event).exists()


def test_the_dashboard_names_a_brackets_round_by_its_name(build_event):
    from league.services import dashboard

    data = build_event(Event.Format.DOUBLE_ELIMINATION, 4)
    brackets.create_bracket(data.organiser, data.event)
    for match in Match.objects.filter(event=data.event):
        play(data, match)
    brackets.sync(data.event.bracket)  # as once the results' transaction commits
    with translation.override("en"):
        item = next(i for i in dashboard.events_of(data.organiser) if i.event == data.event)
        todo = item.todos[0]
        assert str(todo.text) == "Winners' final — 1 result missing"
    round_ = data.event.rounds.get(name="Winners' final")
    assert todo.url == reverse("round_sheet", args=[round_.pk])


def test_a_brackets_run_page_does_not_count_its_rounds_as_a_swiss_does(build_event, client):
    data = build_event(Event.Format.DOUBLE_ELIMINATION, 4)
    brackets.create_bracket(data.organiser, data.event)
    client.force_login(data.organiser)
    client.cookies.load({"django_language": "en"})
    page = client.get(reverse("tournament_run", args=[data.event.slug])).content.decode()
    assert "Latest round" not in page and "Winners&#x27; semi-finals" in page
