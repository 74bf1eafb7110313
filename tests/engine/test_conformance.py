"""The conformance vectors (conformance/*.json, docs/hand-record.md): the engine gives every
expected ruling, and the files reach every rule set, error code, event kind and ending."""

import json
import re
from pathlib import Path

import pytest

from games.engine import PRESETS, adjudicate
from league.faults import FAULTS

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "conformance").glob("*.json"))
RECORD_DOC = (ROOT / "docs" / "hand-record.md").read_text()


def _cases():
    for path in FILES:
        document = json.loads(path.read_text())
        assert document["format"] == "capicua-conformance/1"
        yield from ((path.name, case) for case in document["cases"])


CASES = list(_cases())


def _without_message(ruling: dict) -> dict:
    """What another program must match: every field, but the error's English message."""
    if ruling.get("error"):
        ruling = {**ruling, "error": {k: v for k, v in ruling["error"].items() if k != "message"}}
    return ruling


def test_there_are_vectors_for_every_preset():
    assert len(FILES) >= len(PRESETS) + 1 and len(CASES) >= 500
    assert {path.stem for path in FILES} >= set(PRESETS) | {"record-faults"}


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_the_engine_gives_every_expected_ruling(path):
    cases = json.loads(path.read_text())["cases"]
    wrong = [
        case["name"]
        for case in cases
        if _without_message(adjudicate(case["record"])) != _without_message(case["ruling"])
    ]
    assert wrong == []


def test_the_vectors_reach_every_error_code_event_kind_and_ending():
    rulings = [case["ruling"] for _name, case in CASES]
    codes = {r["error"]["code"] for r in rulings if r["error"]}
    assert codes == set(FAULTS)  # every code a ruling can carry
    source = (ROOT / "games" / "engine" / "state.py").read_text()
    kinds = set(re.findall(r'"(\w+)"', source)) & set(re.findall(r"`(\w+)`", RECORD_DOC))
    met = {event["kind"] for r in rulings for event in r["events"]}
    assert {"hand", "table", "pass", "capicua", "five_doubles", "no_double_penalty"} <= met
    assert met <= kinds
    assert {r["ended"] for r in rulings} == {"domino", "block", "redeal", "incomplete"}
    assert any(r["match_over"] for r in rulings) and any(r["shutout"] for r in rulings)


def test_a_changed_ruling_is_caught():
    _name, case = next((n, c) for n, c in CASES if c["ruling"]["valid"] and c["ruling"]["events"])
    altered = json.loads(json.dumps(case["ruling"]))
    altered["events"][0]["points"] += 1
    assert _without_message(adjudicate(case["record"])) != _without_message(altered)
