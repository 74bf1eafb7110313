from django.urls import path

from . import views

urlpatterns = [
    path("players/<int:pk>/statistics/", views.player_statistics, name="player_statistics"),
]
