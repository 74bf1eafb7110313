"""Each xdist worker gets its own services, as if it were a separate machine: its own var/
folder (SQLite file, Celery folders, mail) and its own Redis database for the cache, the
channel layer and the Celery broker, so that one worker's Celery worker never runs another's
tasks. Loaded with `-p tests.parallel` before Django reads its settings; the first worker
keeps the environment it was given."""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_index = int(_worker[2:]) if _worker.startswith("gw") else 0

if _index:
    var = Path(os.environ.get("CAPICUA_VAR_DIR", "var/test")).resolve()
    own = var / _worker
    own.mkdir(parents=True, exist_ok=True)
    if not (own / "staticfiles").exists() and (var / "staticfiles").exists():
        (own / "staticfiles").symlink_to(var / "staticfiles")
    os.environ["CAPICUA_VAR_DIR"] = str(own)
    if redis_url := os.environ.get("REDIS_URL"):
        parts = urlsplit(redis_url)
        base = int(parts.path.strip("/") or 0)
        os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{(base + _index) % 16}"))
