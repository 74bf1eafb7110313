"""In Chromium: the lobby's queues of each rule set with their live counts, a Brazilian
ranked match through the lobby, the end of a ranked match (a lisa announced, the ranking
named) and the online ranking's leaderboard."""

import re

import pytest
from django.utils import timezone

from games.models import Table
from games.services import matchmaking
from league.ratings import services
from league.ratings.services import global_pool
from tests.conftest import in_thread

from .conftest import full_table, make_players
from .test_lobby_page import QUEUE_URL, TABLE_URL, close, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_ranked_queues_counts_end_of_match_and_leaderboard(chromium, asgi_server):
    users = in_thread(make_players, 4, "bz")
    pages = [signed_in(chromium, asgi_server, user) for user in users]
    first = pages[0]
    first.goto(f"{asgi_server}/play/")
    # Latin has a quick queue only: the pair's and the ranked buttons go away.
    first.select_option("#id_queue_rules", "latin")
    assert first.locator("#quick-match").is_visible()
    assert not first.locator("#ranked-match").is_visible()
    assert not first.locator("#duo-match").is_visible()
    first.select_option("#id_queue_rules", "brazilian")
    assert first.locator("#ranked-match").is_visible()
    counts = first.locator("table.queue-counts tr[data-rules='brazilian'] td[data-kind='ranked']")
    assert counts.inner_text() == "0"
    # Somebody joins the Brazilian ranked queue elsewhere: the lobby's count follows.
    in_thread(matchmaking.join_queue, users[3], "ranked", None, "brazilian")
    first.wait_for_function(
        "document.querySelector(\"table.queue-counts tr[data-rules='brazilian']"
        " td[data-kind='ranked']\").textContent === '1'",
        timeout=20000,
    )
    assert "1" in first.locator(".queue-choice[data-kind='ranked'] .waiting").inner_text()
    # Three more press "Ranked match" under the Brazilian rules; the fourth opens the table.
    for i, page in enumerate(pages[:3]):
        if i:
            page.goto(f"{asgi_server}/play/")
            page.select_option("#id_queue_rules", "brazilian")
        page.click("#ranked-match")
        if i < 2:
            page.wait_for_url(QUEUE_URL)
            assert "Brasileño" in page.locator("#queue").inner_text()
    for page in pages[:3]:
        page.wait_for_url(TABLE_URL)
    table = in_thread(Table.objects.get, kind="ranked")
    assert table.rules == {"preset": "brazilian"}

    # A Dominican ranked match won by a lisa: announced at the match's end, with the ranking.
    others = in_thread(make_players, 4, "ls")
    lisa = in_thread(
        full_table, others, "dominican", kind=Table.Kind.RANKED, absence=Table.Absence.FORFEIT
    )
    in_thread(
        lambda: Table.objects.filter(pk=lisa.pk).update(
            status=Table.Status.FINISHED,
            finished=timezone.now(),
            match={**lisa.match, "over": True, "winner": 0, "shutout": True, "scores": [210, 0]},
        )
    )
    watcher = signed_in(chromium, asgi_server, others[0])
    watcher.goto(f"{asgi_server}/play/t/{lisa.code}/")
    watcher.wait_for_selector("#result .match-end #shutout")
    assert watcher.locator("#shutout").inner_text().startswith("¡Lisa!")
    assert "2 partidas ganadas" in watcher.locator("#shutout").inner_text()
    ranking = in_thread(lambda: global_pool().get_absolute_url())
    assert watcher.locator("#to-ranking").get_attribute("href") == ranking

    # The leaderboard: each rated player's rating, matches and "provisional".
    def rate_the_finished_ranked_tables() -> None:  # the operators' command, and its task
        services.reindex(global_pool())
        services.recalculate(global_pool().pk)

    in_thread(rate_the_finished_ranked_tables)
    watcher.goto(f"{asgi_server}{ranking}")
    rows = watcher.locator("table.leaderboard tbody tr")
    for _ in range(60):  # a replay by the worker may hold the pool; it takes this one up
        if rows.count():
            break
        watcher.wait_for_timeout(500)
        watcher.reload()
    rows.first.wait_for()
    names = [name.display_name for name in in_thread(lambda: [u.player for u in others])]
    text = watcher.locator("table.leaderboard").inner_text()
    for name in names:
        assert name in text
    assert rows.count() == 4 and watcher.locator("tr.provisional").count() == 4
    assert re.search(r"provisional", rows.first.inner_text())
    close(*pages, watcher)
