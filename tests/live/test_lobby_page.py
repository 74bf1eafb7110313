"""The lobby in Chromium: a private table filled from its invite link, matchmaking
(quick and duo), and a player taking their seat back from a bot."""

import re

import pytest
from django.conf import settings

from games.engine import view
from games.models import Seat, Table
from games.services import matchmaking
from games.services.messages import hand_state
from tests.conftest import BASE_DIR, in_thread

from .conftest import SHORT, full_table, make_players, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

TABLE_URL = re.compile(r"/play/t/[\w-]+/$")
QUEUE_URL = re.compile(r"/play/queue/$")
QUEUE_OR_TABLE_URL = re.compile(r"/play/(queue|t/[\w-]+)/$")


def signed_in(chromium, base: str, user):
    """A page of its own browser context, signed in as `user` by session cookie.

    The session is made in a thread of its own: an ORM call in the test's thread, where
    Playwright keeps its loop, leaves a connection open that holds the test database.
    """
    context = chromium.new_context(locale="es-ES", viewport={"width": 1100, "height": 850})
    value = in_thread(session_cookie, user).split("=", 1)[1]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": value, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def my_tiles(page) -> list[str]:
    page.wait_for_selector("#my-hand .domino")
    return page.eval_on_selector_all("#my-hand .domino", "nodes => nodes.map(n => n.dataset.tile)")


def tiles_held(table_pk: int, seat: int) -> set[str]:
    """The tiles the database says `seat` holds now."""
    return set(view(hand_state(Table.objects.get(pk=table_pk)), seat)["hand"])


def seat_counts(page) -> dict[int, int]:
    """The tile count each seat box shows, by seat number."""
    boxes = page.locator(".seat[data-seat]")
    counts = {}
    for i in range(boxes.count()):
        box = boxes.nth(i)
        text = box.locator(".count").inner_text()
        counts[int(box.get_attribute("data-seat"))] = int(re.search(r"\d+", text).group())
    return counts


def string(page, message: str) -> str:
    """A message of the table page's script, translated by its catalogue (/jsi18n/)."""
    return page.evaluate("(message) => gettext(message)", message)


BOT_FOR_YOU = "A bot is playing your seat since you were away for a whole hand."


def close(*pages) -> None:
    for page in pages:
        page.context.close()


def test_private_table_from_the_lobby_fills_from_its_invite_link(chromium, asgi_server):
    host, first, second = in_thread(make_players, 3, "h")
    page = signed_in(chromium, asgi_server, host)
    page.goto(f"{asgi_server}/play/")
    page.select_option("#id_preset", "tournament")
    page.fill("#id_target", "150")
    page.click("details[data-group=time] summary")  # the time options are folded away
    page.fill("#id_turn_seconds", "45")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(TABLE_URL)
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    table = in_thread(Table.objects.get, code=code)
    assert table.rules == {"preset": "tournament", "target": 150, "turn_seconds": 45}
    assert (table.host_id, table.kind, table.status) == (host.pk, "private", "waiting")
    page.wait_for_function("document.getElementById('score-0').textContent.includes('/ 150')")

    invite = page.input_value("#invite")
    assert invite == f"{asgi_server}/play/t/{code}/"
    guests = [signed_in(chromium, asgi_server, user) for user in (first, second)]
    for guest in guests:
        guest.goto(invite)
        guest.wait_for_selector("button[data-sit]")
        assert guest.locator("button[data-bot]").count() == 0  # only the host adds bots
    for who, number in ((guests[0], 1), (guests[1], 2), (page, 0)):
        who.click(f"button[data-sit='{number}']")
        page.locator(f"button[data-sit='{number}']").wait_for(state="detached")
    page.click("button[data-bot='3']")

    humans = {0: page, 1: guests[0], 2: guests[1]}
    my_tiles(page)  # dealt; the bot has played if it led, and nothing moves until a human does
    version = in_thread(lambda: Table.objects.get(pk=table.pk).version)
    for number, human in humans.items():
        human.wait_for_function(
            f"document.getElementById('table-app').dataset.version === '{version}'"
        )
        assert set(my_tiles(human)) == in_thread(tiles_held, table.pk, number)
        counts = seat_counts(human)
        assert sorted(counts) == [0, 1, 2, 3]
        board = human.locator("#board .domino").count()
        assert sum(counts.values()) + board == 28
        assert counts[number] == len(my_tiles(human))
    assert len({tile for human in humans.values() for tile in my_tiles(human)}) == 21
    table = in_thread(Table.objects.get, pk=table.pk)
    assert table.status == "playing"
    seats = in_thread(lambda: list(Seat.objects.filter(table=table).order_by("number")))
    assert [(s.user_id, s.bot) for s in seats] == [
        (host.pk, False),
        (first.pk, False),
        (second.pk, False),
        (None, True),
    ]
    close(page, *guests)


def pressed(page, *, last: bool) -> None:
    """After a matchmaking press: the queue page, or for the press that completes a table,
    the queue page or the table already."""
    if last:
        page.wait_for_url(QUEUE_OR_TABLE_URL)
    else:
        page.wait_for_url(QUEUE_URL)
        page.wait_for_selector("#queue")


def test_quick_match_brings_four_players_to_one_table(chromium, asgi_server):
    users = in_thread(make_players, 4, "q")
    pages = [signed_in(chromium, asgi_server, user) for user in users]
    for i, page in enumerate(pages):
        page.goto(f"{asgi_server}/play/")
        if i == 3:
            assert in_thread(Table.objects.filter(kind="quick").count) == 0
        page.click("#quick-match")
        pressed(page, last=i == 3)  # nobody is matched before the fourth player comes
    for page in pages:
        page.wait_for_url(TABLE_URL)
    assert len({page.url for page in pages}) == 1
    table = in_thread(Table.objects.get, kind="quick")
    assert pages[0].url == f"{asgi_server}/play/t/{table.code}/"
    seats = in_thread(lambda: dict(Seat.objects.filter(table=table).values_list("user", "number")))
    assert sorted(seats) == sorted(user.pk for user in users)
    hands = [my_tiles(page) for page in pages]
    for user, hand in zip(users, hands, strict=True):
        assert set(hand) == in_thread(tiles_held, table.pk, seats[user.pk])
    assert len({tile for hand in hands for tile in hand}) == 28
    close(*pages)


def test_the_queue_page_leaves_when_the_player_stops_looking_elsewhere(chromium, asgi_server):
    [user] = in_thread(make_players, 1, "w")
    page = signed_in(chromium, asgi_server, user)
    page.goto(f"{asgi_server}/play/")
    page.click("#quick-match")
    page.wait_for_url(QUEUE_URL)
    in_thread(matchmaking.leave_queue, user)  # "Stop looking" pressed in another tab
    page.wait_for_url(re.compile(r"/play/$"))
    assert page.locator("#quick-match").is_visible()
    close(page)


def test_duo_match_seats_partners_opposite(chromium, asgi_server):
    a, a_partner, b, b_partner = users = in_thread(make_players, 4, "d")
    leaders = [signed_in(chromium, asgi_server, user) for user in (a, b)]
    for i, (page, partner) in enumerate(zip(leaders, (a_partner, b_partner), strict=True)):
        page.goto(f"{asgi_server}/play/")
        page.fill("#id_partner", partner.username)
        page.click("#duo-match")
        pressed(page, last=i == 1)  # the first pair waits for a second one
    for page in leaders:
        page.wait_for_url(TABLE_URL)
    assert leaders[0].url == leaders[1].url
    table = in_thread(Table.objects.get, kind="duo")
    seats = in_thread(lambda: dict(Seat.objects.filter(table=table).values_list("user", "number")))
    assert sorted(seats) == sorted(user.pk for user in users)
    assert seats[a.pk] % 2 == seats[a_partner.pk] % 2
    assert seats[b.pk] % 2 == seats[b_partner.pk] % 2 != seats[a.pk] % 2
    # The partners find the table among their tables in the lobby.
    partners = [signed_in(chromium, asgi_server, user) for user in (a_partner, b_partner)]
    for page in partners:
        page.goto(f"{asgi_server}/play/")
        page.click(f"a[href='/play/t/{table.code}/']")
        page.wait_for_url(TABLE_URL)
    for page, partner in zip([*leaders, *partners], (a_partner, b_partner, a, b), strict=True):
        my_tiles(page)
        name = in_thread(lambda user=partner: user.player.display_name)
        assert page.locator(".seat[data-pos=top] .name").inner_text() == name
    close(*leaders, *partners)


def test_a_player_takes_their_seat_back_from_a_bot(chromium, asgi_server):
    users = in_thread(make_players)
    table = in_thread(full_table, users, SHORT)
    number = (hand_state(table).turn + 1) % 4  # a bot never waits on its turn
    in_thread(lambda: Seat.objects.filter(table=table, number=number).update(bot=True))
    page = signed_in(chromium, asgi_server, users[number])
    page.goto(f"{asgi_server}/play/t/{table.code}/")
    page.wait_for_selector("#take-back")
    assert page.locator(".seat[data-pos=bottom]").get_attribute("data-seat") == str(number)
    assert page.inner_text("#status") == string(page, BOT_FOR_YOU)
    page.click("#take-back")
    page.locator("#take-back").wait_for(state="detached")
    assert in_thread(lambda: Seat.objects.get(table=table, number=number).bot) is False
    assert page.inner_text("#status") != string(page, BOT_FOR_YOU)
    assert set(my_tiles(page)) == in_thread(tiles_held, table.pk, number)
    close(page)


def test_play_against_bots_in_one_tap_and_tell_the_tables_apart(chromium, asgi_server):
    """ "Play against bots" seats the player with three bots of the chosen level and deals;
    back in the lobby each of their tables says its rules, who else sits there, the score
    and whose turn it is."""
    user = in_thread(make_players, 1, "solo")[0]
    page = signed_in(chromium, asgi_server, user)
    codes = []
    for rules, level in (("brazilian", "easy"), ("vog_3p", "strong")):
        page.goto(f"{asgi_server}/play/")
        page.select_option("#id_bot_rules", rules)
        page.select_option("#id_bot_level", level)
        page.click("#play-bots-button")  # the one tap
        page.wait_for_url(TABLE_URL)
        my_tiles(page)
        code = page.url.rstrip("/").rsplit("/", 1)[1]
        codes.append(code)
        table = in_thread(Table.objects.get, code=code)
        seats = in_thread(lambda t=table: list(t.seats.values_list("user", "bot", "bot_level")))
        assert seats[0] == (user.pk, False, "medium")
        assert all(bot and got == level for _user, bot, got in seats[1:])
        assert table.status == Table.Status.PLAYING and table.kind == Table.Kind.PRIVATE
    page.goto(f"{asgi_server}/play/")
    shots = BASE_DIR / "test-results" / "lobby"
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=shots / "your-tables.png", full_page=True)
    lines = [page.locator(f"#my-tables li:has(a[href='/play/t/{code}/'])") for code in codes]
    texts = [line.inner_text() for line in lines]
    assert "Brasileño" in texts[0] and "Bot (Fácil)" in texts[0] and "0 – 0" in texts[0]
    assert "VOG, tres jugadores" in texts[1] and "Bot (Fuerte)" in texts[1]
    assert "0 – 0 – 0" in texts[1]
    # The player left the first table for the lobby: it waits for them (the second one too,
    # once its page's socket has closed).
    paused = "En pausa hasta que vuelva un jugador"
    assert lines[0].locator(".turn").inner_text() == paused
    assert lines[1].locator(".turn").inner_text() in (paused, "Te toca")
    close(page)


@pytest.mark.parametrize(("rules", "level"), [("klaberjass", "easy"), ("dominican", "godlike")])
def test_play_against_bots_refuses_unknown_rules_or_levels(client, rules, level):
    user = make_players(1, "bad")[0]
    client.force_login(user)
    response = client.post("/play/bots/", {"rules": rules, "level": level}, follow=True)
    assert response.redirect_chain[-1][0] == "/play/"
    assert not Table.objects.filter(host=user).exists()
