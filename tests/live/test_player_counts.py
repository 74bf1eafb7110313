"""Two- and three-player tables, and one against one with the pozo, played live.

A host sits down and fills the other seats with bots over a real socket, then plays a
whole match against them (a spectator watches); every message either of them got is then
checked: no tile of the boneyard, and no tile another seat drew, was ever shown.
"""

import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine import VARIANTS, legal_actions, state_from_dict
from games.engine.tiles import PARSE
from games.models import Hand, Table
from games.services import tables
from games.services.messages import snapshot, viewer_message
from tests.conftest import in_thread, run_async

from .conftest import TableSocket, assert_no_hidden_tiles, make_players, tiles_in, undrawn
from .test_table_page import open_page, take_turn

pytestmark = pytest.mark.django_db(transaction=True)

FAMILIES = ("vog", "vog_draw", "vog_goat", "vog_international")
# Every vog form for two and three players, and seed 002's one against one with a pozo.
GAMES = [f"{family}_{n}p" for family in FAMILIES for n in (2, 3)] + ["tournament_1v1"]
DRAW_GAMES = ("vog_draw_2p", "vog_draw_3p", "tournament_1v1")
TARGET = 10  # small: a hand or two


def rules_of(name: str) -> dict:
    return VARIANTS[name] | {"target": TARGET}


async def play_against_bots(base: str, table: Table, host, rng: random.Random) -> tuple:
    """The host sits at seat 0, fills the other seats with bots and plays the match out."""
    me = TableSocket(base, table.pk, host)
    spectator = TableSocket(base, table.pk)
    await me.connect()
    await spectator.connect()
    seats = len(me.state["table"]["seats"])
    await me.send({"type": "sit", "seat": 0, "id": "sit"})
    assert (await me.expect("ok", "error"))["type"] == "ok"
    for number in range(1, seats):
        await me.send({"type": "bot", "seat": number, "level": "easy", "id": f"bot{number}"})
        answer = await me.expect("ok", "error")
        assert answer["type"] == "ok", answer
    while True:
        state = me.state
        status = state["table"]["status"]
        if status == "finished":
            break
        if status == "playing" and state["hand"]["turn"] == 0:
            client_id = await me.play(rng.choice(state["hand"]["legal_actions"]))
            answer = await me.answer(client_id)
            assert answer["type"] == "ack", answer
            await me.until_version(answer["version"])
        elif status == "between" and 0 not in state["table"]["ready"]:
            await me.send({"type": "next", "id": f"next-{me.version}"})
            await me.expect("ok", "error")
        else:
            await me.recv()
    await spectator.until_version(me.version)
    await me.socket.close()
    await spectator.socket.close()
    return me, spectator


def test_every_player_count_plays_live_against_bots(asgi_server):
    """A whole match of every two- and three-player form and of one against one."""
    rng = random.Random(19)
    drew = {name: 0 for name in DRAW_GAMES}
    for name in GAMES:
        host = make_players(1, prefix=name.replace("_", ""))[0]
        for _attempt in range(5):  # a draw game is played again until somebody draws
            table = tables.create_table(host=host, rules=rules_of(name))
            me, spectator = run_async(play_against_bots(asgi_server, table, host, rng))
            table.refresh_from_db()
            players = VARIANTS[name]["players"]
            assert table.status == Table.Status.FINISHED and table.match["over"]
            assert len(table.match["scores"]) == players == len(me.state["table"]["scores"])
            assert me.state["table"]["pairs"] is False
            assert table.seats.count() == players
            records = {h.number: h.record for h in Hand.objects.filter(table=table)}
            for message in [*me.received, *spectator.received]:
                assert_no_hidden_tiles(message, records)
            assert not [m for m in spectator.received if m["type"] == "ack"]
            if name not in DRAW_GAMES:
                assert all(not r.get("boneyard") for r in records.values())
                break
            drew[name] += sum(a.startswith("draw") for r in records.values() for a in r["actions"])
            if drew[name]:
                break
    assert all(drew.values()), drew


def test_the_hand_page_shows_no_tile_left_in_the_pozo(db):
    """A finished hand's replay shows the tiles drawn, never those nobody drew."""
    host = make_players(1)[0]
    rng = random.Random(3)
    for _attempt in range(20):
        table = tables.create_table(host=host, rules=rules_of("tournament_1v1"))
        tables.sit(table.pk, host, 0)
        tables.add_bot(table.pk, host, 1, "easy")
        table.refresh_from_db()
        while table.status == Table.Status.PLAYING:
            state = state_from_dict(table.state)
            tables.act(
                table.pk,
                host,
                action=rng.choice(legal_actions(state)),
                version=table.version,
                client_id=f"c{table.version}",
            )
            table.refresh_from_db()
        hand = Hand.objects.get(table=table, number=1)
        if undrawn(hand.record, len(hand.record["actions"])):
            break
    hidden = undrawn(hand.record, len(hand.record["actions"]))
    assert hidden
    client = Client()
    client.force_login(host)
    page = client.get(reverse("hand", args=[table.code, 1])).content.decode()
    scripts = re.findall(
        r'<script id="review-(?:record|data)" type="application/json">(.*?)</script>', page
    )
    assert len(scripts) == 2
    for script in scripts:
        assert not tiles_in(json.loads(script)) & hidden


def seated_against_bots(name: str) -> tuple:
    """A host at seat 0 of a `name` table, bots in the other seats, the first hand dealt."""
    host = make_players(1, prefix="b" + name.replace("_", ""))[0]
    target = 1 if name == "tournament_1v1" else 200  # one hand ends the match; or goes on
    table = tables.create_table(host=host, rules=rules_of(name) | {"target": target})
    tables.sit(table.pk, host, 0)
    for number in range(1, VARIANTS[name]["players"]):
        tables.add_bot(table.pk, host, number, "easy")
    return host, table


def play_in_page(page, turns: int, shots=None) -> bool:
    """Play the page's turns (a tile, else a draw or a pass) for a while; True if it drew."""
    drew = False
    for _ in range(turns):
        if page.locator("#result").is_visible():
            break
        # The button and its hint, read at once (an update may re-render the controls).
        button, hint = page.evaluate(
            "['button[data-action=draw]', '.draw-hint']"
            ".map((s) => Boolean(document.querySelector('#controls ' + s)))"
        )
        if button:
            assert hint
            if not drew and shots is not None:
                page.screenshot(path=str(shots), full_page=True)
            drew = True
        if not take_turn(page, also=("draw",)):
            page.wait_for_timeout(100)
    return drew


@pytest.mark.parametrize("name", ["vog_draw_3p", "tournament_1v1"])
def test_the_table_page_seats_two_or_three(chromium, asgi_server, log_dir, name):
    """Seats round the board (nobody at the top with three), no partner, a score per seat,
    the boneyard's count, and the draw button when nothing fits; on a phone and a laptop."""
    host, table = in_thread(seated_against_bots, name)
    players = VARIANTS[name]["players"]
    laptop = open_page(chromium, asgi_server, table, host, size=(1366, 768))
    phone = open_page(chromium, asgi_server, table, host, size=(390, 844))
    for page in (laptop, phone):
        assert page.locator("#table-app .seat:visible").count() == players
        assert page.locator(f".felt.seats-{players}").count() == 1
        assert page.locator(".seat[data-pos=top]").is_visible() == (players == 2)
        assert page.locator(".tag.partner").count() == 0
        assert page.locator(".scorebar .score").count() == players
        assert page.locator(".line-info .boneyard").is_visible()
        names = page.locator(".scorebar .score .who").all_inner_texts()
        assert names[0] == "Tú" and len(set(names)) == players
    drew = play_in_page(laptop, 300, log_dir / f"{name}-laptop-draw.png")
    ruling = in_thread(lambda: Hand.objects.get(table=table, number=1).ruling)
    # At a target of 1 the hand ends the match unless it scored nothing (a tied tranque).
    match_over = name == "tournament_1v1" and sum(ruling["points"]) > 0
    for label, page in (("laptop", laptop), ("phone", phone)):
        page.wait_for_selector("#result .revealed-seat")
        assert page.locator("#result .revealed-seat").count() == players
        assert page.locator("#result .totals .total").count() == players
        page.screenshot(path=str(log_dir / f"{name}-{label}-end.png"), full_page=True)
        if match_over:  # the match's end names each player's score
            page.wait_for_selector("#result .match-end .final")
            final = page.locator("#result .match-end .final").inner_text()
            assert "Tú" in final and "Bot 2" in final
        else:
            assert page.locator("#result .match-end").count() == 0
    if drew:  # the page's draws are the hand's
        record = in_thread(lambda: Hand.objects.get(table=table, number=1).record)
        assert any(a.startswith("draw") for a in record["actions"])
    for page in (laptop, phone):
        page.context.close()


def test_a_shutout_without_pairs_names_the_other_players(chromium, asgi_server):
    """A pollona at a table of single players is announced to the players, not to a pair."""
    host, table = in_thread(seated_against_bots, "vog_3p")

    def finish_with_a_shutout() -> None:
        Table.objects.filter(pk=table.pk).update(
            status=Table.Status.FINISHED,
            finished=timezone.now(),
            match={"over": True, "winner": 0, "shutout": True, "scores": [12, 0, 0]},
        )

    in_thread(finish_with_a_shutout)
    page = open_page(chromium, asgi_server, table, host, phone=True)
    page.wait_for_selector("#result .match-end #shutout")
    text = page.locator("#shutout").inner_text()
    assert "Los demás jugadores terminaron la partida" in text
    assert "bando" not in text
    page.context.close()


def random_1v1_turns(
    host, rng: random.Random, choose: Callable[[tuple[str, ...]], Sequence[str]] = tuple
) -> Iterator[Table]:
    """Tables of `host` (seat 0) against an easy bot under tournament_1v1 rules, one after
    another, played by `host` at random among `choose(legal actions)`: yields the table
    before each of the host's actions (the caller breaks out once it has what it wants)."""
    while True:
        table = tables.create_table(host=host, rules=rules_of("tournament_1v1"))
        tables.sit(table.pk, host, 0)
        tables.add_bot(table.pk, host, 1, "easy")
        table.refresh_from_db()
        while table.status == Table.Status.PLAYING:
            yield table
            legal = legal_actions(state_from_dict(table.state))
            tables.act(
                table.pk,
                host,
                action=rng.choice(choose(legal)),
                version=table.version,
                client_id=f"c{rng.random()}",
            )
            table.refresh_from_db()


def held_drawn_tile(record: dict) -> tuple[int, str] | None:
    """(holder, tile) of a tile drawn from the boneyard and still in a hand, if any."""
    state = state_from_dict(record)
    for name in record["boneyard"][: state.drawn]:
        tile = PARSE[name][0]
        for seat, held in enumerate(state.hands):
            if held >> tile & 1:
                return seat, name
    return None


def test_the_check_catches_a_drawn_or_undrawn_tile_shown(db):
    """The check above fails on a message that shows another seat's drawn tile, or a tile
    still in the boneyard."""
    host = make_players(1)[0]
    for table in random_1v1_turns(host, random.Random(5)):
        if (found := held_drawn_tile(table.state)) is not None:
            break
    record, (holder, drawn) = table.state, found
    records = {table.hand_number: record}
    snap = snapshot(table.pk, host)
    for seat in (0, 1, None):
        assert_no_hidden_tiles(viewer_message("update", replace(snap, seat=seat)), records)
    other = viewer_message("update", replace(snap, seat=1 - holder))
    other["hand"]["hand"].append(drawn)
    with pytest.raises(AssertionError):
        assert_no_hidden_tiles(other, records)
    spectator = viewer_message("update", replace(snap, seat=None))
    spectator["hand"]["peek"] = record["boneyard"][-1]
    with pytest.raises(AssertionError):
        assert_no_hidden_tiles(spectator, records)


def test_an_expired_turn_draws_until_a_tile_fits_and_plays_it(db):
    """An absent player's turn in a draw game is one timeout, however many tiles it draws."""
    host = make_players(1)[0]

    def avoid_drawing(legal: tuple[str, ...]) -> list[str]:
        return [a for a in legal if a != "draw"] or ["draw"]

    for table in random_1v1_turns(host, random.Random(8), avoid_drawing):
        stuck = state_from_dict(table.state)
        if stuck.turn == 0 and legal_actions(stuck) == ("draw",):
            break
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    before = len(stuck.actions)
    assert tables.time_out(table.pk, table.version)
    table.refresh_from_db()
    actions = table.state["actions"][before:] if table.state else []
    mine = []
    for action in actions:  # the host's turn: its draws, then a tile or a pass
        mine.append(action)
        if not action.startswith("draw"):
            break
    assert all(a.endswith("!auto") for a in mine) and mine[0] == "draw!auto"
    assert not mine[-1].startswith("draw") or table.status != Table.Status.PLAYING
