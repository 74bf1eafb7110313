"""Rate limits on an atomic counter in the cache, and the client address they count.

Each limit keeps a log of the requests it let through within the last window (a sliding
window, as DRF's throttles keep): a request passes while fewer than the limit are in the log.
Reading the log, deciding and writing the request down is one step, whatever the number of
processes and connections: a Lua script in Redis (on Redis's clock), and in the embedded
mode a lock held across threads and processes around the cache's copy. So N requests at once
against a limit of L let exactly min(N, L) through in a window, never more.
"""

import hashlib
import ipaddress
import math
import re
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.cache import caches

from .cache import RedisCache

try:
    import fcntl
except ImportError:  # Windows: the lock holds across threads only
    fcntl = None  # type: ignore[assignment]

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$")

# KEYS[1]: the log, a sorted set of request tokens scored by time (microseconds, Redis's
# clock). ARGV: the limit, the window (microseconds), this request's token. Answers 0 when
# the request is written down, else the microseconds until the oldest request leaves.
HIT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
    redis.call('ZADD', KEYS[1], now, ARGV[3])
    redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
    return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
"""


@dataclass(frozen=True)
class Rate:
    """`count` requests per `seconds`."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str | None) -> "Rate | None":
        """`"120/min"`, `"10/15min"`, `"3/hour"`, `"5/d"`; empty or None is no limit."""
        if not text:
            return None
        match = RATE.match(text)
        if match is None or int(match[1]) < 1 or match[2] in ("0", "00"):
            raise ValueError(f"{text!r} is not a rate like 120/min or 10/15min")
        return cls(int(match[1]), int(match[2] or 1) * UNITS[match[3]])


@dataclass(frozen=True)
class Verdict:
    """Whether a request passed and, if not, the seconds until one would."""

    allowed: bool
    wait: float
    key: str
    token: str
    rate: Rate
    using: str

    def take_back(self) -> None:
        """Strike a request that passed off the log (a sign-in whose password was right)."""
        cache = caches[self.using]
        if isinstance(cache, RedisCache):
            cache.client().zrem(self.key, self.token)
            return
        with _locked(self.using):
            log = [entry for entry in cache.get(self.key) or [] if entry[1] != self.token]
            cache.set(self.key, log, math.ceil(self.rate.seconds))


def hit(scope: str, ident: str, rate: Rate, using: str = "default") -> Verdict:
    """Count one request of `ident` (an address, an account…) against `rate` under
    `scope`, if it is within the limit; a refused request is not counted. The ident is
    hashed into the key: addresses and e-mails are not kept in clear."""
    cache = caches[using]
    key = f"limit:{scope}:{hashlib.blake2b(ident.encode(), digest_size=16).hexdigest()}"
    token, window = secrets.token_hex(8), round(rate.seconds * 1_000_000)
    if isinstance(cache, RedisCache):
        key = cache.make_and_validate_key(key)
        client = cache.client()
        wait = client.register_script(HIT)(keys=[key], args=[rate.count, window, token])
    else:
        with _locked(using):
            now = time.time_ns() // 1000
            log = [entry for entry in cache.get(key) or [] if entry[0] > now - window]
            wait = max(1, log[0][0] + window - now) if len(log) >= rate.count else 0
            if not wait:
                cache.set(key, [*log, (now, token)], math.ceil(rate.seconds))
    return Verdict(wait == 0, wait / 1_000_000, key, token, rate, using)


# The embedded mode: the log is a list of (microseconds, token) in the cache, changed under
# a lock that every thread of this process holds in turn, and with the file cache every
# process on this machine too (a web process and a worker share the folder).
_thread_lock = threading.Lock()


@contextmanager
def _locked(using: str) -> Iterator[None]:
    config = settings.CACHES[using]
    with _thread_lock:
        if fcntl is None or not config["BACKEND"].endswith("FileBasedCache"):
            yield
            return
        folder = Path(config["LOCATION"])
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "limits.lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


# The client's address --------------------------------------------------------------------


@lru_cache(maxsize=8)
def _networks(addresses: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(a, strict=False) for a in addresses)


def _trusted(address: str, networks: tuple) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_ip(request) -> str:
    """The caller's address: the connection's, unless it comes through TRUSTED_PROXIES.

    With a number N of proxies, the client is the address N hops from the right of
    X-Forwarded-For (what the last proxy appended is the nearest hop); with the proxies'
    addresses, the right-most address of the chain that is not one of them. What a client
    writes itself at the left of the header is never believed.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = settings.TRUSTED_PROXIES
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [hop for hop in (part.strip() for part in header.split(",")) if hop]
    if not trusted or not forwarded:
        return remote
    if isinstance(trusted, int):
        return forwarded[-min(trusted, len(forwarded))]
    networks = _networks(tuple(trusted))
    chain = [*forwarded, remote]
    while len(chain) > 1 and _trusted(chain[-1], networks):
        chain.pop()
    return chain[-1]
