from django.urls import path

from . import views

app_name = "ratings"
urlpatterns = [
    path("", views.pools, name="pools"),
    path("events/<slug:slug>/", views.event_pool, name="event_pool"),
    path("<slug:slug>/", views.leaderboard, name="leaderboard"),
]
