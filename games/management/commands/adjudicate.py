"""`manage.py adjudicate FILE|-`: print the ruling of a hand record as JSON."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine import adjudicate


class Command(BaseCommand):
    help = "Adjudicate a domino-hand/1 record (a file, or - for standard input)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the record's JSON file, or - for standard input")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            record = json.loads(text)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise CommandError(f"not a hand record: {e}", returncode=2) from e
        if not isinstance(record, dict):
            raise CommandError("not a hand record: the JSON is not an object", returncode=2)
        self.stdout.write(json.dumps(adjudicate(record)))
