"""The REST API v1 routes of the competition (mounted under /api/v1/)."""

from rest_framework.routers import SimpleRouter

from . import views

router = SimpleRouter()
router.register("organisations", views.OrganisationViewSet, basename="organisation")
router.register("clubs", views.ClubViewSet, basename="club")
router.register("players", views.PlayerViewSet, basename="player")
router.register("events", views.EventViewSet, basename="event")
router.register("rounds", views.RoundViewSet, basename="round")
router.register("entries", views.EntryViewSet, basename="entry")
router.register("matches", views.MatchViewSet, basename="match")
router.register("results", views.ResultViewSet, basename="result")
router.register("ratings", views.RatingPoolViewSet, basename="rating-pool")
router.register("webhooks", views.WebhookViewSet, basename="webhook")

urlpatterns = router.urls
