from games.engine import adjudicate
from tests.engine.records import EXAMPLE, EXAMPLE_RULING


def test_the_hand_record_example_verbatim():
    ruling = adjudicate(EXAMPLE)
    assert ruling == EXAMPLE_RULING
    assert list(ruling) == list(EXAMPLE_RULING)
