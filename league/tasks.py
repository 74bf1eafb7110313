from celery import shared_task
from django.core.mail import EmailMultiAlternatives

from .models import Round
from .services.announcements import round_published_mails


@shared_task(
    name="league.tasks.send_email", autoretry_for=(OSError,), retry_backoff=True, max_retries=5
)
def send_email(subject: str, body: str, to: list[str], html: str | None = None) -> int:
    message = EmailMultiAlternatives(subject, body, to=to)
    if html:
        message.attach_alternative(html, "text/html")
    return message.send()


@shared_task(name="league.tasks.announce_round")
def announce_round(round_id: int) -> int:
    """Email every player of a just-published round (one email task each); how many."""
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    mails = round_published_mails(round_) if round_ is not None else []
    for mail in mails:
        send_email.delay(*mail)
    return len(mails)
