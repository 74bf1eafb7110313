"""How API callers are known, what a key may touch, and how fast each may ask."""

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions, permissions, throttling
from rest_framework.authentication import BaseAuthentication

from core import limits
from core.limits import client_ip
from league.models import Event, Organisation
from league.permissions import below, can, managed

from .models import ApiKey
from .services import in_scope, key_for_token

KEY_HEADER = "HTTP_X_API_KEY"
LAST_USED_RESOLUTION = 60  # seconds: `last_used` is written at most once a minute per key


class ApiKeyAuthentication(BaseAuthentication):
    """`Authorization: Bearer cap_…` or `X-Api-Key: cap_…`; the caller is the key's creator."""

    def authenticate(self, request):
        token = request.META.get(KEY_HEADER, "")
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not token and header.lower().startswith("bearer "):
            token = header[7:].strip()
        if not token:
            return None
        key = key_for_token(token)
        if key is None:
            throttle = BadKeyThrottle()
            if not throttle.allow_request(request, None):
                raise exceptions.Throttled(throttle.wait())
            raise exceptions.AuthenticationFailed(_("This API key is not valid or was revoked."))
        now = timezone.now()
        if key.last_used is None or (now - key.last_used).total_seconds() > LAST_USED_RESOLUTION:
            ApiKey.objects.filter(pk=key.pk).update(last_used=now)
        return key.created_by, key

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


class ApiKeySchema(OpenApiAuthenticationExtension):
    target_class = ApiKeyAuthentication
    name = "apiKey"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "cap_<prefix>_<secret>"}


def api_key(request) -> ApiKey | None:
    return request.auth if isinstance(request.auth, ApiKey) else None


class KeyScope(permissions.BasePermission):
    """Anyone reads; writing needs a caller (a session or a key), and a read-write key.

    Which member may do what is the competition services' decision; `check_scope` keeps a
    key within its organisation.
    """

    message = _("This API key is read-only.")
    public_reads = True

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        key = api_key(request)
        return request.user.is_authenticated and (key is None or key.writes)


def may_see(request, event: Event) -> bool:
    """Drafts are seen by their organisers only (by a key, within its organisation)."""
    if event.status != Event.Status.DRAFT:
        return True
    key = api_key(request)
    return can(request.user, "event.manage", event) and (
        key is None or in_scope(key, event.organisation)
    )


def seen_events(request, path: str = "") -> Q:
    """The events the caller may see, as `may_see` decides for one: every event out of
    draft, and the drafts of the organisations the caller manages (with a key, only within
    its organisation). `path` leads from the rows filtered to their event."""
    prefix = f"{path}__" if path else ""
    published = ~Q(**{f"{prefix}status": Event.Status.DRAFT})
    if request is None:
        return published
    organisations = managed(request.user)
    key = api_key(request)
    if key is not None:
        scope = below([key.organisation_id])
        organisations = scope if organisations is None else organisations & scope
    if organisations is None:
        return Q()
    return published | Q(**{f"{prefix}organisation__in": organisations})


def check_scope(request, organisation: Organisation) -> None:
    """Refuse a write by a key outside its organisation (called on every write)."""
    key = api_key(request)
    if key is not None and not in_scope(key, organisation):
        raise exceptions.PermissionDenied(_("This API key belongs to another organisation."))


class AtomicThrottle(throttling.SimpleRateThrottle):
    """DRF's throttle on the atomic counter of core.limits: read, decide and count in one
    step, so parallel requests cannot all read the same count (DRF's own history is read,
    appended and written back, and let several times the limit through). An anonymous
    caller is counted by `client_ip`, not by a forgeable header."""

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.verdict = limits.hit("api", key, limits.Rate(self.num_requests, self.duration))
        return self.verdict.allowed

    def wait(self) -> float:
        return self.verdict.wait

    def get_ident(self, request) -> str:
        return client_ip(request)


class AnonRateThrottle(AtomicThrottle, throttling.AnonRateThrottle):
    """Anonymous callers, per client address (rate `anon`)."""


class AnonymousCallerThrottle(AnonRateThrottle):
    """The `anon` rate (the same counter) for a caller known to be anonymous before
    authentication has run (no key, no session): api.http's cached standings."""

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class BadKeyThrottle(AtomicThrottle):
    """Requests with a key that is not valid, per client address (rate `bad_key`): guessing
    keys meets a 429 long before it could find one."""

    scope = "bad_key"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class KeyRateThrottle(AtomicThrottle):
    """Requests with an API key are counted per key (rate `key`)."""

    scope = "key"

    def get_cache_key(self, request, view):
        key = api_key(request)
        if key is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": key.pk}


class UserRateThrottle(AtomicThrottle, throttling.UserRateThrottle):
    """Signed-in users on the site's pages, per user (rate `user`); keys are counted above,
    and anonymous callers by the `anon` rate only (DRF's class counts them here too)."""

    def get_cache_key(self, request, view):
        if api_key(request) is not None or not request.user.is_authenticated:
            return None
        return super().get_cache_key(request, view)


THROTTLES = [AnonRateThrottle, UserRateThrottle, KeyRateThrottle]
