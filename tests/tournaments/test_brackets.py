import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import translation

from league.models import Event, Match, Result, Round
from league.services import results
from league.services.errors import ServiceError
from league.tournaments.models import Bracket, BracketSlot
from league.tournaments.services import brackets, groups
from league.tournaments.services.brackets import bracket_view

from .conftest import game, play


@pytest.fixture
def confirmed(django_capture_on_commit_callbacks):
    """Play a match as the pages do: the bracket moves on once the transaction commits."""

    def run(data, match, a_wins=True):
        with django_capture_on_commit_callbacks(execute=True):
            return play(data, match, a_wins)

    return run


def slot_match(bracket, number) -> Match | None:
    slot = BracketSlot.objects.filter(bracket=bracket, number=number).first()
    return slot.match if slot else None


def test_single_elimination_with_byes_and_third_place(build_event, confirmed):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 6, third_place=True)
    bracket = brackets.create_bracket(data.organiser, data.event)
    assert bracket.kind == Bracket.Kind.SINGLE and bracket.third_place
    first = list(Match.objects.filter(event=data.event))
    # 6 entries on 8 slots: seeds 1 and 2 have byes, two first-round matches are played.
    assert len(first) == 2
    seeded = {m.entry_a_id for m in first} | {m.entry_b_id for m in first}
    assert data.entries[0].pk not in seeded and data.entries[1].pk not in seeded
    with pytest.raises(ServiceError):
        brackets.create_bracket(data.organiser, data.event)  # double click
    for match in first:
        confirmed(data, match)
    semis = Match.objects.filter(event=data.event).exclude(pk__in=[m.pk for m in first])
    assert semis.count() == 2
    assert {m.entry_a_id for m in semis} == {data.entries[0].pk, data.entries[1].pk}
    for match in semis:
        confirmed(data, match, a_wins=False)
    views = {v.stage: v for v in bracket_view(bracket)}
    assert views["third_place"].match is not None
    final = next(v for v in bracket_view(bracket) if v.name == "Final")
    assert final.match is not None and final.winner is None
    confirmed(data, final.match)
    final = next(v for v in bracket_view(bracket) if v.name == "Final")
    assert final.winner == final.home


def test_double_elimination_through_the_reset(build_event, confirmed):
    data = build_event(Event.Format.DOUBLE_ELIMINATION, 4, grand_final_reset=True)
    bracket = brackets.create_bracket(data.organiser, data.event)
    for _ in range(10):
        pending = [v for v in bracket_view(bracket) if v.match and v.winner is None]
        if not pending:
            break
        for view in pending:
            # The losers' bracket champion wins the grand final, so the reset is played.
            confirmed(data, view.match, a_wins=view.stage != "grand_final")
    views = {v.stage: v for v in bracket_view(bracket)}
    assert views["grand_final"].winner == views["grand_final"].away
    assert views["grand_final_reset"].needed and views["grand_final_reset"].winner is not None
    assert Match.objects.filter(event=data.event).count() == 2 * 4 - 1


def test_correction_shows_and_resets_dependents_only_on_confirmation(build_event, confirmed):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 4)
    bracket = brackets.create_bracket(data.organiser, data.event)
    semi1, semi2 = slot_match(bracket, 1), slot_match(bracket, 2)
    confirmed(data, semi1)
    confirmed(data, semi2)
    final = slot_match(bracket, 3)
    confirmed(data, final)
    same = brackets.reset_preview(semi1, game(150, 90))
    assert same == []  # the same winner: nothing depends on the change
    flipped = game(90, 150)
    assert brackets.reset_preview(semi1, flipped) == [final]
    with pytest.raises(ServiceError) as error:
        brackets.correct_result(data.organiser, semi1, flipped, "wrong sheet")
    assert error.value.code == "confirm_reset"
    assert final.results.get(status=Result.Status.CONFIRMED)  # untouched
    with pytest.raises(PermissionDenied):
        brackets.correct_result(data.referee, semi1, flipped, "x", confirm_reset=[final.pk])
    reset = brackets.correct_result(
        data.organiser, semi1, flipped, "wrong sheet", confirm_reset=[final.pk]
    )
    assert reset == [final]
    final.refresh_from_db()
    assert not final.results.filter(status=Result.Status.CONFIRMED).exists()
    assert final.entry_a_id == semi1.entry_b_id  # the corrected winner moved on
    assert final.status == Match.Status.SCHEDULED


def test_group_stage_then_playoff(build_event, confirmed):
    data = build_event(Event.Format.GROUPS_PLAYOFF, 8, groups=2, qualifiers_per_group=2)
    drawn = groups.draw_groups(data.organiser, data.event)
    assert [len(members) for _name, members in drawn.groups] == [4, 4]
    assert [g.members.count() for g in data.event.groups.all()] == [4, 4]
    assert data.event.rounds.count() == 3
    with translation.override("es"), pytest.raises(ServiceError) as error:
        groups.start_playoff(data.organiser, data.event)
    assert error.value.code == "groups_unfinished"
    assert "12 encuentros de grupo" in error.value.message
    for match in Match.objects.filter(event=data.event):
        confirmed(data, match)
    bracket = groups.start_playoff(data.organiser, data.event)
    assert bracket.first_round == 4 and bracket.seeds.count() == 4
    semis = Match.objects.filter(event=data.event, round__number=4)
    assert semis.count() == 2
    for match in semis:  # group winners meet the other group's runner-up
        a, b = match.entry_a.group_member.group_id, match.entry_b.group_member.group_id
        assert a != b


def test_the_playoff_waits_for_every_group_result_and_changes_nothing(build_event, confirmed):
    data = build_event(Event.Format.GROUPS_PLAYOFF, 8, groups=2, qualifiers_per_group=2)
    groups.draw_groups(data.organiser, data.event)
    *done, waiting = Match.objects.filter(event=data.event).order_by("round__number", "table")
    for match in done:
        confirmed(data, match)
    # the last group match has a player's entry, not yet confirmed
    player = waiting.entry_a.player_1.user
    proposed = results.enter_result(player, waiting, [{"points_a": 150, "points_b": 60}])
    assert proposed.status == Result.Status.PROPOSED
    before = (Match.objects.count(), Round.objects.count(), Result.objects.count())
    with translation.override("es"), pytest.raises(ServiceError) as error:
        groups.start_playoff(data.organiser, data.event)
    assert error.value.code == "groups_unfinished"
    assert str(error.value.message) == "Falta confirmar el resultado de 1 encuentro de grupo."
    assert (Match.objects.count(), Round.objects.count(), Result.objects.count()) == before
    assert not Bracket.objects.filter(event=data.event).exists()
    results.confirm_result(data.organiser, proposed)
    assert groups.start_playoff(data.organiser, data.event).seeds.count() == 4


def test_bracket_permissions(build_event):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 4)
    for user in (data.stranger, data.referee, data.other_organiser):
        with pytest.raises(PermissionDenied):
            brackets.create_bracket(user, data.event)


def test_manual_seeding_must_cover_every_entry(build_event):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 4)
    with pytest.raises(ServiceError):
        brackets.create_bracket(data.organiser, data.event, seeds=data.entries[:3])
    seeds = list(reversed(data.entries))
    bracket = brackets.create_bracket(data.organiser, data.event, seeds=seeds)
    assert [s.entry for s in bracket.seeds.all()] == seeds


def test_seeding_by_rating(build_event):
    from league.ratings.models import Rating
    from league.ratings.services import global_pool

    data = build_event(Event.Format.SINGLE_ELIMINATION, 4, seeding="rating")
    pool = global_pool()
    strongest = data.entries[3]
    for rank, entry in enumerate([data.entries[3], data.entries[1], data.entries[0]]):
        for player in entry.players:
            Rating.objects.create(
                pool=pool,
                player=player,
                mu=40 - 5 * rank,
                sigma=2,
                ordinal=34 - 5 * rank,
                matches=10,
            )
    bracket = brackets.create_bracket(data.organiser, data.event)
    seeds = [s.entry for s in bracket.seeds.all()]
    assert seeds == [strongest, data.entries[1], data.entries[0], data.entries[2]]


def test_round_names_are_kept_in_english_and_shown_in_the_readers_language(build_event):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 8)
    with translation.override("es"):  # whoever draws the bracket, the database keeps English
        brackets.create_bracket(data.organiser, data.event)
    round_ = Round.objects.get(event=data.event)
    assert round_.name == "Quarter-finals"
    with translation.override("es"):
        assert str(round_) == "Cuartos de final"
    with translation.override("pt-br"):
        assert str(round_) == "Quartas de final"
        assert str(Round(name="Losers' round 2", number=5)) == "Chave dos perdedores: rodada 2"
    assert str(Round(name="Noche de gala", number=1)) == "Noche de gala"  # a name typed stays


@pytest.mark.parametrize(
    ("fmt", "options"), [("single_elimination", {"third_place": True}), ("double_elimination", {})]
)
def test_bracket_matches_played_at_once_sit_at_different_tables(
    build_event, confirmed, fmt, options
):
    data = build_event(fmt, 8, **options)
    bracket = brackets.create_bracket(data.organiser, data.event)
    for _ in range(16):
        to_play = Match.objects.filter(event=data.event, status=Match.Status.SCHEDULED)
        tables = list(to_play.values_list("table", flat=True))
        assert len(tables) == len(set(tables)) and None not in tables
        if not to_play:
            break
        confirmed(data, to_play.first())
    assert all(v.winner for v in bracket_view(bracket) if v.needed)


def test_the_projector_shows_every_bracket_round_in_play(build_event, confirmed, client):
    data = build_event(Event.Format.SINGLE_ELIMINATION, 4, third_place=True)
    brackets.create_bracket(data.organiser, data.event)
    for semi in list(Match.objects.filter(event=data.event)):
        confirmed(data, semi)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = client.get(f"/events/{data.event.slug}/projector/").content.decode()
    assert "Final · Encuentro por el tercer puesto" in page
    assert page.count('class="round-name"') == 2
    # the finalists are still in play: no place, no podium, until the bracket places them
    assert page.count('<tr class="in-play"><td class="num"></td>') == 2
    assert page.count("En juego</span>") == 2 and "projector-standings played" not in page
    for match in Match.objects.filter(event=data.event, results__isnull=True):
        confirmed(data, match)
    page = client.get(f"/events/{data.event.slug}/projector/").content.decode()
    assert 'class="in-play"' not in page and "projector-standings played" in page
    assert '<td class="num">Campeón</td>' in page
