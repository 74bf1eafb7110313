"""Every tournament option the run page has, read and written over the API, checked by the
same rules as the page's form; a refused change changes nothing."""

import pytest
from django.utils import translation

from league.models import AuditEntry, Event
from league.tournaments.forms import OptionsForm
from league.tournaments.models import Tournament
from league.tournaments.services.common import OPTION_FIELDS

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db
F = Event.Format

CHOSEN = {
    F.LEAGUE: {},
    F.SWISS: {"rounds": 3, "avoid_same_club": True},
    F.SINGLE_ELIMINATION: {"seeding": "lot", "third_place": True},
    F.DOUBLE_ELIMINATION: {"seeding": "rating", "grand_final_reset": False},
    F.GROUPS_PLAYOFF: {
        "seeding": "lot",
        "groups": 3,
        "qualifiers_per_group": 1,
        "playoff_double": True,
        "third_place": True,
        "grand_final_reset": False,
    },
    F.INDIVIDUAL: {"rounds": 7, "whist": True, "sit_out_score": 1, "sit_out_points": 50},
}


@pytest.fixture
def owner(league):
    return with_key(key_for(league, "write"))


def _create(client, league, event_format: str, **body):
    """POST /events/ of a new event of this format (with `body`'s other settings)."""
    new = {"organisation": league.club.slug, "name": "Copa", "format": event_format, **body}
    return client.post("/api/v1/events/", new, "json")


def _state() -> tuple:
    return (
        list(Event.objects.order_by("pk").values()),
        list(Tournament.objects.order_by("pk").values()),
        AuditEntry.objects.count(),
    )


@pytest.mark.parametrize("event_format", list(CHOSEN))
def test_each_formats_options_are_written_and_read(owner, league, event_format):
    made = _create(owner, league, event_format, options=CHOSEN[event_format])
    assert made.status_code == 201, made.content
    expected = {**CHOSEN[event_format]}
    if "sit_out_score" in expected:
        expected["sit_out_score"] = 1.0
    defaults = Tournament()
    shown = made.json()["options"]
    assert set(shown) == set(OPTION_FIELDS[event_format])
    assert shown == {n: expected.get(n, getattr(defaults, n)) for n in shown}
    url = f"/api/v1/events/{made.json()['slug']}/"
    assert owner.get(url).json()["options"] == shown
    if event_format != F.LEAGUE:
        stored = Tournament.objects.get(event__slug=made.json()["slug"])
        assert {n: getattr(stored, n) for n in shown} == shown
        # One option changes; the others keep their values.
        name = OPTION_FIELDS[event_format][-1]
        changed = {"rounds": 4, "third_place": False, "grand_final_reset": True}.get(
            name, {"sit_out_points": 10, "avoid_same_club": False}.get(name)
        )
        patched = owner.patch(url, {"options": {name: changed}}, "json")
        assert patched.status_code == 200, patched.content
        assert patched.json()["options"] == {**shown, name: changed}


def test_an_event_made_over_the_api_starts_with_its_formats_tiebreaks(owner, league):
    made = _create(owner, league, F.SWISS).json()
    assert made["tiebreaks"][:3] == ["match_wins", "buchholz", "sonneborn_berger"]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"rounds": 31}, "rounds"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": "many"}, "rounds"),
        ({"seeding": "by_height"}, "seeding"),
        ({"sit_out_score": 0.25}, "sit_out_score"),
        ({"sit_out_points": 1001}, "sit_out_points"),
        ({"groups": 17}, "groups"),
        ({"qualifiers_per_group": 9}, "qualifiers_per_group"),
        ({"hours": 3}, "hours"),
    ],
)
def test_bad_options_are_refused_and_change_nothing(owner, league, options, field):
    before = _state()
    refused = _create(owner, league, F.SWISS, options=options)
    assert refused.status_code == 400, refused.content
    assert refused.json()["error"]["fields"]["options"][field]
    patched = owner.patch(f"/api/v1/events/{league.event.slug}/", {"options": options}, "json")
    assert patched.status_code == 400
    assert _state() == before


def test_an_option_of_another_format_is_refused_with_the_rest(owner, league):
    """The event is not made without its options: all of it, or nothing."""
    before = _state()
    refused = _create(owner, league, F.SWISS, options={"whist": True})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "bad_options"
    league_options = owner.patch(
        f"/api/v1/events/{league.event.slug}/", {"name": "Otra", "options": {"rounds": 3}}, "json"
    )
    assert league_options.status_code == 422
    assert _state() == before


def test_the_api_and_the_run_page_refuse_an_option_in_the_same_words(owner, league):
    made = _create(owner, league, F.SWISS).json()
    event = Event.objects.get(slug=made["slug"])
    for language in ("es", "pt-br", "en"):
        refused = owner.patch(
            f"/api/v1/events/{event.slug}/",
            {"options": {"rounds": 31}},
            "json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        with translation.override(language):
            form = OptionsForm({"rounds": 31}, instance=Tournament(event=event), event=event)
            assert not form.is_valid()
            page = form.errors["rounds"]
        assert refused.json()["error"]["fields"]["options"]["rounds"] == page


def test_a_read_only_key_reads_options_and_changes_none(league):
    reader = with_key(key_for(league, "read"))
    url = f"/api/v1/events/{league.event.slug}/"
    assert reader.get(url).json()["options"] == {}
    refused = reader.patch(url, {"options": {"rounds": 3}}, "json")
    assert refused.status_code == 403
