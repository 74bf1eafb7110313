import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.urls import reverse
from django.utils import formats, translation

LOCALE = Path(settings.BASE_DIR) / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")


def catalogue(language: str):
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as handle:
        return read_po(handle)


@pytest.mark.parametrize("language", ["es", "pt_BR"])
def test_catalogues_ship_complete(language):
    untranslated, fuzzy, broken = [], [], []
    for message in catalogue(language):
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


@pytest.mark.parametrize("language", ["es", "pt_BR", "en"])
def test_no_message_is_in_a_catalogue_twice(language):
    """Catalogues merge as a union (.gitattributes): a message added twice must not ship."""
    keys = _keys((LOCALE / language / "LC_MESSAGES" / "django.po").read_text())
    assert len(keys) > 1000
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == []
