from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from config.schema import served_schema
from games.api import AdjudicateView, HandAnalysisView

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("schemas/<str:name>.json", served_schema, name="json-schema"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("adjudicate", AdjudicateView.as_view(), name="adjudicate"),
    path("hands/<int:pk>/analysis", HandAnalysisView.as_view(), name="hand_analysis"),
    path("", include("league.api.api_urls")),
]
