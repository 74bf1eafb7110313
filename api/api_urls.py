"""The REST API v1 (mounted under /api/v1/): the competition's resources, the engine's
adjudication and hand analysis, and the schema with its documentation pages."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from . import views
from .hands import AdjudicateView, HandAnalysisView
from .schema import served_schema

app_name = "api"

router = SimpleRouter()
router.register("organisations", views.OrganisationViewSet, basename="organisation")
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("events", views.EventViewSet, basename="event")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("entries", views.EntryViewSet, basename="entry")
router.register("matches", views.MatchViewSet, basename="match")
router.register("results", views.ResultViewSet, basename="result")
router.register("table-results", views.TableResultViewSet, basename="table-result")
router.register("ratings", views.RatingPoolViewSet, basename="rating-pool")
router.register("webhooks", views.WebhookViewSet, basename="webhook")

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("schemas/<str:name>.json", served_schema, name="json-schema"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("adjudicate", AdjudicateView.as_view(), name="adjudicate"),
    path("hands/<int:pk>/analysis", HandAnalysisView.as_view(), name="hand_analysis"),
    path("", include(router.urls)),
]
