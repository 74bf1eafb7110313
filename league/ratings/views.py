from django.core.paginator import Paginator
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from . import services
from .forms import LeaderboardFilter
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
