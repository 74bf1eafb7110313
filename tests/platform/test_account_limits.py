"""Sign-in, sign-up and password reset limits, against a real server, with the attempts
sent in parallel: per client address, per account and per e-mail, on the cache's atomic
counter; the refusal says when to try again, in the reader's language; a stranger's guesses
never hold back the browser the owner signs in with."""

import collections
import re
import threading

import pytest
import requests
from django.contrib.auth import get_user_model

from tests.conftest import in_thread

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "domino-capicua-77"
CLIENTS = 16


@pytest.fixture
def server(own_server, redis_layer) -> str:
    # The address of each browser is its X-Forwarded-For (one trusted proxy). Each checked
    # password holds a database connection while it is hashed (a second or more on a busy
    # machine): 16 at once may wait longer than the pool's default 20 s for one.
    return own_server(TRUSTED_PROXIES="1", DATABASE_POOL_TIMEOUT="120")


def browser(address: str, language: str = "es") -> requests.Session:
    session = requests.Session()
    session.headers.update({"X-Forwarded-For": address, "Accept-Language": language})
    return session


def post_form(
    session: requests.Session, url: str, data: dict[str, str], go=lambda: None
) -> requests.Response:
    """The form's page, then (once `go` returns) the form posted with its CSRF token, not
    following redirects."""
    page = session.get(url, timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)[1]
    go()
    return session.post(
        url,
        data={"csrfmiddlewaretoken": token, **data},
        headers={"Referer": url},
        allow_redirects=False,
        timeout=60,
    )


def sign_in(session: requests.Session, server: str, username: str, password: str):
    return post_form(
        session, f"{server}/accounts/login/", {"username": username, "password": password}
    )


def in_parallel(attempt, count: int = CLIENTS) -> list[requests.Response]:
    """`attempt(i, go)` for i in range(count), in threads that post all at once (each
    loads its page, then waits in `go` for the others)."""
    answers: list = [None] * count
    ready = threading.Barrier(count)

    def run(i: int) -> None:
        answers[i] = attempt(i, ready.wait)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def make_user(username: str, email: str) -> None:
    in_thread(get_user_model().objects.create_user, username, email, PASSWORD)


def test_a_strangers_guesses_are_counted_per_account_and_spare_the_owners_browser(server):
    make_user("rosa", "rosa@example.com")
    owners = browser("198.51.100.1")
    assert sign_in(owners, server, "rosa", PASSWORD).status_code == 302
    owners.cookies.pop("sessionid")  # signed out; the browser keeps its device cookie

    def guess(i: int, go) -> requests.Response:
        return post_form(
            browser(f"203.0.113.{i}"),
            f"{server}/accounts/login/",
            {"username": "Rosa", "password": f"guess-{i}"},
            go,
        )

    answers = in_parallel(guess)
    statuses = collections.Counter(answer.status_code for answer in answers)
    assert statuses == {200: 10, 429: 6}  # ten passwords checked, whatever the timing
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert "Demasiados intentos. Vuelve a intentarlo en 15 minutos." in refused.text
    assert 890 <= int(refused.headers["Retry-After"]) <= 900

    # The right password from a browser the account has never seen waits too.
    elsewhere = sign_in(browser("198.51.100.2", "en"), server, "rosa", PASSWORD)
    assert elsewhere.status_code == 429
    assert "Too many attempts. Try again in 15 minutes." in elsewhere.text
    # The owner's own browser is not held back by the stranger's guesses.
    assert sign_in(owners, server, "rosa", PASSWORD).status_code == 302
    # Nor is the limit the owner's: their browser's own wrong passwords have their count.
    owners.cookies.pop("sessionid")
    typos = [sign_in(owners, server, "rosa", "typo").status_code for _ in range(11)]
    assert typos == [200] * 10 + [429]


def test_one_address_meets_its_limit_whatever_the_accounts_it_tries(server):
    def guess(i: int, go) -> requests.Response:
        return post_form(
            browser("203.0.113.200"),
            f"{server}/accounts/login/",
            {"username": f"nobody-{i}", "password": "guess"},
            go,
        )

    answers = [answer for _ in range(3) for answer in in_parallel(guess)]
    assert collections.Counter(a.status_code for a in answers) == {200: 30, 429: 18}
    make_user("luis", "luis@example.com")
    assert sign_in(browser("203.0.113.201"), server, "luis", PASSWORD).status_code == 302
    assert sign_in(browser("203.0.113.200"), server, "luis", PASSWORD).status_code == 429


def test_a_right_password_does_not_count(server):
    make_user("ana", "ana@example.com")
    club = browser("198.51.100.7")  # a club's one address, many members signing in
    for _ in range(35):
        assert sign_in(club, server, "ana", PASSWORD).status_code == 302
        club.cookies.pop("sessionid")


def test_sign_ups_naming_one_email_are_limited(server):
    def sign_up(i: int, go) -> requests.Response:
        return post_form(
            browser(f"203.0.113.{i}"),
            f"{server}/accounts/signup/",
            {
                "username": f"player{i}",
                "email": "Same@Example.com",
                "display_name": f"Player {i}",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
            go,
        )

    statuses = collections.Counter(answer.status_code for answer in in_parallel(sign_up))
    # Five reach the form (an account is made, or the e-mail is taken), eleven are refused.
    assert statuses[429] == 11 and statuses[302] + statuses[200] == 5


def test_password_resets_for_one_email_are_limited(server):
    make_user("marta", "marta@example.com")

    def reset(i: int, go) -> requests.Response:
        return post_form(
            browser(f"203.0.113.{i}", "pt-br"),
            f"{server}/accounts/password_reset/",
            {"email": "marta@example.com"},
            go,
        )

    answers = in_parallel(reset)
    assert collections.Counter(a.status_code for a in answers) == {302: 3, 429: 13}
    refused = next(answer for answer in answers if answer.status_code == 429)
    assert "Muitas tentativas. Tente novamente em 60 minutos." in refused.text
