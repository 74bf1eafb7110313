"""Sending webhook deliveries, retried with exponential backoff."""

import time
import urllib.error
import urllib.request

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .models import Delivery
from .webhooks import SIGNATURE_HEADER, signature

TIMEOUT = 10


def _post(delivery: Delivery) -> tuple[int | None, str]:
    body = delivery.body.encode()
    request = urllib.request.Request(
        delivery.webhook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Capicua-Webhooks/1",
            "X-Capicua-Event": delivery.topic,
            "X-Capicua-Event-Id": str(delivery.event_id),
            "X-Capicua-Delivery": str(delivery.pk),
            SIGNATURE_HEADER: signature(delivery.webhook.secret, body, int(time.time())),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, ""
    except urllib.error.HTTPError as error:
        return error.code, f"HTTP {error.code}"
    except (OSError, ValueError) as error:
        return None, str(error)[:300]


@shared_task(bind=True, max_retries=None, acks_late=True)
def deliver(self, delivery_id: str) -> str:
    """Send one delivery; a non-2xx answer or no answer is retried after 1, 2, 4… times the
    base delay, up to WEBHOOK_MAX_ATTEMPTS attempts. A delivered one is never sent again."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("webhook")
            .filter(pk=delivery_id, status=Delivery.Status.PENDING)
            .first()
        )
        if delivery is None:
            return "skipped"
        code, error = _post(delivery)
        delivery.attempts += 1
        delivery.last_attempt = timezone.now()
        delivery.response_status = code
        delivery.error = error
        if code is not None and 200 <= code < 300:
            delivery.status = Delivery.Status.DELIVERED
        elif delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.status = Delivery.Status.FAILED
        delivery.save()
    if delivery.status == Delivery.Status.PENDING:
        raise self.retry(countdown=settings.WEBHOOK_RETRY_BASE * 2 ** (delivery.attempts - 1))
    return delivery.status
