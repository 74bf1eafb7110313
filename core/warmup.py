"""What a worker process loads before its first task, so that no player waits for it.

A live worker's first pairing imported networkx (about 2 s on a busy machine) and its first
link built the URL resolver (about 1 s): each prefork child paid them on the first round it
paired, in that round's turnover (#34). The worker's parent loads them once before it forks
its children, who share them. The web processes keep loading them on first use (a second of
start-up that most of them never need)."""

import logging
import time

logger = logging.getLogger(__name__)


def warm_up() -> float:
    """Import the pairing's matching library, build the URL resolver (every namespace) and
    read the message catalogues of every language; the seconds it took. Never raises: a
    worker that could not warm up loads each on first use, as before."""
    started = time.monotonic()
    try:
        import networkx  # noqa: F401  (league/pairing/_matching.py loads it on first use)
        from django.conf import settings
        from django.urls import get_resolver
        from django.utils import translation

        resolver = get_resolver()
        resolver.reverse_dict  # noqa: B018  (builds the resolver: imports every urls module)
        for _prefix, namespace in resolver.namespace_dict.values():
            namespace.reverse_dict  # noqa: B018
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                translation.gettext("Played online")
    except Exception:  # a warm-up is never worth a worker that does not start
        logger.warning("worker warm-up failed", exc_info=True)
    return time.monotonic() - started
