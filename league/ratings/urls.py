from django.urls import path

from . import views

app_name = "ratings"
urlpatterns = [
    path("", views.pools, name="pools"),
    path("<slug:slug>/", views.leaderboard, name="leaderboard"),
]
