"""The audit trail: every change to a competition is written down with before and after."""

from typing import Any

from django.db import models
from django.forms.models import model_to_dict

from ..models import AuditEntry, Event


def snapshot(instance: models.Model, fields: list[str] | None = None) -> dict[str, Any]:
    """A JSON-ready copy of a model instance's fields (foreign keys as ids)."""
    data = model_to_dict(instance, fields=fields)
    return {
        key: value if isinstance(value, (int, str, bool, list, dict, type(None))) else str(value)
        for key, value in data.items()
    }


def audit(
    actor,
    action: str,
    target: models.Model,
    *,
    event: Event | None = None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        event=event,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        target=f"{target._meta.model_name}:{target.pk}",
        before=before,
        after=after,
    )
