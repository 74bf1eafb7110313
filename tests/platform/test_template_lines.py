"""Templates stay readable in a diff: no line over 200 characters."""

import subprocess

from tests.conftest import BASE_DIR

LONGEST = 200


def test_no_template_line_is_over_200_characters():
    files = subprocess.run(
        ["git", "ls-files", "*.html"], cwd=BASE_DIR, capture_output=True, text=True, check=True
    ).stdout.split()
    assert files
    long = [
        f"{name}:{number} ({len(line)})"
        for name in files
        for number, line in enumerate((BASE_DIR / name).read_text().splitlines(), start=1)
        if len(line) > LONGEST
    ]
    assert long == []
