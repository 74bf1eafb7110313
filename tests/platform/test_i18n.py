import os
import re
import shutil
from pathlib import Path

import django
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse
from django.utils import formats, translation

LOCALE = Path(settings.BASE_DIR) / "locale"
SCRIPTS = Path(settings.BASE_DIR) / "static" / "js"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
# The templates' and code's strings (django), and the scripts' (djangojs: /jsi18n/).
DOMAINS = ["django", "djangojs"]


def catalogue(language: str, domain: str = "django"):
    with (LOCALE / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
        return read_po(handle)


def keys(messages) -> set[tuple[str | None, str | tuple[str, ...]]]:
    """Each message's context and id (a plural's: both forms)."""
    return {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in messages if m.id}


# What makemessages reads (README, Contributing): the code, the templates and the scripts.
SOURCES = (".py", ".html", ".txt", ".js")
NOT_SOURCES = {".venv", "var", ".git", "locale", "node_modules", "__pycache__"}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, set]:
    """The messages makemessages makes of each domain, run as the README says on a copy of
    the sources (it writes beside the files it reads)."""
    root = Path(settings.BASE_DIR)
    copy = tmp_path_factory.mktemp("sources")
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [name for name in subfolders if name not in NOT_SOURCES]
        for name in names:
            if name.endswith(SOURCES):
                source = Path(folder, name)
                target = copy / source.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
    (copy / "locale").mkdir()
    here = os.getcwd()
    os.chdir(copy)  # makemessages reads the current folder
    try:
        with override_settings(LOCALE_PATHS=[copy / "locale"]):
            for domain in DOMAINS:
                call_command("makemessages", locale=["en"], domain=domain, verbosity=0)
    finally:
        os.chdir(here)
    found = {}
    for domain in DOMAINS:
        with (copy / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
            found[domain] = keys(read_po(handle))
    return found


def django_own_messages() -> set:
    """Django's own messages: a catalogue may translate them its own way (the months, in
    lower case in a Portuguese date)."""
    path = Path(django.__file__).parent / "conf" / "locale" / "en" / "LC_MESSAGES" / "django.po"
    with path.open("rb") as handle:
        return keys(read_po(handle))


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", ["es", "pt_BR", "en"])
def test_catalogues_hold_what_makemessages_makes(made, language, domain):
    """Every message makemessages finds has its entry, and every entry is a message it finds
    (or one of Django's own): a string changed or dropped in the code leaves no entry behind."""
    shipped = keys(catalogue(language, domain))
    own = django_own_messages() if domain == "django" else set()
    assert len(made[domain]) > (1000 if domain == "django" else 100)
    assert sorted(made[domain] - shipped, key=str) == []  # missing
    assert sorted(shipped - made[domain] - own, key=str) == []  # unused


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", ["es", "pt_BR"])
def test_catalogues_ship_complete(language, domain):
    untranslated, fuzzy, broken = [], [], []
    for message in catalogue(language, domain):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            untranslated.append(ids[0])
        if message.fuzzy:
            fuzzy.append(ids[0])
        elif all(strings) and set(PLACEHOLDER.findall(ids[0])) != set(
            PLACEHOLDER.findall(strings[0])
        ):
            broken.append(ids[0])
    assert untranslated == [] and fuzzy == [] and broken == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [("es", "Iniciar sesión"), ("pt-br", "Entrar"), ("en", "Log in")],
)
def test_pages_speak_the_chosen_language(client, language, expected):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("login"))
    assert f'lang="{language}"' in response.content.decode()
    assert expected in response.content.decode()


@pytest.mark.django_db
def test_accept_language_picks_portuguese(client):
    response = client.get(reverse("home"), headers={"accept-language": "pt-BR,pt;q=0.9"})
    assert "Dominó em duplas" in response.content.decode()


def test_dates_and_numbers_are_localised():
    import datetime

    day = datetime.date(2026, 11, 29)
    with translation.override("es"):
        assert formats.date_format(day) == "29 de noviembre de 2026"
        assert formats.number_format(1234.5, 1, use_l10n=True, force_grouping=True) == "1\xa0234,5"
    with translation.override("pt-br"):  # the month in lower case, as Portuguese writes it
        assert formats.date_format(day) == "29 de novembro de 2026"
    with translation.override("en"):
        assert formats.date_format(day) == "Nov. 29, 2026"


def _keys(text: str) -> list[str]:
    """Each entry's msgctxt and msgid as written, continuation lines included."""
    keys = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#")]
        key, taking = [], False
        for line in lines:
            if line.startswith(("msgctxt ", "msgid ")):
                taking = True
            elif not line.startswith('"'):
                taking = False
            if taking:
                key.append(line)
        if key:
            keys.append("\n".join(key))
    return keys


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", ["es", "pt_BR", "en"])
def test_no_message_is_in_a_catalogue_twice(language, domain):
    """Catalogues merge as a union (.gitattributes): a message added twice must not ship."""
    keys = _keys((LOCALE / language / "LC_MESSAGES" / f"{domain}.po").read_text())
    assert len(keys) > (1000 if domain == "django" else 100)
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == []


def script_messages() -> set[tuple[str | None, str]]:
    """Every (context, message) the scripts pass to gettext, ngettext or pgettext."""
    found = set()
    for script in SCRIPTS.glob("*.js"):
        for _line, message, _comments, context in extract_from_file("javascript", str(script)):
            found.add((context, message[0] if isinstance(message, tuple) else message))
    return found


@pytest.mark.parametrize("language", ["es", "pt_BR", "en"])
def test_every_script_string_is_in_the_javascript_catalogue(language):
    """A string a script asks gettext for is translated in every language: none shows up in
    English on a Spanish page for want of an entry."""
    shipped = catalogue(language, "djangojs")
    wanted = script_messages()
    assert len(wanted) > 100
    missing = []
    for context, message in sorted(wanted, key=str):
        entry = shipped.get(message, context)
        strings = () if entry is None else entry.string
        strings = strings if isinstance(strings, tuple) else (strings,)
        if not strings or not all(strings):
            missing.append(message)
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [("es", "Te toca"), ("pt-br", "Sua vez"), ("en", "Your turn")],
)
def test_the_javascript_catalogue_speaks_the_chosen_language(client, language, expected):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("javascript-catalog"))
    assert response.status_code == 200
    assert f'"Your turn": "{expected}"' in response.content.decode()
