"""The admin: linking an event to a pool goes through the services (and their checks)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Event
from league.ratings import services
from league.ratings.models import EventPool, RatedMatch

from .conftest import build_pool


@pytest.mark.django_db
def test_linking_an_event_in_the_admin_places_its_matches(client):
    pool = build_pool()
    pool.play((0, 1, 2, 3), 2, 0)
    services.feed(pool.event, None)
    assert not RatedMatch.objects.exists()
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(admin)
    url = reverse("admin:ratings_eventpool_add")
    response = client.post(url, {"event": pool.event.pk, "pool": pool.pool.pk})
    assert response.status_code == 302
    assert RatedMatch.objects.filter(pool=pool.pool).count() == 1

    online = Event.objects.create(
        organisation=pool.event.organisation, name="Online", slug="online-x", mode=Event.Mode.ONLINE
    )
    response = client.post(url, {"event": online.pk, "pool": pool.pool.pk})
    assert response.status_code == 200 and not EventPool.objects.filter(event=online).exists()

    link = EventPool.objects.get(event=pool.event)
    client.post(reverse("admin:ratings_eventpool_delete", args=[link.pk]), {"post": "yes"})
    assert not RatedMatch.objects.exists()
