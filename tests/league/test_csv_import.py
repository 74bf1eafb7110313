"""CSV import of entrants: a preview with an error per bad row, then all rows or none."""

import os

import pytest
from django.utils import translation

from league.models import Entry, Event, Organisation, Player
from league.services import clubs, entries, events
from league.services.entries import ImportRefused, import_entrants, preview_entrants

from .conftest import build_league

PAIRS = "player 1,player 2,club,seed\nAna Pérez,João Brandão,,1\nLuis Peña,Marta Núñez,,2\n"


@pytest.fixture
def league(db):
    return build_league(size=1, generate=False)


def counts():
    return Entry.objects.count(), Player.objects.count()


def codes(preview) -> list[tuple[int | None, str]]:
    return [(p["line"], p["code"]) for p in preview.problems()]


def refused(league, data, **options) -> list[tuple[int | None, str]]:
    """The import is refused, nothing is saved, and the (line, code) of each error."""
    before = counts()
    with pytest.raises(ImportRefused) as caught:
        import_entrants(league.organiser, league.event, data, **options)
    assert counts() == before
    assert caught.value.code == "bad_csv"
    return codes(caught.value.preview)


def test_preview_saves_nothing_and_import_enters_new_players_without_accounts(league):
    before = counts()
    preview = preview_entrants(league.event, PAIRS.encode())
    assert preview.ok and preview.encoding == "UTF-8"
    assert [row.new_players for row in preview.rows] == [
        ["Ana Pérez", "João Brandão"],
        ["Luis Peña", "Marta Núñez"],
    ]
    assert counts() == before

    made = import_entrants(league.organiser, league.event, PAIRS.encode())
    assert [e.name for e in made] == ["Ana Pérez / João Brandão", "Luis Peña / Marta Núñez"]
    assert [e.seed for e in made] == [1, 2]
    ana = made[0].player_1
    assert ana.user is None and ana.club == league.club
    assert league.event.audit.filter(action="entry.import").exists()


def test_roster_players_are_found_by_name_whatever_the_spacing_and_case(league):
    known = clubs.add_player(league.organiser, league.club, display_name="Ana Pérez")
    data = "Jugador 1;Jugador 2\n  ana   PÉREZ ;Nuevo Jugador\n"
    (row,) = preview_entrants(league.event, data.encode()).rows
    assert row.players == [known, None] and row.errors == []
    (entry,) = import_entrants(league.organiser, league.event, data.encode())
    assert entry.player_1 == known


def test_latin_1_files_are_read(league):
    data = PAIRS.encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    preview = preview_entrants(league.event, data)
    assert preview.ok and preview.encoding == "Latin-1"
    assert preview.rows[0].names == ["Ana Pérez", "João Brandão"]


def test_utf8_with_a_byte_order_mark_and_ratings(league):
    data = "\ufeffplayer_1,player_2,rating\nA One,B Two,1510.5\nC Three,D Four,\n"
    made = import_entrants(league.organiser, league.event, data.encode())
    assert [e.rating for e in made] == [1510.5, None]


def test_missing_columns(league):
    assert refused(league, b"name,partner\nAna,Luis\n") == [(None, "missing_columns")]


def test_missing_cells_and_names(league):
    data = b"player_1,player_2,club\nAna,Luis\n,Marta,\n"
    assert refused(league, data) == [(2, "missing_cells"), (3, "player_missing")]


def test_unknown_players_when_only_the_roster_may_be_entered(league):
    clubs.add_player(league.organiser, league.club, display_name="Ana")
    data = b"player_1,player_2\nAna,Nadie\n"
    assert refused(league, data, add_players=False) == [(2, "unknown_player")]


def test_bad_numbers(league):
    data = b"player_1,player_2,seed,rating\nA,B,1,1500\nC,D,x,\nE,F,0,mucho\n"
    assert refused(league, data) == [(3, "bad_seed"), (4, "bad_seed"), (4, "bad_rating")]


def test_a_club_not_on_the_site_is_kept_as_written_and_never_refuses_the_file(league):
    tranques = Organisation.objects.create(name="Los Tranques", slug="los-tranques")
    data = (
        b"player_1,player_2,club\n"
        b"A,B,Los Tranques\n"
        b"C,D,  Club   Fantasma de Villa Juana \n"
        b"E,F,los-tranques\n"
        b"G,H,\n"
    )
    preview = preview_entrants(league.event, data)
    assert preview.ok and [row.club for row in preview.rows] == [tranques, None, tranques, None]
    made = import_entrants(league.organiser, league.event, data)
    assert [(e.club, e.club_name, e.home_club) for e in made] == [
        (tranques, "", "Los Tranques"),
        (None, "Club Fantasma de Villa Juana", "Club Fantasma de Villa Juana"),
        (tranques, "", "Los Tranques"),
        (None, "", ""),
    ]
    too_long = f"player_1,player_2,club\nI,J,{'x' * 121}\n".encode()
    assert refused(league, too_long) == [(2, "club_too_long")]


def test_duplicates_are_refused_with_the_line_they_repeat(league):
    entered = league.pairs[0].player_1.display_name
    data = (
        f"player_1,player_2,seed\nAna,Luis,1\nMarta,ana,2\nPepe,Pepe,3\n{entered},Nuevo,1\n"
    ).encode()
    assert refused(league, data) == [
        (3, "duplicate_player"),
        (4, "duplicate_player"),
        (5, "duplicate_seed"),
        (5, "already_entered"),
    ]
    with translation.override("en"):
        preview = preview_entrants(league.event, data)
    assert preview.rows[1].errors[0][1] == "ana is already on line 2."


def test_a_roster_player_named_twice_is_still_the_roster_player(league):
    known = clubs.add_player(league.organiser, league.club, display_name="Ana Rosario")
    data = "player 1,player 2\nAna Rosario,Luis\nAna Rosario,Pepe\n"
    preview = preview_entrants(league.event, data.encode())
    assert [row.players[0] for row in preview.rows] == [known, known]
    assert codes(preview) == [(3, "duplicate_player")]


def test_several_roster_players_of_one_name_are_ambiguous(league):
    for _ in range(2):
        clubs.add_player(league.organiser, league.club, display_name="Ana")
    assert refused(league, b"player_1,player_2\nAna,Luis\n") == [(2, "ambiguous_player")]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("player_1,player_2\nAna,Luis\n".encode("utf-16"), "bad_encoding"),
        (b"player_1,player_2\nAna\x81\x9d,Luis\n", "bad_encoding"),
        (b"", "empty_file"),
        (b"player_1,player_2\n", "empty_file"),
    ],
    ids=["utf-16", "control-characters", "empty", "heading-only"],
)
def test_wrong_encoding_and_empty_files(league, data, code):
    assert refused(league, data) == [(None, code)]


def test_ten_megabytes_of_junk(league):
    junk = os.urandom(10 * 1024 * 1024)
    assert refused(league, junk) == [(None, "file_too_large")]


def test_a_small_file_of_junk_is_no_csv_of_entrants(league):
    junk = bytes(range(32, 127)) * 50 + b"\n" + bytes(range(160, 256)) * 20
    assert refused(league, junk) == [(None, "missing_columns")]


def test_too_many_rows(league):
    data = "player_1,player_2\n" + "".join(f"A{i},B{i}\n" for i in range(1001))
    assert refused(league, data.encode()) == [(None, "too_many_rows")]


def test_a_row_refused_when_saving_leaves_nothing_saved(league):
    events.set_status(league.organiser, league.event, Event.Status.CANCELLED)
    before = counts()
    with pytest.raises(entries.ServiceError) as caught:
        import_entrants(league.organiser, league.event, PAIRS.encode())
    assert caught.value.code == "event_closed" and counts() == before


def test_only_organisers_import(league):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        import_entrants(league.referee, league.event, PAIRS.encode())
    assert Entry.objects.filter(event=league.event).count() == 1


def test_individual_events_read_one_player_per_row(db):
    from tests.tournaments.conftest import build

    data = build(Event.Format.INDIVIDUAL, 1)
    taken = data.entries[0].player_1.display_name
    made = import_entrants(data.organiser, data.event, b"player\nAna\nLuis\n")
    assert [e.name for e in made] == ["Ana", "Luis"] and made[0].player_2 is None
    with pytest.raises(ImportRefused) as caught:
        import_entrants(data.organiser, data.event, f"player\n{taken}\n".encode())
    assert codes(caught.value.preview) == [(2, "already_entered")]


def test_team_events_are_entered_by_hand(league):
    team_event = events.create_event(
        league.organiser, league.club, name="Teams", entry_kind=Event.EntryKind.TEAM, boards=2
    )
    assert codes(preview_entrants(team_event, PAIRS.encode())) == [(None, "teams_by_hand")]
