"""Publishing a Swiss round emails every player who has an address, through the real Celery
worker, each in their own language (#15)."""

import pytest

from league.models import Event, Player
from league.tournaments.services import swiss
from tests.conftest import in_thread, wait_for_mails, worker_said

from .conftest import build

pytestmark = pytest.mark.django_db(transaction=True)


def setup():
    data = build(Event.Format.SWISS, 4, tag="mail", rounds=3)
    first = data.entries[0]
    Player.objects.filter(pk=first.player_1_id).update(language="pt-br")
    Player.objects.filter(pk=first.player_2_id).update(language="es")
    # a roster player without an account, reached at the roster's address
    guest = Player.objects.get(pk=data.entries[1].player_1_id)
    guest.user.delete()
    Player.objects.filter(pk=guest.pk).update(email="invitada@example.com", language="en")
    # and one with no address at all
    Player.objects.filter(pk=data.entries[1].player_2_id).update(user=None)
    swiss.pair_round(data.organiser, data.event)
    return data


def test_publishing_a_round_emails_the_players_in_their_language(celery_worker_process, mail_dir):
    data = in_thread(setup)
    before = set(mail_dir.iterdir())
    in_thread(swiss.publish, data.organiser, data.event)
    mails = wait_for_mails(mail_dir, 7, before, seconds=60)
    assert len(mails) == 7, worker_said(celery_worker_process)  # 8 players, one without address

    def mail_to(address: str) -> str:
        [mail] = [m for m in mails if f"To: {address}" in m]
        return mail

    first = data.entries[0]
    table = first.matches_a.first() or first.matches_b.first()
    portuguese = mail_to(first.player_1.user.email)
    assert "foi publicada" in portuguese and f"Mesa {table.table}:" in portuguese
    spanish = mail_to(first.player_2.user.email)
    assert "Se publicó" in spanish and f"Mesa {table.table}:" in spanish
    english = mail_to("invitada@example.com")
    assert "is published" in english and "Table " in english
    assert f"/events/{data.event.slug}/" in english
