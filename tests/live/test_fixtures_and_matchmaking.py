"""Online fixtures open their tables and enter their results; matchmaking fills tables."""

import concurrent.futures
import json
import random
import threading

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone, translation

from games.engine import legal_actions
from games.models import QueueEntry, Seat, Table
from games.services import matchmaking, tables
from games.services.errors import TableError
from games.services.fixtures import open_due_fixtures
from games.services.messages import hand_state, seat_facts
from league.models import (
    AuditEntry,
    Entry,
    Event,
    Match,
    Organisation,
    Player,
    Result,
    Round,
)

from .conftest import full_table, make_players, play_step

pytestmark = pytest.mark.django_db(transaction=True)


def play_out(table: Table, rng: random.Random) -> Table:
    while table.status in (Table.Status.PLAYING, Table.Status.BETWEEN):
        play_step(table, rng)
        table.refresh_from_db()
    return table


def test_a_due_online_fixture_opens_its_table_and_its_result_is_final(players):
    club = Organisation.objects.create(name="Club Live", slug="club-live")
    event = Event.objects.create(
        organisation=club,
        name="Liga online",
        slug="liga-online",
        mode=Event.Mode.ONLINE,
        status=Event.Status.RUNNING,
        rule_preset="tournament",
        rule_overrides={"target": 1},
    )
    people = [Player.objects.get(user=u) for u in players]
    a = Entry.objects.create(event=event, name="A", player_1=people[0], player_2=people[2])
    b = Entry.objects.create(event=event, name="B", player_1=people[1], player_2=people[3])
    round_ = Round.objects.create(event=event, number=1)
    fixture = Match.objects.create(
        event=event, round=round_, entry_a=a, entry_b=b, scheduled=timezone.now()
    )
    later = Match.objects.create(
        event=event,
        round=round_,
        entry_a=b,
        entry_b=a,
        scheduled=timezone.now() + timezone.timedelta(hours=1),
    )
    opened = open_due_fixtures(timezone.now())
    assert [t.fixture_id for t in opened] == [fixture.pk]
    assert open_due_fixtures(timezone.now()) == []  # once only
    table = opened[0]
    assert list(table.seats.values_list("user", flat=True)) == [u.pk for u in players]
    assert table.absence == Table.Absence.FORFEIT and not table.casual
    table = play_out(Table.objects.get(pk=table.pk), random.Random(3))
    result = Result.objects.get(match=fixture)
    # final when the match ends: the server saw every action (disputes have their window)
    assert result.status == Result.Status.CONFIRMED and result.entered_by is None
    assert Match.objects.get(pk=fixture.pk).status == Match.Status.PLAYED
    assert (result.points_a, result.points_b) == tuple(table.match["scores"])
    assert result.shutout == table.match["shutout"]  # never disagrees with the engine
    hands = result.games[0]["hands"]
    assert [h["format"] for h in hands] == ["domino-hand/1"] * table.hands.count()
    assert not Table.objects.filter(fixture=later).exists()


def test_a_league_fixture_both_pairs_left_is_not_played_and_counts_as_their_forfeit(players):
    """As in an event that runs itself (tests/online/test_controls.py): nobody wins a match
    nobody played; the fixture is not played, each pair's forfeit, with no result."""
    club = Organisation.objects.create(name="Club Ausente", slug="club-ausente")
    event = Event.objects.create(
        organisation=club,
        name="Liga ausente",
        slug="liga-ausente",
        mode=Event.Mode.ONLINE,
        status=Event.Status.RUNNING,
        rule_preset="tournament",
    )
    people = [Player.objects.get(user=u) for u in players]
    a = Entry.objects.create(event=event, name="A", player_1=people[0], player_2=people[2])
    b = Entry.objects.create(event=event, name="B", player_1=people[1], player_2=people[3])
    round_ = Round.objects.create(event=event, number=1)
    fixture = Match.objects.create(
        event=event, round=round_, entry_a=a, entry_b=b, scheduled=timezone.now()
    )
    table = Table.objects.get(pk=open_due_fixtures(timezone.now())[0].pk)
    while table.status == Table.Status.PLAYING:  # every turn timed out: nobody there
        Table.objects.filter(pk=table.pk).update(deadline=timezone.now())
        tables.time_out(table.pk, table.version)
        table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.forfeit_side is None
    assert table.match["abandoned"] and table.hand_number == 1
    assert Match.objects.get(pk=fixture.pk).status == Match.Status.CANCELLED
    assert not Result.objects.filter(match=fixture).exists()
    unplayed = AuditEntry.objects.get(event=event, action="autopilot.unplayed")
    assert unplayed.target == f"match:{fixture.pk}"
    assert unplayed.after == {"reason": "both_absent", "round": 1}


def test_quick_match_seats_four_singles(db):
    users = make_players(4, "q")
    for user in users[:3]:
        assert matchmaking.join_queue(user, "quick") is None
        assert matchmaking.queue_status(user) is True
    table = matchmaking.join_queue(users[3], "quick")
    assert table is not None and table.kind == Table.Kind.QUICK
    assert set(table.seats.values_list("user", flat=True)) == {u.pk for u in users}
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert all(matchmaking.queue_status(u) == table for u in users)


def test_duo_keeps_partners_together(db):
    users = make_players(4, "d")
    assert matchmaking.join_queue(users[0], "duo", users[1]) is None
    table = matchmaking.join_queue(users[2], "duo", users[3])
    seats = dict(table.seats.values_list("user", "number"))
    assert seats[users[0].pk] % 2 == seats[users[1].pk] % 2
    assert seats[users[2].pk] % 2 == seats[users[3].pk] % 2
    with pytest.raises(TableError):
        matchmaking.join_queue(users[0], "duo", users[0])


def test_the_second_partner_to_press_finds_the_pairs_table(db):
    a, a_partner, b, b_partner, c, c_partner = make_players(6, "p")
    assert matchmaking.join_queue(a, "duo", a_partner) is None
    table = matchmaking.join_queue(b, "duo", b_partner)
    assert table is not None
    # b's partner presses too, naming b: the pair is seated already, not queued again.
    assert matchmaking.join_queue(b_partner, "duo", b) == table
    assert matchmaking.join_queue(a_partner, "duo", a) == table
    entries = QueueEntry.objects.all()
    assert sorted((e.user_id, e.partner_id, e.table_id) for e in entries) == sorted(
        [(a.pk, a_partner.pk, table.pk), (b.pk, b_partner.pk, table.pk)]
    )
    assert all(matchmaking.queue_status(u) == table for u in (a, a_partner, b, b_partner))
    # A seated player pressing another kind of match is sent back to the table too.
    assert matchmaking.join_queue(b_partner, "quick") == table
    assert matchmaking.join_queue(a, "ranked") == table
    with pytest.raises(TableError) as refused:  # naming a seated player as partner
        matchmaking.join_queue(c, "duo", b)
    assert refused.value.code == "partner_playing"
    assert QueueEntry.objects.filter(table=table).count() == 2
    # Another pair waits for a pair of its own rather than meeting the seated one.
    assert matchmaking.join_queue(c, "duo", c_partner) is None
    assert matchmaking.queue_status(c) is True and matchmaking.queue_status(c_partner) is True
    assert Table.objects.count() == 1
    # Once the table is finished, its players queue again.
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert matchmaking.queue_status(b) is None
    assert matchmaking.join_queue(b_partner, "quick") is None
    assert matchmaking.queue_status(b_partner) is True


def press_at_once(barrier: threading.Barrier, user, partner) -> Table | None:
    barrier.wait()
    try:
        return matchmaking.join_queue(user, "duo", partner)
    finally:
        connection.close()


def test_partners_pressing_at_once_share_one_table(db):
    for round_ in range(3):
        a, a_partner, b, b_partner = make_players(4, f"s{round_}")
        assert matchmaking.join_queue(a, "duo", a_partner) is None
        barrier = threading.Barrier(2)
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            found = [
                pool.submit(press_at_once, barrier, b, b_partner),
                pool.submit(press_at_once, barrier, b_partner, b),
            ]
            found = [f.result() for f in found]
        [table] = Table.objects.filter(seats__user=a)
        assert found == [table, table]
        assert all(matchmaking.queue_status(u) == table for u in (a, a_partner, b, b_partner))
        assert not QueueEntry.objects.filter(table=None).exists()
        QueueEntry.objects.all().delete()


def press_quick_at_once(barrier: threading.Barrier, user) -> Table | None:
    barrier.wait()
    try:
        return matchmaking.join_queue(user, "quick")
    finally:
        connection.close()


def test_the_last_two_singles_pressing_at_once_still_open_a_table(db):
    """Neither of two simultaneous presses sees the other's uncommitted entry, unless the
    presses of one kind are matched one at a time."""
    for round_ in range(5):
        first, second, *last = make_players(4, f"q{round_}")
        assert matchmaking.join_queue(first, "quick") is None
        assert matchmaking.join_queue(second, "quick") is None
        barrier = threading.Barrier(2)
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            found = [
                f.result() for f in [pool.submit(press_quick_at_once, barrier, u) for u in last]
            ]
        [table] = Table.objects.filter(seats__user=first)
        assert table in found  # the later of the two presses opened it
        assert {s.user for s in table.seats.all()} == {first, second, *last}
        assert not QueueEntry.objects.filter(table=None).exists()
        QueueEntry.objects.all().delete()


def test_naming_a_partner_who_plays_at_another_table_is_refused(db):
    singles = make_players(4, "m")
    for user in singles:
        table = matchmaking.join_queue(user, "quick")
    me = make_players(1, "me")[0]
    with pytest.raises(TableError) as refused:
        matchmaking.join_queue(me, "duo", singles[0])
    assert refused.value.code == "partner_playing"
    with translation.override("en"):
        assert refused.value.message == "Your partner is playing at another table."
    assert not QueueEntry.objects.filter(user=me).exists()
    assert matchmaking.queue_status(me) is None
    assert matchmaking.queue_status(singles[0]) == table


def test_the_queue_page_follows_a_redirect_after_each_press(db, client):
    users = make_players(4, "v")
    join = reverse("join_queue")
    client.force_login(users[0])
    response = client.post(join, {"kind": "quick"})
    assert response.status_code == 302 and response["Location"] == "/play/queue/"
    page = client.get("/play/queue/")
    assert page.status_code == 200
    assert [t.name for t in page.templates][0] == "games/queue.html"
    for user in users[1:3]:
        matchmaking.join_queue(user, "quick")
    client.force_login(users[3])
    response = client.post(join, {"kind": "quick"})  # the fourth player
    table = Table.objects.get(kind="quick")
    assert response["Location"] == f"/play/t/{table.code}/"
    client.force_login(users[0])
    assert client.get("/play/queue/")["Location"] == f"/play/t/{table.code}/"
    again = client.post(join, {"kind": "quick"})  # pressed again, seated
    assert again["Location"] == f"/play/t/{table.code}/"
    assert Table.objects.count() == 1
    for bad in ({"kind": "duo", "partner": "nobody-here"}, {"kind": "blitz"}):
        response = client.post(join, bad, follow=True)
        assert response.redirect_chain == [("/play/", 302)]
        assert len(list(response.context["messages"])) == 1
    client.force_login(make_players(1, "w")[0])
    assert client.get("/play/queue/")["Location"] == "/play/"  # not queued


def test_an_invalid_private_table_form_keeps_the_users_tables(players, client):
    table = full_table(players)
    client.force_login(players[0])
    response = client.post("/play/tables/new/", {"preset": "no-such-rules"})
    assert response.status_code == 200 and response.context["form"].errors
    assert f'href="/play/t/{table.code}/"' in response.content.decode()


def test_ranked_matches_close_ratings(db):
    from league.ratings.models import Rating
    from league.ratings.services import global_pool

    users = make_players(5, "r")
    for user, ordinal in zip(users, [12.0, 31.0, 13.5, 10.0, 14.0], strict=True):
        Rating.objects.create(
            pool=global_pool(),
            player=user.player,
            mu=ordinal + 9,
            sigma=3,
            ordinal=ordinal,
            matches=20,
        )
    table = None
    for user in users:
        table = matchmaking.join_queue(user, "ranked") or table
    seated = set(table.seats.values_list("user", flat=True))
    assert users[1].pk not in seated and len(seated) == 4
    assert table.rules == {"preset": "dominican"}  # clasificatoria: the Dominican defaults
    assert QueueEntry.objects.get(user=users[1]).table is None


def test_casual_tables_fill_empty_seats_with_bots(players):
    host = players[0]
    table = tables.create_table(host=host, rules={"preset": "dominican", "target": 1})
    tables.sit(table.pk, host, 2)
    with pytest.raises(TableError) as taken:
        tables.sit(table.pk, players[1], 2)
    assert taken.value.code == "seat_taken"
    with pytest.raises(TableError) as not_host:
        tables.add_bot(table.pk, players[1], 1)
    assert not_host.value.code == "not_host"
    for seat in (0, 1, 3):
        tables.add_bot(table.pk, host, seat)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert hand_state(table).turn == 2  # the bots have played up to the human's turn
    table = play_out(table, random.Random(5))
    assert table.status == Table.Status.FINISHED


def test_the_host_chooses_each_bots_level(players):
    """A bot sits at the level the host chose (medium unless told), the seats' public facts
    say so, and an unknown level changes nothing."""
    host = players[0]
    table = tables.create_table(host=host, rules={"preset": "dominican", "target": 1})
    tables.sit(table.pk, host, 0)
    for bad in ("grandmaster", ["strong"], None):
        with pytest.raises(TableError) as refused:
            tables.add_bot(table.pk, host, 1, bad)
        assert refused.value.code == "bad_level"
    assert not Seat.objects.get(table=table, number=1).taken
    tables.add_bot(table.pk, host, 1, "strong")
    tables.add_bot(table.pk, host, 2, "easy")
    tables.add_bot(table.pk, host, 3)
    levels = dict(Seat.objects.filter(table=table).values_list("number", "bot_level"))
    assert [levels[n] for n in (1, 2, 3)] == ["strong", "easy", "medium"]
    table.refresh_from_db()
    facts = seat_facts(list(table.seats.all()))
    assert [f["level"] for f in facts] == [None, "strong", "easy", "medium"]
    assert table.status == Table.Status.PLAYING
    table = play_out(table, random.Random(6))  # the strong bot plays through the services
    assert table.status == Table.Status.FINISHED


def play_hand(table: Table, rng: random.Random) -> Table:
    """The hand in play played to its end with random legal moves, and the next one dealt."""
    while table.status == Table.Status.PLAYING:
        state = hand_state(table)
        user = Seat.objects.get(table=table, number=state.turn).user
        tables.act(
            table.pk,
            user,
            action=rng.choice(legal_actions(state)),
            version=table.version,
            client_id=f"c{table.version}",
        )
        table.refresh_from_db()
    for seat in table.seats.all():
        tables.press_next(table.pk, seat.user)
    table.refresh_from_db()
    return table


def api_after_one_hand(players, client, rules: dict, seed: int) -> tuple[Table, str, dict]:
    """A fixture's live table under `rules` (tournament preset) with its first hand played
    to its end and the second dealt: the table, the live-hands URL and the API's hand."""
    club = Organisation.objects.create(name="Club API", slug="club-api")
    event = Event.objects.create(
        organisation=club,
        name="Liga API",
        slug="liga-api",
        mode=Event.Mode.ONLINE,
        status=Event.Status.RUNNING,
        rule_preset="tournament",
        rule_overrides=rules,
    )
    people = [Player.objects.get(user=u) for u in players]
    a = Entry.objects.create(event=event, name="A", player_1=people[0], player_2=people[2])
    b = Entry.objects.create(event=event, name="B", player_1=people[1], player_2=people[3])
    fixture = Match.objects.create(
        event=event,
        round=Round.objects.create(event=event, number=1),
        entry_a=a,
        entry_b=b,
        scheduled=timezone.now(),
    )
    [table] = open_due_fixtures(timezone.now())
    url = f"/api/v1/matches/{fixture.pk}/live-hands/"
    assert client.get(url).json() == []
    table = play_hand(Table.objects.get(pk=table.pk), random.Random(seed))
    assert table.status == Table.Status.PLAYING and table.hand_number == 2
    [hand] = client.get(url).json()
    assert hand["hand"] == 1 and hand["ruling"]["valid"] is True
    assert hand["record"]["format"] == "domino-hand/1"
    return table, url, hand


def test_the_api_shows_a_fixture_tables_finished_hands_only(players, client):
    table, url, hand = api_after_one_hand(players, client, {"target": 150}, seed=5)
    body = client.get(url).content.decode()
    assert json.dumps(hand["record"]["deal"][0], separators=(",", ":")) in body
    for tiles in table.state["deal"]:  # the hand in play
        assert json.dumps(tiles, separators=(",", ":")) not in body


def test_the_api_never_shows_the_tiles_nobody_drew(players, client):
    """A draw game: the finished hand's boneyard is cut to the tiles drawn from it, as the
    hand's page shows it; the tiles left in it never leave the server."""
    # A random hand draws the whole boneyard about three times in five, so hands are played
    # until one leaves tiles in it; the target is out of reach so the table never ends first.
    rules = {"target": 100_000, "boneyard": True, "tiles_per_hand": 5}
    table, url, _hand = api_after_one_hand(players, client, rules, seed=3)
    rng = random.Random(4)
    for _ in range(40):
        unseen = 0
        for hand in client.get(url).json():
            stored = table.hands.get(number=hand["hand"]).record
            drawn = sum(a.startswith("draw") for a in stored["actions"])
            assert hand["record"]["boneyard"] == stored["boneyard"][:drawn]
            assert hand["record"]["actions"] == stored["actions"]
            shown = json.dumps(hand)  # the hand as the API gives it, its deal included
            for tile in stored["boneyard"][drawn:]:
                assert f'"{tile}"' not in shown
                unseen += 1
        if unseen or table.status != Table.Status.PLAYING:
            break
        table = play_hand(table, rng)
    assert unseen  # some tiles were never drawn, so never shown


def test_a_player_disputes_a_hand_played_at_the_live_table(players, client):
    from games.disputes.models import Dispute
    from games.models import Hand

    club = Organisation.objects.create(name="Club Árbitros", slug="club-arbitros")
    event = Event.objects.create(
        organisation=club,
        name="Liga en vivo",
        slug="liga-en-vivo",
        mode=Event.Mode.ONLINE,
        status=Event.Status.RUNNING,
        rule_preset="tournament",
        rule_overrides={"target": 1},
    )
    people = [Player.objects.get(user=u) for u in players]
    a = Entry.objects.create(event=event, name="A", player_1=people[0], player_2=people[2])
    b = Entry.objects.create(event=event, name="B", player_1=people[1], player_2=people[3])
    fixture = Match.objects.create(
        event=event,
        round=Round.objects.create(event=event, number=1),
        entry_a=a,
        entry_b=b,
        scheduled=timezone.now(),
    )
    [table] = open_due_fixtures(timezone.now())
    play_out(Table.objects.get(pk=table.pk), random.Random(9))
    hand = Hand.objects.filter(table=table).first()
    url = f"/disputes/live-hands/{hand.pk}/new/"
    client.force_login(players[1])
    assert url in client.get(f"/matches/{fixture.pk}/").content.decode()
    response = client.post(url, {"reason": "Pasó con el 6-4 en la mano"})
    dispute = Dispute.objects.get()
    assert response.status_code == 302
    assert (dispute.match, dispute.hand, dispute.live_hand_id) == (fixture, hand.number, hand.pk)
    assert dispute.record == hand.record
    assert client.post(url, {"reason": "otra vez"}).status_code == 200  # already disputed
    assert Dispute.objects.count() == 1
    outsider = Player.objects.create(display_name="Nadie")
    outsider.user = type(players[0]).objects.create_user("nadie", password="x")
    outsider.save()
    client.force_login(outsider.user)
    assert client.post(url, {"reason": "no soy de aquí"}).status_code == 403
