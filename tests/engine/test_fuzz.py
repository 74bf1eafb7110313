"""The adjudicator answers a ruling, never a traceback, whatever it is given."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import adjudicate
from tests.engine.records import EXAMPLE

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 30)
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["5-5", "6-6", "pass", "draw", "3-5@right", "dominican", "brazilian"]),
    lambda inner: (
        st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=20,
)
FIELDS = [
    "format",
    "rules",
    "players",
    "hand_number",
    "leader",
    "opener",
    "scores_before",
    "normal_before",
    "deal",
    "boneyard",
    "declarations",
    "actions",
]

KEYS = {
    "format",
    "valid",
    "error",
    "ended",
    "winner",
    "blocker",
    "opener",
    "points",
    "normal_points",
    "events",
    "scores_after",
    "normal_after",
    "next_leader",
    "match_over",
    "match_winner",
    "shutout",
}


def check(ruling):
    assert isinstance(ruling, dict) and set(ruling) == KEYS
    assert ruling["valid"] == (ruling["error"] is None)


@settings(max_examples=300, deadline=None)
@given(junk)
def test_junk_records(value):
    check(adjudicate(value))


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), junk, max_size=6))
def test_example_with_junk_fields(changes):
    check(adjudicate({**EXAMPLE, **changes}))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELDS[1:]), junk)
def test_rules_object_with_junk_options(option, value):
    check(adjudicate({**EXAMPLE, "rules": {"preset": "brazilian", option: value}}))
    check(adjudicate({**EXAMPLE, "rules": {"preset": "dominican", "target": value}}))


@settings(max_examples=300, deadline=None)
@given(st.lists(junk | st.sampled_from(EXAMPLE["actions"]), max_size=30))
def test_junk_actions(actions):
    check(adjudicate({**EXAMPLE, "actions": actions}))
