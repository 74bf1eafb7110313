"""Sending webhook deliveries, retried with exponential backoff."""

import time

import urllib3
from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from league.services.errors import ServiceError

from .models import Delivery
from .webhooks import SIGNATURE_HEADER, public_addresses, signature

TIMEOUT = 10


def _pool(url: str) -> tuple[urllib3.HTTPConnectionPool, str, str]:
    """A connection pool to the IP address the webhook's host was just checked to resolve
    to (so that a second lookup cannot swap in another), the Host header and the path. For
    HTTPS, the certificate is still checked against the host name (urllib3's public
    `server_hostname` and `assert_hostname`)."""
    parts, addresses = public_addresses(url)
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    hostname = parts.hostname or ""  # public_addresses refused an address without a host
    host = f"[{hostname}]" if ":" in hostname else hostname
    timeout = urllib3.Timeout(TIMEOUT)
    pool: urllib3.HTTPConnectionPool
    if https:
        pool = urllib3.HTTPSConnectionPool(
            addresses[0],
            port,
            server_hostname=hostname,
            assert_hostname=hostname,
            timeout=timeout,
            retries=False,
            maxsize=1,
        )
    else:
        pool = urllib3.HTTPConnectionPool(
            addresses[0], port, timeout=timeout, retries=False, maxsize=1
        )
    default = port == (443 if https else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return pool, host if default else f"{host}:{port}", path


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
        pool, host, path = _pool(delivery.webhook.url)
    except ServiceError as error:
        return None, error.code
    try:
        response = pool.urlopen(  # the answer's body is never read
            "POST",
            path,
            body=body,
            headers={"Host": host, **headers},
            redirect=False,
            preload_content=False,
        )
        code = response.status
    except urllib3.exceptions.NewConnectionError:  # a subclass of the timeouts, for history
        return None, "no_connection"
    except urllib3.exceptions.TimeoutError:
        return None, "timeout"
    except (urllib3.exceptions.HTTPError, OSError, ValueError):
        return None, "no_connection"
    finally:
        pool.close()
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
