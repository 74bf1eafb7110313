"""Sending webhook deliveries, retried with exponential backoff."""

import http.client
import socket
import time

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from league.services.errors import ServiceError

from .models import Delivery
from .webhooks import SIGNATURE_HEADER, public_addresses, signature

TIMEOUT = 10


def _connection(url: str) -> tuple[http.client.HTTPConnection, str]:
    """A connection to the webhook's host, pinned to the IP address that was just checked
    (so that a second lookup cannot swap in another), and the path to post to."""
    parts, addresses = public_addresses(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    connection = kind(host, parts.port, timeout=TIMEOUT)
    connection._create_connection = lambda address, *args: socket.create_connection(
        (addresses[0], address[1]), *args
    )
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return connection, path


def _post(delivery: Delivery) -> tuple[int | None, str]:
    """Send once: the answer's status and an error code for the log (Delivery.ERRORS). The
    log keeps nothing of the answer or of the network beyond those."""
    body = delivery.body.encode()
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Capicua-Webhooks/1",
        "X-Capicua-Event": delivery.topic,
        "X-Capicua-Event-Id": str(delivery.event_id),
        "X-Capicua-Delivery": str(delivery.pk),
        SIGNATURE_HEADER: signature(delivery.webhook.secret, body, int(time.time())),
    }
    try:
        connection, path = _connection(delivery.webhook.url)
    except ServiceError as error:
        return None, error.code
    try:
        connection.request("POST", path, body=body, headers=headers)
        code = connection.getresponse().status
    except TimeoutError:
        return None, "timeout"
    except (OSError, http.client.HTTPException, ValueError):
        return None, "no_connection"
    finally:
        connection.close()
    return code, "redirect" if 300 <= code < 400 else ""


@shared_task(name="league.api.tasks.deliver", bind=True, max_retries=None, acks_late=True)
def deliver(self, delivery_id: str) -> str:
    """Send one delivery; a non-2xx answer or no answer is retried after 1, 2, 4… times the
    base delay, up to WEBHOOK_MAX_ATTEMPTS attempts; an address that is refused is not
    retried. A delivered one is never sent again."""
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
        elif error in Delivery.FINAL_ERRORS or delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.status = Delivery.Status.FAILED
        delivery.save()
    if delivery.status == Delivery.Status.PENDING:
        raise self.retry(countdown=settings.WEBHOOK_RETRY_BASE * 2 ** (delivery.attempts - 1))
    return delivery.status
