from django.urls import path

from . import views

urlpatterns = [
    path("events/<slug:slug>/tournament/", views.tournament, name="tournament"),
    path("events/<slug:slug>/tournament/run/", views.run, name="tournament_run"),
    path(
        "events/<slug:slug>/tournament/run/progress/",
        views.job_progress,
        name="tournament_job_progress",
    ),
    path("events/<slug:slug>/tournament/<str:action>/", views.act, name="tournament_act"),
    path(
        "events/<slug:slug>/tournament/rounds/<int:number>/print/",
        views.print_round,
        name="tournament_print",
    ),
    path("tournament/matches/<int:pk>/result/", views.match_result, name="tournament_result"),
    path("tournament/matches/<int:pk>/correct/", views.correct, name="tournament_correct"),
    path("tournament/results/<int:pk>/confirm/", views.result_confirm, name="tournament_confirm"),
    path(
        "tournament/rounds/<int:pk>/tables/<int:table>/",
        views.table_result,
        name="tournament_table_result",
    ),
    path(
        "tournament/table-results/<int:pk>/confirm/",
        views.table_confirm,
        name="tournament_table_confirm",
    ),
]
