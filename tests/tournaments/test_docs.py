"""docs/competition.md describes the formats, options, points and tiebreaks the code has."""

import re
from importlib import import_module
from pathlib import Path

from league.models import Autopilot, Entry, Event, Match
from league.pairing import TIEBREAK_KEYS
from league.services import entries, standings
from league.services.autopilot import ONLINE_FORMATS
from league.services.events import DEFAULT_TIEBREAKS, format_tiebreaks
from league.services.standings import CountedMatch
from league.tournaments.models import Tournament
from league.tournaments.services import individual, swiss
from league.tournaments.services.common import OPTION_FIELDS, tournament_of
from league.tournaments.services.standings import individual_table, pairs_table
from tests.league.conftest import build_league

from .conftest import play

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "competition.md").read_text()


def section(start: str, end: str | None = None) -> str:
    """The text of the document from the heading `start` to the heading `end`."""
    begin = DOC.index(start)
    return DOC[begin : DOC.index(end, begin) if end else None]


def rows(text: str) -> list[list[str]]:
    """The body rows of the first table in `text`, each as its cells."""
    lines = text[text.index("\n|") + 1 :].splitlines()
    table = lines[: next((i for i, line in enumerate(lines) if not line.startswith("|")), None)]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in table[2:]]


def names(cell: str) -> list[str]:
    """The `code` names of a cell, in order."""
    return re.findall(r"`(\w+)`", cell)


def written(value) -> str:
    """A default as the document writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return f"`{value}`"
    return str(value)


def test_every_format_is_described():
    table = {names(row[0])[0] for row in rows(section("## 1. Formats", "### `league`"))}
    assert table == set(Event.Format.values)
    for fmt in Event.Format.values:
        assert re.search(rf"^### .*`{fmt}`", DOC, re.MULTILINE), fmt


def test_the_formats_that_run_themselves_online():
    online = section("**Online events that run themselves**", "Ranked matchmaking")
    but = re.search(r"in every format but ((?:`\w+`(?:, | and )?)+)", online)
    assert but is not None
    assert set(names(but[1])) == set(Event.Format.values) - set(ONLINE_FORMATS)
    choices = re.search(r"`two_forfeits`:\s+`(\w+)`, the default, or `(\w+)`", online)
    assert choices is not None and set(choices.groups()) == set(Autopilot.Forfeits.values)
    assert choices[1] == Autopilot._meta.get_field("two_forfeits").default


def test_every_tournament_option_with_its_formats_and_default():
    options = {name for names_ in OPTION_FIELDS.values() for name in names_}
    described = rows(section("The tournament formats (all but", "And settings of"))
    assert {names(row[0])[0] for row in described} == options
    for name_cell, formats, default, _meaning in described:
        name = names(name_cell)[0]
        assert names(formats) == [f for f, names_ in OPTION_FIELDS.items() if name in names_]
        assert default == written(Tournament._meta.get_field(name).default), name


def test_the_event_settings_defaults_are_the_models():
    described = rows(section("And settings of the event itself", "### `league`"))
    assert len(described) >= 5
    for name_cell, default, _meaning in described:
        name = names(name_cell)[0]
        assert default == written(Event._meta.get_field(name).default), name


def test_every_choice_is_described():
    match_formats = rows(section("### Match formats", "### Results that count"))
    assert {names(row[0])[0] for row in match_formats} == set(Event.MatchFormat.values)
    seedings = rows(section("**Seeding**", "**Brackets**"))
    assert {names(row[0])[0] for row in seedings} == set(Tournament.Seeding.values)
    withdrawals = section("- **Withdrawal and disqualification.**", "## 7.")
    for value in Event.Absence.values:
        assert f"  - `{value}`: " in withdrawals, value
    for value in Event.Mode.values:
        assert f"`{value}`" in section("### Online play", "## 2."), value


def test_every_tiebreak_key_is_described_with_its_source():
    keys = rows(section("### The keys", "### Each format's tiebreaks"))
    described = {names(row[0])[0]: row[2] for row in keys}
    assert set(described) == set(TIEBREAK_KEYS) | set(Event.Tiebreak.values)
    articles = {"buchholz": "8.1", "buchholz_cut1": "14.1", "sonneborn_berger": "9.1"}
    for key, article in articles.items():
        assert f"FIDE C.07, Article {article}" in described[key], key
    missing = section("### What is not implemented", "## 6.")
    assert "Article 16" in missing and "virtual opponent" in missing and "dummy opponent" in missing


def test_each_formats_default_tiebreaks_are_the_codes():
    table = rows(section("### Each format's tiebreaks, by default", "### What is not implemented"))
    described = {names(row[0])[0]: names(row[1]) for row in table}
    assert described == {fmt: list(format_tiebreaks(fmt)) for fmt in Event.Format.values}
    assert described["league"] == DEFAULT_TIEBREAKS


def test_the_numbers_named_in_the_pairing_sections_are_the_codes():
    named = re.findall(r"`(\w+)\.([A-Z_]+)` = ([\d,]+)", DOC)
    assert {module for module, _, _ in named} == {"swiss", "rotating", "whist"}
    for module, name, value in named:
        actual = getattr(import_module(f"league.pairing.{module}"), name)
        assert actual == int(value.replace(",", "")), (module, name)


def match_points() -> dict[str, str]:
    """The match points table of section 4: outcome -> what it is worth."""
    return dict(rows(section("## 4. Standings", "Entries still level")))


def worth(outcome: str, **names_: float) -> float:
    """An outcome's match points as the document gives them (a number, or a named setting)."""
    value = match_points()[outcome]
    return names_[value.strip("`")] if value.startswith("`") else float(value)


def test_a_win_a_lisa_a_draw_and_a_loss_are_worth_what_section_4_says():
    teams = [Entry(pk=pk, name=str(pk)) for pk in range(1, 7)]
    multiplier = 2
    played = [
        CountedMatch(1, 1, 2, 1, 0, 150, 90, False),  # 1 wins, 2 loses
        CountedMatch(1, 3, 4, 1, 0, 120, 0, True),  # 3 wins by a lisa
        CountedMatch(1, 5, 6, 2, 2, 300, 280, False),  # a drawn team fixture
    ]
    table = {
        row.entry.pk: row.values["match_wins"]
        for row in standings.rank(teams, played, DEFAULT_TIEBREAKS, multiplier)
    }
    assert table[1] == worth("win") and table[2] == worth("loss") == table[4]
    assert table[3] == worth("win by a lisa", shutout_multiplier=multiplier) == 2
    assert table[5] == table[6] == worth("draw") == 0.5


def test_byes_and_forfeits_are_worth_what_section_4_says(build_event):
    data = build_event(Event.Format.SWISS, 3, rounds=2)
    swiss.pair_round(data.organiser, data.event)
    round_ = swiss.publish(data.organiser, data.event)
    bye = round_.matches.get(entry_b__isnull=True).entry_a
    match = round_.matches.get(entry_b__isnull=False)
    entries.withdraw(data.organiser, match.entry_b)  # the event's absence: a forfeit
    rows_ = {row.entry.pk: row for row in pairs_table(data.event)}
    event = data.event
    assert rows_[bye.pk].values["match_wins"] == worth("Swiss bye") == 1
    assert (rows_[bye.pk].games_won, rows_[bye.pk].points_for) == (
        event.forfeit_games,
        event.forfeit_points,
    )
    winner, loser = rows_[match.entry_a_id], rows_[match.entry_b_id]
    assert winner.values["match_wins"] == worth("forfeit win")
    assert loser.values["match_wins"] == worth("forfeit loss") and loser.played == 1
    assert (winner.games_won, winner.points_for) == (event.forfeit_games, event.forfeit_points)


def test_a_league_bye_is_worth_what_section_4_says(db):
    league = build_league(3)
    bye = Match.objects.get(event=league.event, round__number=1, entry_b__isnull=True).entry_a
    for match in league.matches(1):
        play(league, match)
    table = {row.entry.pk: row for row in standings.compute(league.event).standings}
    assert table[bye.pk].played == 0
    assert table[bye.pk].values["match_wins"] == worth("league bye") == 0


def test_an_individual_round_is_worth_what_section_4_says(build_event):
    data = build_event(Event.Format.INDIVIDUAL, 5, rounds=1)
    round_ = individual.seat_round(data.organiser, data.event)
    individual.enter_table_result(data.organiser, round_, 1, 150, 80)
    sit_out = tournament_of(data.event).sit_out_score
    side_a = {s.player_id for s in round_.seats.all() if s.side == "a"}
    resting = round_.sit_outs.get().player_id
    for row in individual_table(data.event):
        if row.player.pk == resting:
            outcome = worth("individual: a round sat out", sit_out_score=sit_out)
        else:
            outcome = worth(f"individual: a table {'won' if row.player.pk in side_a else 'lost'}")
        assert row.values["match_wins"] == outcome, row.player


def test_the_readme_architecture_section_links_the_document():
    readme = (ROOT / "README.md").read_text()
    architecture = readme[readme.index("## Architecture") :]
    assert "docs/competition.md" in architecture[: architecture.index("**The house reads")]
