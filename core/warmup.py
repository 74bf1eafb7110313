"""What a process loads before its first task or answer, so that no player waits for it.

The web server loads the application in granian's main process before it forks its workers
(config/web.py); a Celery worker's parent loads the same, and the pairing's matching
library, before it forks its children (config/celery.py). A live worker's first pairing
imported networkx (about 2 s on a busy machine) and its first link built the URL resolver
(about 1 s): each prefork child paid them on the first round it paired, in that round's
turnover (#34). Nothing loaded here connects anywhere or starts a thread."""

import logging
import time

logger = logging.getLogger(__name__)


def load_urls_and_catalogues() -> None:
    """Build the URL resolver (every view module and namespace, through the includes) and
    read the message catalogues of every language."""
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils.translation import trans_real

    resolver = get_resolver()
    resolver.reverse_dict  # noqa: B018  (imports every urls and view module)
    for _prefix, namespace in resolver.namespace_dict.values():
        namespace.reverse_dict  # noqa: B018
    for code, _name in settings.LANGUAGES:
        trans_real.translation(code)


def warm_up() -> float:
    """A worker's parent: the URLs, the catalogues and the pairing's matching library; the
    seconds it took. Never raises: a worker that could not warm up loads each on first use,
    as before."""
    started = time.monotonic()
    try:
        import networkx  # noqa: F401  (league/pairing/_matching.py loads it on first use)

        load_urls_and_catalogues()
    except Exception:  # a warm-up is never worth a worker that does not start
        logger.warning("worker warm-up failed", exc_info=True)
    return time.monotonic() - started
