from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import health
from league import views as league_views
from league.forms import QueuedPasswordResetForm

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", league_views.set_language, name="set_language"),
    path("api/v1/", include("config.api_urls")),
    path(
        "accounts/password_reset/",
        auth_views.PasswordResetView.as_view(form_class=QueuedPasswordResetForm),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("league.api.urls")),
    path("disputes/", include("games.disputes.urls")),
    path("ratings/", include("league.ratings.urls")),
    path("", include("league.tournaments.urls")),
    path("", include("games.stats.urls")),
    path("", include("games.urls")),
    path("", include("league.urls")),
]

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
