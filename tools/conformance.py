"""Write the conformance vectors (conformance/*.json): hand records and the rulings they
must get, for any program that reads `domino-hand/1` records (docs/hand-record.md,
"Conformance vectors").

    .venv/bin/python tools/conformance.py

Each file holds seeded random hands of one rule set, whole, cut short, and with one action
made wrong (a tile not held, one that does not fit, a pass or a draw that is not allowed, a
junk string, an action after the end), so that every ruling field and error code is met.
The suite (tests/engine/test_conformance.py) checks that the engine still gives every
expected ruling, and that the files cover every preset, error code, event kind and ending.
Run this again only when the rules change on purpose, and review the difference.
"""

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import (  # noqa: E402
    PRESETS,
    VARIANTS,
    Rules,
    adjudicate,
    new_hand,
    play_out,
    to_record,
    variant,
)
from games.engine.tiles import NAME  # noqa: E402

FORMAT = "capicua-conformance/1"
OUT = Path(__file__).resolve().parents[1] / "conformance"
HANDS = 24  # per rule set
# The rule sets written, one file each: the presets and the variants that change the game's
# shape (fewer players, a boneyard, other scoring).
RULE_SETS = [
    *PRESETS,
    "tournament_1v1",
    "brazilian_no_pass",
    "vog_2p",
    "vog_3p",
    "vog_draw",
    "vog_draw_3p",
    "vog_goat",
    "vog_international",
]


def _rules(name: str) -> Rules:
    return PRESETS[name] if name in PRESETS else variant(name)


def _spec(name: str) -> Any:
    """A preset by its name; a variant as its options (a variant's name is no preset)."""
    return name if name in PRESETS else VARIANTS[name]


def _random_hand(name: str, rng: random.Random, index: int) -> dict[str, Any]:
    rules = _rules(name)
    first = index % 3 == 0
    scores: list[int] | None = None
    if not first:  # a later hand of a match, sometimes close to the target
        near = rules.target - rng.randint(1, 40) if rng.random() < 0.4 else 0
        scores = [max(0, near - rng.randint(0, 30)) for _ in range(rules.sides)]
    state = new_hand(
        rules,
        rng=rng,
        leader=None if first else rng.randrange(rules.players),
        scores_before=scores,
        normal_before=scores,
        hand_number=1 if first else rng.randint(2, 9),
    )
    record = to_record(play_out(state, rng.choice))
    record["rules"] = _spec(name)
    return record


def _wrong(record: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The record with one action made wrong (or one added after the end)."""
    actions = record["actions"]
    if not actions:
        return None
    kinds = ["tile", "pass", "draw", "junk", "after_end", "opener", "salida", "no_end"]
    kind = rng.choice(kinds)
    wrong = copy.deepcopy(record)
    if kind == "after_end":
        wrong["actions"].append(rng.choice(["pass", "draw", actions[-1]]))
        return wrong
    if kind == "opener":
        seats = len(record["deal"])
        wrong["opener"] = (record.get("opener", 0) + rng.randrange(1, seats)) % seats
        return wrong
    if kind == "salida":  # another tile of the opener's hand laid first
        hand = record["deal"][record.get("opener", 0)]
        wrong["actions"][0] = rng.choice(hand)
        return wrong
    if kind == "no_end":  # an end left unnamed: fine where it does not matter
        named = [i for i, action in enumerate(actions) if "@" in action]
        if not named:
            return None
        at = rng.choice(named)
        wrong["actions"][at] = actions[at].split("@")[0]
        return wrong
    at = rng.randrange(len(actions))
    if kind == "junk":
        wrong["actions"][at] = rng.choice(["7-1", "5-5@middle", "", "PASS", "4-"])
    elif kind in ("pass", "draw"):
        wrong["actions"][at] = kind
    else:
        wrong["actions"][at] = NAME[rng.randrange(28)]
    del wrong["actions"][at + 1 :]
    return wrong


def _cut(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    cut = copy.deepcopy(record)
    del cut["actions"][rng.randrange(len(cut["actions"]) + 1) :]
    return cut


def cases(name: str, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for index in range(HANDS):
        record = _random_hand(name, rng, index)
        out.append({"name": f"{name} hand {index}", "record": record})
        if index % 4 == 1:
            out.append({"name": f"{name} hand {index}, cut short", "record": _cut(record, rng)})
        if index % 2 == 0 and (wrong := _wrong(record, rng)) is not None:
            out.append({"name": f"{name} hand {index}, one action wrong", "record": wrong})
    for case in out:
        case["ruling"] = adjudicate(case["record"])
    return out


def record_faults(seed: int) -> list[dict[str, Any]]:
    """Faults of the record itself, its rules, its deal, boneyard and declarations."""
    rng = random.Random(seed)
    base = _random_hand("dominican", rng, 1)
    deal = base["deal"]
    draw = _random_hand("vog_draw", rng, 0)
    five = {  # seat 1 holds five doubles
        **copy.deepcopy(base),
        "rules": "brazilian",
        "deal": [
            ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2"],
            ["1-1", "2-2", "3-3", "4-4", "5-5", "1-3", "1-4"],
            ["1-5", "1-6", "2-3", "2-4", "2-5", "2-6", "3-4"],
            ["3-5", "3-6", "4-5", "4-6", "5-6", "6-6", "0-0"],
        ],
        "leader": 3,
        "actions": [],
    }
    five.pop("opener", None)
    faults: dict[str, Any] = {
        "not an object": [],
        "another format": {**base, "format": "domino-hand/2"},
        "no deal": {k: v for k, v in base.items() if k != "deal"},
        "an unknown preset": {**base, "rules": "chess"},
        "an option of the wrong type": {**base, "rules": {"preset": "dominican", "pairs": 1}},
        "three hands dealt": {**base, "deal": deal[:3]},
        "a tile dealt twice": {**base, "deal": [deal[0], [deal[0][0], *deal[1][1:]], *deal[2:]]},
        "a hand one tile short": {**base, "deal": [deal[0][1:], *deal[1:]]},
        "a tile that is no tile": {**base, "deal": [["7-7", *deal[0][1:]], *deal[1:]]},
        "scores for three sides": {**base, "scores_before": [0, 0, 0]},
        "a leader that is no seat": {**base, "leader": 4},
        "actions that are not a list": {**base, "actions": "pass"},
        "a non-string action": {**base, "actions": [base["actions"][0], 5]},
        "a draw game without its boneyard": {k: v for k, v in draw.items() if k != "boneyard"},
        "a boneyard short of a tile": {**draw, "boneyard": draw["boneyard"][1:]},
        "five doubles: points": {**five, "declarations": [{"seat": 1, "choice": "points"}]},
        "five doubles: a redeal": {**five, "declarations": [{"seat": 1, "choice": "redeal"}]},
        "five doubles: left to the default": five,
        "five doubles declared by another seat": {
            **five,
            "declarations": [{"seat": 2, "choice": "points"}],
        },
        "five doubles: an unknown choice": {
            **five,
            "declarations": [{"seat": 1, "choice": "both"}],
        },
        "five doubles under rules without them": {
            **base,
            "declarations": [{"seat": 1, "choice": "points"}],
        },
        "declarations that are not objects": {**base, "declarations": ["points"]},
    }
    return [
        {"name": name, "record": record, "ruling": adjudicate(record)}
        for name, record in faults.items()
    ]


def _dumps(document: dict[str, Any]) -> str:
    """The document with a case a line: small, and a changed ruling is a changed line."""
    lines = [
        json.dumps(case, ensure_ascii=False, separators=(",", ":")) for case in document["cases"]
    ]
    head = json.dumps({k: v for k, v in document.items() if k != "cases"}, ensure_ascii=False)
    return head[:-1] + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for seed, name in enumerate(RULE_SETS):
        document = {
            "format": FORMAT,
            "rules": name,
            "cases": cases(name, 1000 + seed),
        }
        path = OUT / f"{name}.json"
        path.write_text(_dumps(document))
        print(f"{path.name}: {len(document['cases'])} cases")
    document = {"format": FORMAT, "rules": "various", "cases": record_faults(99)}
    (OUT / "record-faults.json").write_text(_dumps(document))
    print(f"record-faults.json: {len(document['cases'])} cases")


if __name__ == "__main__":
    main()
