from celery import shared_task
from django.core.mail import EmailMultiAlternatives


@shared_task(autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_email(subject: str, body: str, to: list[str], html: str | None = None) -> int:
    message = EmailMultiAlternatives(subject, body, to=to)
    if html:
        message.attach_alternative(html, "text/html")
    return message.send()
