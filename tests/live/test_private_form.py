"""The private-table form (every rule option a field, the variants, the engine's refusals
next to their field) and playing again after a finished table."""

from dataclasses import fields

import pytest
from django.urls import reverse

from games.engine import PRESETS, VARIANTS, Rules, rules_from_spec
from games.forms import FIXED, PrivateTableForm, option_values
from games.models import Seat, Table
from games.services import rematch, tables
from games.services.errors import TableError

from .conftest import make_players

pytestmark = pytest.mark.django_db(transaction=True)


def posted(name: str, **changes) -> dict:
    """What the page posts once `name` is chosen (its script fills every option in)."""
    data = {"preset": name, "next_hand_seconds": 30, **option_values(name), **changes}
    return {k: v for k, v in data.items() if v is not False}  # an unticked box is not sent


def test_every_rule_option_is_a_field_in_a_group():
    form = PrivateTableForm()
    options = {f.name for f in fields(Rules)} - set(FIXED)
    grouped = {b.name for group in form.groups() for b in group["fields"]}
    assert options <= grouped and "next_hand_seconds" in grouped
    assert "other" not in form.fields  # no JSON
    groups = form.fields["preset"].choices
    listed = [value for _, names in groups for value, _ in names]
    offered = set(listed)
    assert len(listed) == len(offered)  # "vog" is a preset and a variant: offered once
    assert {"dominican", "brazilian", "tournament_short", "vog_draw"} <= offered
    assert offered == {*PRESETS, *VARIANTS}  # two and three players too, grouped by count
    assert [len(names) for _, names in groups] == [16, 4, 5]
    assert form.fields["direction"].choices == [
        ("ccw", form.fields["direction"].choices[0][1]),
        ("cw", form.fields["direction"].choices[1][1]),
    ]


def test_a_variant_is_stored_as_its_preset_and_what_differs():
    form = PrivateTableForm(posted("tournament_short", turn_seconds=45))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["spec"] == {"preset": "tournament", "target": 50, "turn_seconds": 45}
    form = PrivateTableForm(posted("dominican"))
    assert form.is_valid() and form.cleaned_data["spec"] == "dominican"
    assert rules_from_spec(VARIANTS["vog_draw"]).boneyard


def test_the_engine_refusal_is_shown_next_to_its_field():
    form = PrivateTableForm(posted("vog_draw", tiles_per_hand=7))
    assert not form.is_valid()
    assert list(form.errors) == ["boneyard"]
    form = PrivateTableForm(posted("dominican", tiles_per_hand=8))
    assert list(form.errors) == ["tiles_per_hand"]
    form = PrivateTableForm(posted("dominican", round_to=3))
    assert list(form.errors) == ["round_to"]


def test_the_lobby_form_opens_a_table_with_its_pause_between_hands(client):
    user = make_players(1)[0]
    client.force_login(user)
    page = client.get(reverse("play"))
    assert b'id="rule-values"' in page.content and b'data-group="bonuses"' in page.content
    answer = client.post(reverse("new_table"), posted("brazilian_300", next_hand_seconds=90))
    table = Table.objects.get(host=user)
    assert answer.status_code == 302 and answer["Location"].endswith(f"/play/t/{table.code}/")
    assert table.rules == {"preset": "brazilian", "target": 300}
    assert table.next_hand_seconds == 90


@pytest.mark.parametrize(("name", "seats"), [("vog_goat_3p", 3), ("tournament_1v1", 2)])
def test_the_form_opens_a_table_of_the_rule_sets_player_count(client, name, seats):
    user = make_players(1)[0]
    client.force_login(user)
    client.post(reverse("new_table"), posted(name))
    table = Table.objects.get(host=user)
    assert rules_from_spec(table.rules) == rules_from_spec(VARIANTS[name])
    assert table.seats.count() == seats
    form = PrivateTableForm(posted(name, tiles_per_hand=15))
    assert list(form.errors) == ["tiles_per_hand"]


def test_play_again_brings_the_players_of_a_private_table_together():
    users = make_players(2)
    old = tables.create_table(host=users[0], rules={"preset": "latin", "target": 50})
    tables.sit(old.pk, users[0], 0)
    tables.sit(old.pk, users[1], 2)
    with pytest.raises(TableError) as refused:
        rematch.play_again(old, users[0])
    assert refused.value.code == "not_finished"
    tables.add_bot(old.pk, users[0], 1)
    tables.add_bot(old.pk, users[0], 3)
    Table.objects.filter(pk=old.pk).update(status=Table.Status.FINISHED)
    new = rematch.play_again(old, users[0])
    assert new.rules == old.rules and new.status == Table.Status.WAITING
    assert rematch.play_again(old, users[1]).pk == new.pk
    seats = {s.number: s for s in Seat.objects.filter(table=new)}
    assert seats[0].user == users[0] and seats[2].user == users[1]
    assert seats[1].bot and seats[3].bot
    assert Table.objects.get(pk=new.pk).status == Table.Status.PLAYING
    assert rematch.play_again(old, users[1]).pk == new.pk  # pressed twice: the same table
    stranger = make_players(1, prefix="s")[0]
    with pytest.raises(TableError):
        rematch.play_again(old, stranger)
