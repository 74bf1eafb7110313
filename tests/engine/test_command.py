import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.engine.records import EXAMPLE, EXAMPLE_RULING


def test_prints_the_ruling(tmp_path, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(EXAMPLE))
    call_command("adjudicate", str(path))
    assert json.loads(capsys.readouterr().out) == EXAMPLE_RULING


def test_a_faulty_record_is_still_a_ruling(tmp_path, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps({"format": "domino-hand/1"}))
    call_command("adjudicate", str(path))
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_record"


@pytest.mark.parametrize("text", ["not json", "[1, 2]"])
def test_not_a_record_exits_2(tmp_path, text):
    path = tmp_path / "hand.json"
    path.write_text(text)
    with pytest.raises(CommandError) as error:
        call_command("adjudicate", str(path))
    assert error.value.returncode == 2
