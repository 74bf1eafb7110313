"""Who may open, see, rule on, appeal and decide; the append-only log of rulings."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone

from demo.disputes import illegal_pass_record
from games.disputes import services
from games.disputes.models import Ruling
from league.models import Membership
from league.services.errors import ServiceError
from tests.league.conftest import make_user

from .conftest import corrected_record


@pytest.fixture
def people(refs) -> dict:
    club = refs.league.club
    return {
        "referee": refs.league.referee,
        "chief": refs.chief,
        "organiser": refs.league.organiser,
        "party_a": refs.a[0],
        "party_b": refs.b[1],
        "player_elsewhere": refs.league.players(refs.league.pairs[1])[0],
        "club_player": make_user("member", club, Membership.Role.PLAYER),
        "anonymous": AnonymousUser(),
    }


def test_permissions_matrix(refs, people):
    dispute = services.open_result_dispute(refs.a[0], refs.match, 1, 1, "Illegal pass.")
    expected = {
        # who: (open, see, rule, decide appeals)
        "referee": (False, True, True, False),
        "chief": (False, True, True, True),
        "organiser": (True, True, False, False),
        "party_a": (True, True, False, False),
        "party_b": (True, True, False, False),
        "player_elsewhere": (False, False, False, False),
        "club_player": (False, False, False, False),
        "anonymous": (False, False, False, False),
    }
    for name, (may_open, may_see, may_rule, may_decide) in expected.items():
        user = people[name]
        assert services.can_open(user, refs.match) is may_open, name
        assert services.can_see(user, dispute) is may_see, name
        assert services.is_referee(user, refs.league.event) is may_rule, name
        assert services.is_chief(user, refs.league.event) is may_decide, name
    for name in ("organiser", "party_a", "club_player"):
        with pytest.raises(ServiceError) as refused:
            services.rule(people[name], dispute, "uphold", "No.")
        assert refused.value.code == "forbidden"
    for name in ("referee", "club_player"):
        with pytest.raises(ServiceError) as refused:
            services.open_result_dispute(people[name], refs.match, 1, 1, "x")
        assert refused.value.code in ("forbidden", "already_disputed")
    services.rule(people["referee"], dispute, "uphold", "Stands.")
    with pytest.raises(ServiceError) as outsider:
        services.appeal(people["club_player"], dispute, "x")
    assert outsider.value.code == "forbidden"
    services.appeal(people["party_b"], dispute, "It was illegal.")
    for name in ("referee", "organiser", "party_a"):
        with pytest.raises(ServiceError) as refused:
            services.decide_appeal(people[name], dispute, "uphold", "x")
        assert refused.value.code == "forbidden"
    assert services.decide_appeal(people["chief"], dispute, "penalty", "Illegal.", side=1)


def test_pages_and_endpoints_check_permissions(client, refs, people):
    dispute = services.open_result_dispute(refs.a[0], refs.match, 1, 1, "Illegal pass.")
    page = reverse("dispute", args=[dispute.pk])
    endpoint = reverse("dispute_adjudicate", args=[dispute.pk])
    client.force_login(people["club_player"])
    assert client.get(page).status_code == 403
    client.force_login(people["party_a"])
    assert client.get(page).status_code == 200
    assert client.post(endpoint, "{}", content_type="application/json").status_code == 403
    response = client.post(
        reverse("dispute_rule", args=[dispute.pk]), {"kind": "uphold", "reason": "mine"}
    )
    assert response.status_code == 302 and not Ruling.objects.exists()
    client.force_login(people["referee"])
    answer = client.post(endpoint, corrected_record(), content_type="application/json").json()
    assert answer["ruling"]["valid"] and answer["fault"] is None
    assert len(answer["steps"]) == len(corrected_record()["actions"]) + 1
    faulty = client.post(endpoint, illegal_pass_record(), content_type="application/json").json()
    assert faulty["fault"]["code"] == "illegal_pass" and faulty["fault"]["action"] == 3
    assert len(faulty["steps"]) == 4 and faulty["fault"]["rule"]
    bad = client.post(endpoint, "{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "not_json"


def test_players_see_the_full_record_only_after_the_hand_ended(client, refs):
    live = services.open_dispute(
        refs.a[0],
        refs.match,
        game=1,
        hand=2,
        record=illegal_pass_record(),
        reason="Live.",
        played=timezone.now() - timedelta(minutes=1),
        hand_ended=False,
    )
    for user, full in ((refs.a[0], False), (refs.b[0], False), (refs.league.referee, True)):
        assert services.sees_full_record(user, live) is full
        client.force_login(user)
        content = client.get(reverse("dispute", args=[live.pk])).content.decode()
        assert ('id="review-record"' in content) is full
        assert ("5-2" in content) is full
    live.hand_ended = True
    live.save(update_fields=["hand_ended"])
    client.force_login(refs.b[0])
    assert 'id="review-record"' in client.get(reverse("dispute", args=[live.pk])).content.decode()


def test_rulings_are_append_only(refs):
    dispute = services.open_result_dispute(refs.a[0], refs.match, 1, 1, "Illegal pass.")
    ruling = services.rule(
        refs.league.referee, dispute, "correct", "Fix.", record=corrected_record()
    )
    ruling.reason = "rewritten"
    with pytest.raises(TypeError):
        ruling.save()
    with pytest.raises(TypeError):
        ruling.delete()
    with pytest.raises(TypeError):
        Ruling.objects.filter(pk=ruling.pk).update(reason="rewritten")
    with pytest.raises(TypeError):
        Ruling.objects.all().delete()
    stored = Ruling.objects.get(pk=ruling.pk)
    assert stored.reason == "Fix." and stored.by == refs.league.referee
    assert stored.record_before["actions"][3] == "pass"
    assert stored.record_after["actions"][3] == "5-2"
    assert stored.at <= timezone.now()


def test_the_competition_pages_link_into_refereeing(client, refs):
    from django.urls import reverse

    match_url = reverse("match", args=[refs.match.pk])
    client.force_login(refs.b[0])
    page = client.get(match_url).content.decode()
    assert reverse("dispute_open", args=[refs.match.pk]) in page
    client.force_login(refs.league.organiser)
    manage = client.get(reverse("event_manage", args=[refs.league.event.slug])).content.decode()
    assert reverse("batch_new", args=[refs.league.event.slug]) in manage
    assert reverse("referee_settings", args=[refs.league.event.slug]) in manage
    client.logout()
    anonymous = client.get(match_url).content.decode()
    assert reverse("dispute_open", args=[refs.match.pk]) not in anonymous
