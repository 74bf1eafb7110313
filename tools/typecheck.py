"""mypy over the project, held to its baseline (`make typecheck`, run by CI).

The contracts other programs rely on (games/engine and league/pairing) are checked with
mypy's strict flags (pyproject.toml), the rest with its defaults. The errors mypy found when
the check came to CI are listed in tools/mypy-baseline.txt (file and message, without line
numbers, so that moving code does not count); an error not in that list fails the check, and
one fixed is reported so that the list only shrinks (`--update` writes it anew).
"""

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "tools" / "mypy-baseline.txt"
STRICT = ("games/engine/", "league/pairing/")
ERROR = re.compile(r"^(?P<file>[^:]+):\d+: error: (?P<message>.*)$")


def errors() -> Counter[str]:
    """Each error of a mypy run as 'file: message', counted."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if run.returncode not in (0, 1):  # 2: mypy itself failed
        sys.exit(run.stdout + run.stderr)
    found: Counter[str] = Counter()
    for line in run.stdout.splitlines():
        if match := ERROR.match(line):
            found[f"{match['file']}: {match['message']}"] += 1
    return found


def main() -> int:
    found = errors()
    if "--update" in sys.argv:
        lines = sorted(line for line, count in found.items() for _ in range(count))
        BASELINE.write_text("".join(f"{line}\n" for line in lines))
    known = Counter(BASELINE.read_text().splitlines()) if BASELINE.exists() else Counter()
    strict = sum(count for line, count in found.items() if line.startswith(STRICT))
    new = found - known
    fixed = known - found
    for line in sorted(new):
        print(f"new: {line}")
    total, listed = sum(found.values()), sum(known.values())
    print(
        f"mypy: {total} errors, {sum(new.values())} not in the baseline of {listed}, "
        f"{sum(fixed.values())} fixed since it was written; in the strict modules: {strict}"
    )
    if fixed and "--update" not in sys.argv:
        print("Fixed errors: run `python tools/typecheck.py --update` to shrink the baseline.")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
