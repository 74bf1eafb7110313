"""Organisers choose the ranking their event feeds; the server checks who may choose what."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Event, Membership, Organisation
from league.ratings import services
from league.ratings.models import EventPool, RatingPool


@pytest.fixture
def setup(db):
    federation = Organisation.objects.create(
        name="Federación", slug="fed", kind=Organisation.Kind.FEDERATION
    )
    club = Organisation.objects.create(name="Club", slug="club", parent=federation)
    users = get_user_model().objects
    people = {
        name: users.create_user(name, f"{name}@example.com", "pw")
        for name in ("club_org", "fed_org", "outsider", "staff")
    }
    Membership.objects.create(organisation=club, user=people["club_org"], role="organiser")
    Membership.objects.create(organisation=federation, user=people["fed_org"], role="organiser")
    people["staff"].is_staff = True
    people["staff"].save()
    event = Event.objects.create(organisation=club, name="Liga", slug="liga")
    return club, federation, event, people


def post(client, user, event, key):
    client.force_login(user)
    return client.post(reverse("ratings:event_pool", args=[event.slug]), {"pool": key})


def test_the_clubs_organiser_feeds_the_clubs_ranking(client, setup):
    club, federation, event, people = setup
    assert set(services.pool_choices(people["club_org"], event)) == {f"organisation-{club.pk}"}
    response = post(client, people["club_org"], event, f"organisation-{club.pk}")
    assert response.status_code == 302
    assert services.pool_of(event) == RatingPool.objects.get(organisation=club)
    # The federation's ranking is not the club organiser's to choose.
    response = post(client, people["club_org"], event, f"organisation-{federation.pk}")
    assert response.status_code == 200 and 'class="error"' in response.content.decode()
    assert services.pool_of(event).organisation == club


def test_only_the_federations_organisers_change_its_ranking(client, setup):
    club, federation, event, people = setup
    assert (
        post(client, people["fed_org"], event, f"organisation-{federation.pk}").status_code == 302
    )
    assert services.pool_of(event).organisation == federation
    assert post(client, people["club_org"], event, "").status_code == 403
    assert services.pool_of(event).organisation == federation
    assert post(client, people["fed_org"], event, "").status_code == 302
    assert not EventPool.objects.exists()


def test_outsiders_are_refused(client, setup):
    club, _federation, event, people = setup
    assert post(client, people["outsider"], event, f"organisation-{club.pk}").status_code == 403
    client.logout()
    url = reverse("ratings:event_pool", args=[event.slug])
    assert client.post(url, {"pool": f"organisation-{club.pk}"}).status_code == 302  # to login
    assert not EventPool.objects.exists()


def test_only_staff_put_online_events_in_the_global_ranking(client, setup):
    club, _federation, event, people = setup
    event.mode = Event.Mode.ONLINE
    event.save()
    assert services.pool_choices(people["club_org"], event) == {}
    post(client, people["club_org"], event, services.GLOBAL)
    assert not EventPool.objects.exists()
    Membership.objects.create(organisation=club, user=people["staff"], role="organiser")
    assert post(client, people["staff"], event, services.GLOBAL).status_code == 302
    assert services.pool_of(event) == services.global_pool()
