"""Matchmaking queues of each rule set, and the lobby's live counts of who waits where."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.engine import rules_from_spec
from games.models import QueueEntry, Table
from games.services import matchmaking, rematch
from games.services.errors import TableError

from .conftest import make_players

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_rule_set_fills_its_own_tables():
    """A queue opens a table of its rule set's defaults, with nobody from another queue."""
    for rules, kinds in matchmaking.QUEUES.items():
        other = "brazilian" if rules == "dominican" else "dominican"
        stranger = make_players(1, "x")[0]
        assert matchmaking.join_queue(stranger, "quick", rules=other) is None
        seats = rules_from_spec(matchmaking.rules_spec(rules)).players  # 2 for one against one
        users = make_players(seats, "q")
        found = [matchmaking.join_queue(user, "quick", rules=rules) for user in users]
        table = found[-1]
        assert found[:-1] == [None] * (seats - 1) and table is not None
        assert table.seats.count() == seats
        assert table.rules == matchmaking.rules_spec(rules)
        assert table.kind == "quick" and matchmaking.queue_of(table) == rules
        assert stranger.pk not in set(table.seats.values_list("user", flat=True))
        assert matchmaking.queue_status(stranger) is True
        matchmaking.leave_queue(stranger)
        offered = set(kinds)
        assert offered == (
            {"quick", "duo", "ranked"} if rules in ("dominican", "brazilian") else {"quick"}
        )
        for kind in {"duo", "ranked"} - offered:
            partner = make_players(1, "pp")[0] if kind == "duo" else None
            with pytest.raises(TableError) as refused:
                matchmaking.join_queue(make_players(1, "n")[0], kind, partner, rules)
            assert refused.value.code == "no_queue"


def test_the_rule_sets_are_the_seeds_and_play_four_in_pairs():
    assert matchmaking.rules_spec("dominican") == {"preset": "dominican"}
    assert matchmaking.rules_spec("vog_draw")["boneyard"] is True
    with pytest.raises(TableError) as refused:
        matchmaking.join_queue(make_players(1, "u")[0], "quick", rules="chess")
    assert refused.value.code == "no_queue"
    with translation.override("es"):
        assert refused.value.message == "No existe esa cola."


def test_brazilian_pairs_and_ranked_meet_only_their_own():
    a, a_partner, b, b_partner = make_players(4, "d")
    assert matchmaking.join_queue(a, "duo", a_partner, "brazilian") is None
    # A Dominican pair waits for a Dominican pair.
    assert matchmaking.join_queue(b, "duo", b_partner, "dominican") is None
    c, c_partner = make_players(2, "c")
    table = matchmaking.join_queue(c, "duo", c_partner, "brazilian")
    assert table.rules == {"preset": "brazilian"} and table.kind == "duo"
    assert set(table.seats.values_list("user", flat=True)) == {
        u.pk for u in (a, a_partner, c, c_partner)
    }
    ranked = make_players(4, "r")
    found = [matchmaking.join_queue(u, "ranked", rules="brazilian") for u in ranked]
    table = found[-1]
    assert table.rules == {"preset": "brazilian"} and table.kind == "ranked"
    # A ranked seat absent for a whole hand loses the match for its pair.
    assert table.absence == Table.Absence.FORFEIT and not table.casual


def test_waiting_counts_count_people_per_queue():
    assert matchmaking.waiting_counts()["dominican"] == {"quick": 0, "duo": 0, "ranked": 0}
    assert matchmaking.waiting_counts()["latin"] == {"quick": 0}
    a, a_partner, single, other, brazilian = make_players(5, "w")
    matchmaking.join_queue(a, "duo", a_partner)
    matchmaking.join_queue(single, "quick", rules="latin")
    matchmaking.join_queue(other, "quick", rules="latin")
    matchmaking.join_queue(brazilian, "ranked", rules="brazilian")
    counts = matchmaking.waiting_counts()
    assert counts["dominican"] == {"quick": 0, "duo": 2, "ranked": 0}  # a pair is two people
    assert counts["latin"] == {"quick": 2} and counts["brazilian"]["ranked"] == 1
    assert matchmaking.waiting_in(a_partner) == ("dominican", "duo")
    # Matched entries no longer wait; leaving the queue takes the entry away.
    rest = make_players(2, "z")
    table = [matchmaking.join_queue(u, "quick", rules="latin") for u in rest][-1]
    assert table is not None and matchmaking.waiting_counts()["latin"] == {"quick": 0}
    matchmaking.leave_queue(brazilian)
    assert matchmaking.waiting_counts()["brazilian"]["ranked"] == 0


def test_playing_again_queues_in_the_same_rule_set():
    users = make_players(4, "a")
    table = [matchmaking.join_queue(u, "quick", rules="vog_goat") for u in users][-1]
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    table.refresh_from_db()
    assert rematch.play_again(table, users[0]) is None
    entry = QueueEntry.objects.get(user=users[0], table=None)
    assert (entry.rules, entry.kind) == ("vog_goat", "quick")


def test_the_lobby_shows_every_queue_with_its_live_count(client):
    users = make_players(3, "l")
    matchmaking.join_queue(users[0], "quick", rules="brazilian")
    matchmaking.join_queue(users[1], "duo", users[2], "brazilian")
    client.force_login(users[0])
    response = client.get(reverse("play"))
    page = response.content.decode()
    rows = {row["rules"]: row for row in response.context["queues"]}
    assert list(rows) == list(matchmaking.QUEUES)
    assert rows["brazilian"]["cells"] == [("quick", 1), ("duo", 2), ("ranked", 0)]
    assert rows["tournament"]["cells"] == [("quick", 0), ("duo", None), ("ranked", None)]
    for rules in matchmaking.QUEUES:
        assert f'<option value="{rules}">' in page and f'data-rules="{rules}"' in page
    counts = client.get(reverse("queue_counts")).json()["counts"]
    assert counts["brazilian"] == {"quick": 1, "duo": 2, "ranked": 0}
    # The queue page names the queue and how many wait in it.
    client.force_login(users[2])
    waiting = client.get(reverse("queue"))
    assert waiting.context["rules"] == "brazilian" and waiting.context["waiting"] == 2
    status = client.get(reverse("queue_status")).json()
    assert status["waiting"] is True and status["counts"]["brazilian"]["duo"] == 2


def test_joining_through_the_lobby_form_names_the_rule_set(client):
    users = make_players(4, "f")
    for user in users:
        client.force_login(user)
        response = client.post(reverse("join_queue"), {"kind": "quick", "rules": "latin"})
    table = Table.objects.get()
    assert response["Location"] == reverse("table", args=[table.code])
    assert table.rules == {"preset": "latin"}
    client.force_login(make_players(1, "g")[0])
    response = client.post(reverse("join_queue"), {"kind": "duo", "rules": "dominican"})
    assert response["Location"] == reverse("play")  # a pair needs a partner's name
    response = client.post(reverse("join_queue"), {"kind": "ranked", "rules": "latin"}, follow=True)
    assert [str(m) for m in response.context["messages"]] != []
    assert not QueueEntry.objects.filter(table=None).exists()
