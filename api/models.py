"""API keys, webhook endpoints and the log of their deliveries, each owned by an organisation."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from league.models import Organisation
from league.models.touched import updated_field


class ApiKey(models.Model):
    """A key scoped to one organisation; only its SHA-256 is stored, the token is shown once.

    A key acts for the owner who created it, and never beyond its organisation and access.
    """

    class Access(models.TextChoices):
        READ = "read", _("Read only")
        WRITE = "write", _("Read and write")

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="api_keys"
    )
    name = models.CharField(_("name"), max_length=80)
    access = models.CharField(_("access"), max_length=8, choices=Access.choices)
    prefix = models.CharField(max_length=16, unique=True, editable=False)
    digest = models.CharField(max_length=64, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys"
    )
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("API key")
        verbose_name_plural = _("API keys")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def writes(self) -> bool:
        return self.access == self.Access.WRITE


class Webhook(models.Model):
    """An address on a club's site that is told, signed, when its competitions change."""

    class Topic(models.TextChoices):
        ROUND_PUBLISHED = "round.published", _("Round published")
        RESULT_CONFIRMED = "result.confirmed", _("Result confirmed")
        STANDINGS_CHANGED = "standings.changed", _("Standings changed")
        EVENT_FINISHED = "event.finished", _("Event finished")
        RESULT_PROPOSED = "result.proposed", _("Result proposed")
        RESULT_DISPUTED = "result.disputed", _("Result disputed")
        MATCH_SCHEDULED = "match.scheduled", _("Match scheduled")
        ENTRY_CHANGED = "entry.changed", _("Entry changed")
        EVENT_STATUS_CHANGED = "event.status_changed", _("Event status changed")
        ROUND_STARTED = "round.started", _("Round started (an online event's tables open)")
        TABLE_OPENED = "table.opened", _("Table opened (an online event's)")
        PING = "ping", _("Ping (sent on request)")

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(_("address"), max_length=300)
    topics = models.JSONField(_("topics"), default=list)
    secret = models.CharField(max_length=64, editable=False)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = updated_field()

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event sent to one webhook, with its attempts. `event_id` is the idempotency key."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    # What the log says of a failed attempt: these codes only, nothing of the answer's body
    # or of the network (an error's text would name hosts and ports).
    ERRORS = {
        "bad_url": _("Not an http(s) address"),
        "unknown_host": _("Host name not known"),
        "private_url": _("Refused: not a public address"),
        "timeout": _("No answer in time"),
        "no_connection": _("Could not connect"),
        "redirect": _("Redirect not followed"),
    }
    FINAL_ERRORS = ("bad_url", "private_url")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(_("event id"))
    topic = models.CharField(_("topic"), max_length=32, choices=Webhook.Topic.choices)
    body = models.TextField()
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    response_status = models.PositiveSmallIntegerField(_("response"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_attempt = models.DateTimeField(_("last attempt"), null=True, blank=True)
    updated = updated_field()

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["webhook", "event_id"], name="one_delivery_per_event")
        ]
        indexes = [models.Index(fields=["webhook", "created"])]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")

    def __str__(self) -> str:
        return f"{self.topic} → {self.webhook}"

    @property
    def error_message(self) -> str:
        return str(self.ERRORS.get(self.error, ""))
