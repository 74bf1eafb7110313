"""docs/rules.md and docs/hand-record.md describe everything the engine knows."""

import re
from dataclasses import fields
from pathlib import Path

from games.engine import PRESETS, VARIANTS, Rules
from games.engine import state as engine_state
from league.faults import FAULTS

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = (ROOT / "docs" / "rules.md").read_text()
RECORD_DOC = (ROOT / "docs" / "hand-record.md").read_text()
ENGINE = ROOT / "games" / "engine"
OPTIONS = [f.name for f in fields(Rules)]


def engine_error_codes() -> set[str]:
    """Every code the engine raises, read from its source."""
    source = "".join(path.read_text() for path in ENGINE.glob("*.py"))
    return set(re.findall(r'(?:EngineError|IllegalAction)\(\s*"(\w+)"', source)) | {"bad_record"}


def test_every_option_preset_and_variant_is_described():
    for name in [*OPTIONS, *PRESETS, *VARIANTS]:
        assert f"`{name}`" in RULES_DOC, name


def test_every_rules_field_has_a_one_line_description():
    source = (ENGINE / "rules.py").read_text()
    body = source[source.index("class Rules:") : source.index("def __post_init__")]
    described = dict(re.findall(r"^    (\w+): \w+  # (.+)$", body, re.MULTILINE))
    assert sorted(described) == sorted(OPTIONS)


def test_every_error_code_is_in_the_table_of_hand_record_md():
    codes = engine_error_codes()
    assert len(codes) >= 12
    # every code a ruling can carry has a translated explanation; `incomplete` is only
    # raised by finish_hand, to its caller
    assert codes - {"incomplete"} == set(FAULTS)
    table = RECORD_DOC[RECORD_DOC.index("### Error codes") :]
    for code in codes:
        assert f"| `{code}` |" in table, code


def test_every_event_kind_is_in_hand_record_md():
    source = (ENGINE / "state.py").read_text()
    kinds = set(re.findall(r'_score\(\s*setup,[^"]*"(\w+)"', source))
    assert {"hand", "table", "pass", "galo", "capicua", "no_double_penalty"} <= kinds
    for kind in kinds:
        assert f"`{kind}`" in RECORD_DOC, kind


def test_the_scoring_functions_named_in_rules_md_exist():
    section = RULES_DOC[RULES_DOC.index("## 4. Scoring") : RULES_DOC.index("## 5. Decisions")]
    named = set(re.findall(r"`(_?[a-z_]+)`", section)) - set(OPTIONS)
    functions = {n for n in named if callable(getattr(engine_state, n, None))}
    assert {"_pass_points", "_table_points", "_galo_points", "_opening_bonus"} <= functions
    assert {"_domino_bonuses", "_hand_points", "_domino_winner", "_block_winner"} <= functions


def test_the_presets_table_of_rules_md_is_the_engines():
    section = RULES_DOC[RULES_DOC.index("## 3. Presets") : RULES_DOC.index("### Named variants")]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    header = [cell.strip(" `") for cell in rows[0].strip("|").split("|")]
    presets = [cell.split()[0].strip("`") for cell in header[1:]]
    assert presets == list(PRESETS)
    checked = set()
    for row in rows[1:]:
        cells = [re.sub(r"\(.*?\)", "", cell).strip() for cell in row.strip("|").split("|")]
        names = cells[0].replace(",", " ").split()
        for preset, cell in zip(presets, cells[1:], strict=True):
            values = cell.replace(",", " ").split()
            assert len(values) == len(names), row
            for name, value in zip(names, values, strict=True):
                actual = getattr(PRESETS[preset], name)
                if isinstance(actual, bool):
                    actual = "yes" if actual else "no"
                assert value == str(actual), (preset, name)
                checked.add(name)
    assert checked == set(OPTIONS) - {"preset", "opening_tile", "five_doubles_seconds"}


def test_every_option_has_one_label_and_help_and_rules_md_says_the_same():
    from django.utils import translation

    from league.rule_options import HELP, LABELS

    options = set(OPTIONS) - {"preset"}
    assert set(LABELS) == set(HELP) == options
    section = RULES_DOC[RULES_DOC.index("## 2. Options") : RULES_DOC.index("## 3. Presets")]
    rows = dict(re.findall(r"^\| `(\w+)` \| [^|]* \| (.*) \|$", section, re.MULTILINE))
    with translation.override("en"):
        english = {option: str(HELP[option]) for option in options}
    for option in options:
        assert rows[option].replace("`", "").startswith(english[option]), option
    for language in ("es", "pt-br"):  # shown translated where people set the options
        with translation.override(language):
            assert all(str(HELP[option]) != english[option] for option in options), language
