"""The referee's view of a hand: the engine's ruling explained and every step of the replay."""

import copy
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine import EngineError, adjudicate, apply, replay, view
from league.faults import describe, localised

EVENT_KINDS = {
    "hand": _("hand points"),
    "table": _("points on the table"),
    "pass": _("pase (a player could not follow)"),
    "galo": _("galo"),
    "paso_corrido": _("paso corrido (every other seat passed)"),
    "capicua": _("capicúa"),
    "opening_bonus": _("salida bonus"),
    "double_domino": _("domino with a double"),
    "no_double_penalty": _("no-double penalty"),
    "five_doubles": _("five doubles"),
}


def steps(record: dict, ruling: dict) -> list[dict[str, Any]]:
    """Every seat's full view after each action, from the deal up to the first fault.

    Step 0 is the table before the first action; step i follows action i-1. A faulty action
    is not replayed, so the last step shows the table the faulty action was made on.
    """
    error = ruling.get("error") or {}
    if error and error.get("action") is None and error.get("code") != "wrong_opener":
        return []
    actions = record["actions"]
    upto = error["action"] if error.get("action") is not None else len(actions)
    start = copy.deepcopy(record) | {"actions": []}
    start.pop("opener", None)
    try:
        state = replay(start)
        out = [view(state, full=True)]
        for action in actions[:upto]:
            state = apply(state, action)[0]
            out.append(view(state, full=True))
    except EngineError:
        return []
    return out


def explain(record: Any) -> dict[str, Any]:
    """The ruling with its fault and events explained, and the replayed steps."""
    raw = adjudicate(record)
    ruling = localised(raw)
    error = ruling.get("error")
    valid_record = isinstance(record, dict) and isinstance(record.get("actions"), list)
    return {
        "ruling": ruling,
        "fault": error and {**error, "rule": describe(error["code"])},
        "events": [
            event | {"label": str(EVENT_KINDS.get(event["kind"], event["kind"]))}
            for event in ruling.get("events", [])
        ],
        "steps": steps(record, raw) if valid_record else [],
    }


def catalogue() -> dict[str, Any]:
    """The review script's strings, in the page's language."""
    return {
        "step": _("Step %(n)s of %(total)s"),
        "deal": _("The deal"),
        "after": _("After action %(n)s: %(action)s"),
        "faultAt": _("Fault at action %(n)s (seat %(seat)s)"),
        "faultRecord": _("Fault in the record"),
        "valid": _("No fault: the record follows the rules."),
        "incomplete": _("The record stops before the hand ends."),
        "seat": _("Seat %(n)s"),
        "turn": _("to play"),
        "boneyard": _("Boneyard: %(n)s"),
        "points": _("Points of the hand: %(points)s"),
        "ended": _("Ended: %(how)s"),
        "checking": _("Adjudicating…"),
        "notJson": _("The record is not valid JSON."),
        "failed": _("The record could not be checked. Try again."),
        "noSteps": _("The hand cannot be replayed until the record's fault is fixed."),
        "pass": _("pass"),
        "draw": _("draw"),
        "event": _("%(label)s: %(points)s points to side %(side)s"),
        "noEvents": _("No points scored."),
        "side": _("Side %(n)s"),
        "endedHow": {
            "domino": _("domino"),
            "block": _("block (tranque)"),
            "redeal": _("redeal"),
            "incomplete": _("not finished"),
        },
    }
