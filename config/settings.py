"""Capicúa settings.

One code path, two ways to run. With no environment at all Capicúa runs embedded: SQLite,
the in-memory channel layer and Celery on a file-system transport. ``DATABASE_URL`` and
``REDIS_URL`` switch to PostgreSQL, the Redis channel layer and Celery on Redis, where
``SECRET_KEY`` must be given. ``DEBUG`` (Django's debug pages) is off in every mode unless
asked for with ``DEBUG=1``.
"""

import os
import secrets
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CAPICUA_VAR_DIR", BASE_DIR / "var"))


_TRUE, _FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """A yes/no setting; unset or empty is the default, and anything unknown an error."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value not in _TRUE | _FALSE:
        raise ImproperlyConfigured(
            f"{name}={os.environ[name]!r} is not a yes/no value: use one of 1, true, yes, on, "
            "0, false, no, off."
        )
    return value in _TRUE


def env_int(name: str, default: int) -> int:
    """A whole-number setting; unset or empty is the default, anything else an error."""
    return _env_number(name, default, int)


def env_float(name: str, default: float) -> float:
    """A number setting; unset or empty is the default, anything else an error."""
    return _env_number(name, default, float)


def _env_number(name: str, default: Any, kind: Callable[[str], Any]) -> Any:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
EMBEDDED = not DATABASE_URL and not REDIS_URL

# Django's debug pages only when asked for: a club's laptop running `make run` serves its
# local network, and a stranger there sees the site's own error pages.
DEBUG = env_bool("DEBUG", False)


def _kept_secret_key() -> str:
    """The embedded mode's key: made at its first use, kept in VAR_DIR (no two installs
    share it, and sessions outlive a restart)."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=VAR_DIR, delete=False) as made:
            made.write(secrets.token_urlsafe(50))
        try:  # the first process to link it wins; a racing one reads the winner's
            os.link(made.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(made.name)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not (EMBEDDED or DEBUG):
        raise ImproperlyConfigured("SECRET_KEY must be set when DATABASE_URL or REDIS_URL is.")
    # Read (or made) when first used, not here: importing the settings writes nothing.
    SECRET_KEY = lazy(_kept_secret_key, str)()

# The site's public address, for links in emails sent outside a request.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if EMBEDDED or DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "core.apps.CapicuaConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "league",
    "league.tournaments",
    "league.ratings",
    "games",
    "games.disputes",
    "games.stats",
    "games.fairplay",
    "api",
    "demo",
]

MIDDLEWARE = [
    # Anonymous reads of kept standings and fixtures, answered before anything else (with
    # the headers the others would add).
    "api.http.CachedAnswersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "api.http.ReadCorsMiddleware",
    "api.errors.ApiErrorMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if DATABASE_URL:
    # The ASGI server runs each request's ORM work in a thread of its own, so persistent
    # per-thread connections would pile up: each process keeps a pool instead (PostgreSQL),
    # which the live tables need (a connection per action costs more than the action).
    # DATABASE_POOL_MAX=0 connects per request (DATABASE_CONN_MAX_AGE applies then).
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0)
        )
    }
    _pool_max = env_int("DATABASE_POOL_MAX", 10)
    if _pool_max and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # pooled connections go back on close
        DATABASES["default"]["OPTIONS"] = {
            "pool": {
                "min_size": min(_pool_max, env_int("DATABASE_POOL_MIN", 2)),
                "max_size": _pool_max,
                "timeout": env_int("DATABASE_POOL_TIMEOUT", 20),
            },
        }
        # A pooled connection lives on, so the statements it runs often (a live table's
        # lock, insert and update on every action) are worth preparing: the server parses
        # and plans them once per connection. 0 turns it off (a pooler in front that
        # cannot keep prepared statements).
        if _prepare := env_int("DATABASE_PREPARE_THRESHOLD", 5):
            DATABASES["default"]["OPTIONS"] |= {
                "server_side_binding": True,
                "prepare_threshold": _prepare,
            }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(VAR_DIR / "capicua.sqlite3")),
            # A file, so that a worker or a second server process sees the test data too.
            "TEST": {"NAME": str(VAR_DIR / "test.sqlite3")},
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "home"

# Languages: Spanish and Portuguese first.
LANGUAGE_CODE = "es"
LANGUAGES = [("es", _("Spanish")), ("pt-br", _("Portuguese (Brazil)")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "America/Santo_Domingo")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = VAR_DIR / "media"
WHITENOISE_MANIFEST_STRICT = False
# The embedded mode serves the static files from where they are (no collectstatic), with
# DEBUG off as well; a deployment serves what collectstatic gathered.
WHITENOISE_USE_FINDERS = EMBEDDED or DEBUG
# The embedded mode serves uploads (players' photos) itself (config/urls.py).
SERVE_MEDIA = EMBEDDED or DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if EMBEDDED or DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Channels and the cache: Redis when given, otherwise in-process. The prefixes (and the
# broker's, below) let installations share one Redis database.
CACHE_PREFIX = os.environ.get("CACHE_PREFIX", "capicua")
if REDIS_URL:
    _redis_database = urlsplit(REDIS_URL).path.strip("/") or "0"
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "core.layers.PipelinedPubSubChannelLayer",
            "CONFIG": {
                # Every socket's group_add and receive draws on this pool: the default
                # ran out past ~200 sockets per process. Receiving blocks in BZPOPMIN for
                # up to 5 s, exactly redis-py 8's default socket timeout, so under load
                # a read timed out and took the socket down with it: wait longer.
                "hosts": [{"address": REDIS_URL, "max_connections": 4000, "socket_timeout": 30}],
                # Redis's pub/sub is one namespace for every database of a server: the
                # default names the database, so that an installation (or a test worker)
                # on another database never hears this one's groups.
                "prefix": os.environ.get("CHANNELS_PREFIX", f"asgi{_redis_database}"),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "core.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_PREFIX,
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": VAR_DIR / "cache",
        }
    }

# The folders the embedded mode writes to, created at start-up (core/apps.py), not here:
# importing the settings changes nothing on disk.
CAPICUA_DIRS = [VAR_DIR] if not DATABASE_URL else []
if not REDIS_URL:
    CAPICUA_DIRS += [VAR_DIR / "celery" / n for n in ("queue", "results", "processed", "control")]
if WHITENOISE_USE_FINDERS:
    CAPICUA_DIRS.append(STATIC_ROOT)  # whitenoise looks there too

# Celery: Redis in production; in the embedded mode a file-system broker that a worker
# process on the same machine reads without any server.
CELERY_BROKER_URL = REDIS_URL or "filesystem://"
CELERY_RESULT_BACKEND = REDIS_URL or f"file://{VAR_DIR / 'celery' / 'results'}"
# Every broker and result key (the queues, kombu's bindings, the unacknowledged tasks, the
# results, the workers' control channels) starts with the installation's prefix: another
# installation's worker on the same Redis database never sees its tasks.
_broker_prefix = os.environ.get("CELERY_PREFIX", CACHE_PREFIX)
if REDIS_URL and _broker_prefix:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": f"{_broker_prefix}:"}
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"global_keyprefix": f"{_broker_prefix}:"}
if not REDIS_URL:
    _queue = VAR_DIR / "celery" / "queue"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue),
        "data_folder_out": str(_queue),
        "processed_folder": str(VAR_DIR / "celery" / "processed"),
        "control_folder": str(VAR_DIR / "celery" / "control"),
        "store_processed": False,
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Two queues: what players wait for (a turn's countdown, the sweep of the turn timers, the
# tables of due fixtures, the steps of the events that run themselves) has a queue and a
# worker of its own, `live`, so that it never waits behind the slow work of the default
# queue (each hand's statistics and fair-play check, ratings, emails, webhooks). A worker
# started without -Q reads both; the Procfile runs one of each (`worker`, `live`).
LIVE_QUEUE = "live"
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(LIVE_QUEUE)]
CELERY_TASK_ROUTES = {
    name: {"queue": LIVE_QUEUE}
    for name in (
        "games.tasks.time_out_table",
        "games.tasks.sweep_tables",
        "games.tasks.open_due_fixtures",
        "games.tasks.run_autopilots",
        "games.tasks.autopilot_tick",
    )
}
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-live-tables": {"task": "games.tasks.sweep_tables", "schedule": 2.0},
    "open-due-fixtures": {"task": "games.tasks.open_due_fixtures", "schedule": 2.0},
    "run-autopilots": {"task": "games.tasks.run_autopilots", "schedule": 1.0},
}
# A web process sweeps the turn timers: in the embedded mode always, otherwise while no worker
# has for 5 s (games.services.timers). Off, no web process ever sweeps.
WEB_SWEEPER = env_bool("WEB_SWEEPER", True)

# Email: the console in the embedded mode.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if EMBEDDED and not os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(VAR_DIR / "mail"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Capicúa <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The proxies in front of the server, whose X-Forwarded-For is believed: how many there are
# (the client is the address that many hops from the right), or their addresses and
# networks (comma-separated). None by default: the connection's address is the client, and
# X-Forwarded-Proto is ignored.
_proxies = os.environ.get("TRUSTED_PROXIES", "").strip()
TRUSTED_PROXIES: int | list[str] = (
    int(_proxies) if _proxies.isdigit() else env_list("TRUSTED_PROXIES")
)

# Security: everything secure by default in a deployment (not embedded, DEBUG off);
# HTTPS-only switches from the environment, since a deployment behind plain HTTP on a LAN
# is common in clubs.
SECURE_SSL = env_bool("SECURE_SSL", not (EMBEDDED or DEBUG))
SESSION_COOKIE_SECURE = SECURE_SSL
CSRF_COOKIE_SECURE = SECURE_SSL
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE_SSL)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if SECURE_SSL else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_SSL)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", SECURE_SSL)
# X-Forwarded-Proto says a request came over HTTPS only when a proxy is trusted to have
# set it: without TRUSTED_PROXIES, a client talking plain HTTP could claim HTTPS.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXIES else None
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON only, bounded in size and depth (core.parsers.JSONParser).
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # `?format=` is the events' filter by competition format, not a choice of renderer.
    "URL_FORMAT_OVERRIDE": None,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # An empty rate turns that limit off (the API benchmark's server does).
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_RATE_ANON", "120/min") or None,
        "user": os.environ.get("API_RATE_USER", "600/min") or None,
        "key": os.environ.get("API_RATE_KEY", "1200/min") or None,
        # Requests with a key that is not valid, per client address.
        "bad_key": os.environ.get("API_RATE_BAD_KEY", "20/min") or None,
    },
}
# The largest request body read (uploads included), in bytes; under /api/ Django's
# DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB). Counted as the body arrives, chunked or not
# (core/asgi.py).
REQUEST_BODY_MAX_SIZE = env_int("REQUEST_BODY_MAX_SIZE", 10 * 1024 * 1024)

# Sign-in, sign-up and password reset limits (league/accounts.py), each `count/period` and
# ACCOUNT_RATE_<NAME> in the environment (empty turns one off). A sign-in is counted when
# its password is wrong: per client address, per account from browsers that never signed in
# to it, and per browser that did (its device cookie), so that a stranger's guesses never
# hold the owner's own browser back.
ACCOUNT_RATES = {
    name: os.environ.get(f"ACCOUNT_RATE_{name.upper()}", default) or None
    for name, default in {
        "sign_in_address": "30/15min",
        "sign_in_account": "10/15min",
        "sign_in_device": "10/15min",
        "sign_up_address": "30/h",
        "sign_up_email": "5/h",
        "reset_address": "10/h",
        "reset_email": "3/h",
    }.items()
}
# Webhooks may be delivered to loopback, private and other non-public addresses only when
# this is on (a test receiver, a LAN without a public site); off, such addresses are refused
# when a webhook is added and again at every delivery.
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)
# Webhooks: attempts per delivery, and the first retry's delay (seconds; doubling after).
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 6)
# Search steps a round's pairing may take inside a request (about a second) before the
# Celery worker computes it instead, with its progress on the organiser's page.
PAIRING_REQUEST_STEPS = env_int("PAIRING_REQUEST_STEPS", 40_000)
# How much faster than real time an arena's clock runs (its window, not the matches): 1 in
# production; tests and benchmarks speed short arenas up.
ARENA_CLOCK_FACTOR = env_float("ARENA_CLOCK_FACTOR", 1.0)
WEBHOOK_RETRY_BASE = env_float("WEBHOOK_RETRY_BASE", 30.0)
# Live scores as Server-Sent Events: how often a stream reads the scores, how long it stays
# open before the client reconnects, and the reconnection delay it asks for.
LIVE_STREAM_POLL = env_float("LIVE_STREAM_POLL", 2.0)
LIVE_STREAM_SECONDS = env_float("LIVE_STREAM_SECONDS", 300.0)
LIVE_STREAM_RETRY_MS = 3000
SPECTACULAR_SETTINGS = {
    "TITLE": "Capicúa API",
    "DESCRIPTION": "Leagues, tournaments, results, standings and ratings of partnership dominoes.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies have components of their own: what is read-only is left out of them,
    # and text that may not be blank has `minLength`.
    "COMPONENT_SPLIT_REQUEST": True,
    "OAS_VERSION": "3.1.0",
    # Swagger UI and ReDoc from this installation's static files, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.postprocess",
    ],
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "league.models.Event.Status",
        "EntryStatusEnum": "league.models.Entry.Status",
        "MatchStatusEnum": "league.models.Match.Status",
        "ResultStatusEnum": "league.models.Result.Status",
        "TableResultStatusEnum": "league.tournaments.models.TableResult.Status",
        "WebhookTopicEnum": "api.models.Webhook.Topic",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
