"""Sign up, log out, log in and switch the language in a real Chromium."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_log_in_and_switch_language(page, asgi_server):
    page.goto(asgi_server + "/accounts/signup/")
    assert page.locator("h1").inner_text() == "Regístrate"
    page.fill("#id_username", "yolanda")
    page.fill("#id_email", "yolanda@example.com")
    page.fill("#id_display_name", "Yolanda Batista")
    page.fill("#id_password1", "tranque-y-capicua-9")
    page.fill("#id_password2", "tranque-y-capicua-9")
    page.click("form.card button[type=submit], main form button[type=submit]")
    page.wait_for_url("**/accounts/profile/")
    assert page.input_value("#id_display_name") == "Yolanda Batista"

    page.click("header button:has-text('Cerrar sesión')")
    page.wait_for_url(asgi_server + "/")
    page.click("header a:has-text('Iniciar sesión')")
    page.fill("#id_username", "yolanda")
    page.fill("#id_password", "wrong-password")
    page.click("main form button[type=submit]")
    assert page.locator(".errors").is_visible()
    page.fill("#id_password", "tranque-y-capicua-9")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/dashboard/")
    assert page.locator("header a:has-text('Mi perfil')").is_visible()

    page.select_option("#language-select", "pt-br")
    page.wait_for_selector("header a:has-text('Meu perfil')")
    assert page.locator("html").get_attribute("lang") == "pt-br"
    page.select_option("#language-select", "en")
    page.wait_for_selector("header a:has-text('My profile')")
    page.goto(asgi_server + "/accounts/profile/")
    assert page.locator("h1").inner_text() == "My profile"
