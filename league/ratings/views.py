from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.models import Event
from league.permissions import require
from league.services.errors import ServiceError

from . import services
from .forms import EventPoolForm, LeaderboardFilter
from .models import Rating, RatingPool, provisional_below

PER_PAGE = 50


def pools(request: HttpRequest) -> HttpResponse:
    players = dict(Rating.objects.values_list("pool").annotate(players=Count("pk")).order_by())
    found = [
        (pool, players.get(pool.pk, 0))
        for pool in RatingPool.objects.select_related("organisation")
    ]
    return render(request, "ratings/pools.html", {"pools": found})


def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    pool = get_object_or_404(RatingPool, slug=slug)
    form = LeaderboardFilter(request.GET or None, pool)
    filters = form.cleaned_data if form.is_valid() else {}
    ratings = services.leaderboard(
        pool, club=filters.get("club"), country=filters.get("country", "")
    )
    page = Paginator(ratings, PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "pool": pool,
            "form": form,
            "page": page,
            "rows": list(enumerate(page.object_list, start=page.start_index())),
            "provisional_below": provisional_below(),
            "recalculating": services.pending(pool.pk),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def event_pool(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser chooses the ranking the event feeds."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    require(request.user, "event.manage", event)
    current = services.pool_of(event)
    choices = services.pool_choices(request.user, event)
    form = EventPoolForm(request.POST or None, choices, services.pool_key(current))
    if request.method == "POST" and form.is_valid():
        try:
            pool = services.choose_pool(request.user, event, form.cleaned_data["pool"])
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            if pool is None:
                messages.success(request, _("The event feeds no ranking."))
            else:
                messages.success(request, _("The event feeds %(pool)s.") % {"pool": pool})
            return redirect("event_manage", slug=event.slug)
    return render(
        request, "ratings/event_pool.html", {"event": event, "form": form, "current": current}
    )
