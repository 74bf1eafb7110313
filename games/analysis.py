"""The analysis of a finished hand on the pages: its JSON answer and its script's strings."""

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from .services import reviews


def analysis_strings() -> dict[str, str]:
    """The analysis script's strings, translated."""
    return {
        "waiting": _("In the queue…"),
        "progress": _("Analysed %(done)s of %(total)s decisions…"),
        "retrying": _("Connection lost; retrying…"),
        "failed": _("The analysis failed. Reload the page to try again."),
        "move": _("Move %(n)s · %(player)s · %(action)s"),
        "cost": _("%(best)s was worth %(cost)s points more"),
        "best": _("the best move"),
        "exact": _("exact: every one of the %(deals)s possible deals solved"),
        "sampled": _("sampled: %(deals)s possible deals solved, ± %(error)s points"),
        "estimated": _("estimated by playouts"),
    }


def analysis_answer(request: HttpRequest, record: dict) -> JsonResponse:
    """A record's review as JSON: started by a POST, looked up by a GET."""
    names = reviews.seat_names(record)
    if request.method == "POST":
        try:
            review = reviews.request_review(record)
        except reviews.ReviewError as error:
            return JsonResponse(
                {"error": {"code": error.code, "message": error.message}}, status=400
            )
    else:
        review = reviews.find_review(record)
        if review is None:
            return JsonResponse({"status": "none"})
    return JsonResponse(reviews.payload(review, names))
