"""Bracket round names are kept in English and shown in the reader's language: names stored
in Spanish or Portuguese before go back to English."""

import re

from django.db import migrations
from django.utils import translation
from django.utils.translation import gettext

NAMES = (
    "Final",
    "Semi-finals",
    "Quarter-finals",
    "Winners' final",
    "Winners' semi-finals",
    "Third-place match",
    "Grand final",
    "Grand final reset",
)
NUMBERED = {"Round {n}": "Round %(n)s", "Losers' round {n}": "Losers' round %(n)s"}


def _english(apps, schema_editor) -> None:
    Round = apps.get_model("league", "Round")
    known: dict[str, str] = {}
    patterns: list[tuple[re.Pattern, str]] = []
    for language in ("es", "pt-br"):
        with translation.override(language):
            known |= {gettext(name): name for name in NAMES}
            for english, msgid in NUMBERED.items():
                head, _n, tail = gettext(msgid).partition("%(n)s")
                pattern = re.compile(f"^{re.escape(head)}(\\d+){re.escape(tail)}$")
                patterns.append((pattern, english))
    for round_ in Round.objects.exclude(name=""):
        name = known.get(round_.name)
        if name is None:
            for pattern, english in patterns:
                if found := pattern.match(round_.name):
                    name = english.format(n=found[1])
                    break
        if name is not None and name != round_.name:
            Round.objects.filter(pk=round_.pk).update(name=name)


class Migration(migrations.Migration):
    dependencies = [("league", "0008_results_by_organisers")]

    operations = [migrations.RunPython(_english, migrations.RunPython.noop)]
