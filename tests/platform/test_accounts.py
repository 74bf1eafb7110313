import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Player
from tests.conftest import wait_for_mails

pytestmark = pytest.mark.django_db


def test_signup_creates_user_and_player_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "rosa",
            "email": "Rosa@Example.com",
            "display_name": "Rosa Jiménez",
            "password1": "domino-capicua-77",
            "password2": "domino-capicua-77",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="rosa")
    assert user.email == "rosa@example.com"
    assert user.player.display_name == "Rosa Jiménez"
    assert client.get(reverse("profile")).status_code == 200


def test_signup_with_nonsense_keeps_everything_as_it_was(client):
    get_user_model().objects.create_user("luis", "luis@example.com", "x")
    response = client.post(
        reverse("signup"),
        {
            "username": "luis2",
            "email": "LUIS@example.com",
            "display_name": "",
            "password1": "short",
            "password2": "other",
        },
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "email_taken" in [e.code for e in form.errors.as_data()["email"]]
    assert "display_name" in form.errors and "password2" in form.errors
    assert get_user_model().objects.count() == 1
    assert Player.objects.count() == 0


def test_profile_requires_login_and_saves(client, django_user_model):
    assert client.get(reverse("profile")).status_code == 302
    user = django_user_model.objects.create_user("ana", "ana@example.com", "pw")
    client.force_login(user)
    response = client.post(reverse("profile"), {"display_name": "Ana R.", "country": "DO"})
    assert response.status_code == 302
    player = Player.objects.get(user=user)
    assert (player.display_name, player.country) == ("Ana R.", "DO")
    public = client.get(reverse("player", args=[player.pk]))
    assert "Ana R." in public.content.decode()


def test_logout_is_a_post_and_ends_the_session(client, django_user_model):
    user = django_user_model.objects.create_user("ana", "ana@example.com", "pw")
    client.force_login(user)
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("profile")).status_code == 302


def test_admin_works_for_staff(client, admin_user):
    client.force_login(admin_user)
    for name in ("admin:index", "admin:league_player_changelist", "admin:league_organisation_add"):
        assert client.get(reverse(name)).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_password_reset_mail_is_sent_by_the_worker(client, celery_worker_process, mail_dir):
    get_user_model().objects.create_user("marco", "marco@example.com", "old-password-1")
    before = set(mail_dir.iterdir())  # other tests' mails, sent by the same worker
    response = client.post(reverse("password_reset"), {"email": "marco@example.com"})
    assert response.status_code == 302
    [text] = wait_for_mails(mail_dir, 1, before)
    assert "marco@example.com" in text
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", text).group(1)
    assert f"{settings.SITE_URL}{link}" in text  # the site's address, not the request's
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "new-password-42x", "new_password2": "new-password-42x"},
    )
    assert client.login(username="marco", password="new-password-42x")


def test_the_chosen_language_is_remembered_and_used_for_notifications(client, django_user_model):
    from django.utils import translation
    from django.utils.translation import gettext_lazy

    from league.notifications import notify

    user = django_user_model.objects.create_user("carmen", "carmen@example.com", "pw")
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})
    assert Player.objects.get(user=user).language == "pt-br"
    with translation.override("es"):
        notification = notify(user, gettext_lazy("Welcome to Capicúa, %(name)s!"), name="Carmen")
    assert notification.message == "Bem-vindo ao Capicúa, Carmen!"


def test_signup_remembers_the_language_of_the_page(client):
    client.post(
        reverse("signup"),
        {
            "username": "tomas",
            "email": "t@example.com",
            "display_name": "Tomás",
            "password1": "domino-capicua-77",
            "password2": "domino-capicua-77",
        },
        headers={"accept-language": "en"},
    )
    assert Player.objects.get(user__username="tomas").language == "en"


def test_a_nonsense_language_changes_nothing(client, django_user_model):
    user = django_user_model.objects.create_user("pedro", "p@example.com", "pw")
    Player.objects.create(user=user, display_name="Pedro", language="es")
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "klingon", "next": "/"})
    assert Player.objects.get(user=user).language == "es"
