from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from core import health
from league import views as league_views

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", league_views.set_language, name="set_language"),
    # The scripts' strings (the djangojs catalogues): gettext, ngettext and interpolate.
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
    path("api/v1/", include("api.api_urls")),
    path("accounts/login/", league_views.SignInView.as_view(), name="login"),
    path(
        "accounts/password_reset/", league_views.PasswordResetView.as_view(), name="password_reset"
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("api.urls")),
    path("disputes/", include("games.disputes.urls")),
    path("fairplay/", include("games.fairplay.urls")),
    path("ratings/", include("league.ratings.urls")),
    path("", include("league.tournaments.urls")),
    path("", include("games.stats.urls")),
    path("", include("games.urls")),
    path("", include("league.urls")),
]

if settings.SERVE_MEDIA:  # uploads, in the embedded mode (DEBUG or not)
    from django.urls import re_path
    from django.views.static import serve

    urlpatterns.append(
        re_path(
            rf"^{settings.MEDIA_URL.strip('/')}/(?P<path>.*)$",
            serve,
            {"document_root": settings.MEDIA_ROOT},
        )
    )

# The site's own error pages, whatever DEBUG says (the debug pages replace them when on).
handler400 = "config.errors.bad_request"
handler500 = "config.errors.server_error"
