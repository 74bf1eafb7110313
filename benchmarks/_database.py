"""A PostgreSQL database of a benchmark's own: made fresh, migrated, dropped at the end."""

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _recreate(admin_url: str, name: str, drop_only: bool = False) -> None:
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop_only:
            connection.execute(f"CREATE DATABASE {name}")


@contextmanager
def bench_database(name: str, keep: bool = False) -> Iterator[None]:
    """Create `name` on the server of DATABASE_URL, set Django up on it and migrate; drop
    it afterwards unless `keep`."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("Set DATABASE_URL to a PostgreSQL server (the benchmark makes its own database).")
    parts = urlsplit(url)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    _recreate(admin_url, name)
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{name}"))
    os.environ.setdefault("SECRET_KEY", "benchmark-only-secret-key-0123456789abcdefghijklmnop")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    try:
        call_command("migrate", verbosity=0)
        yield
    finally:
        connection.close()
        if not keep:
            _recreate(admin_url, name, drop_only=True)
