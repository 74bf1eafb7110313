from django.urls import path

from . import event_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("events/", event_views.event_list, name="events"),
    path("clubs/<slug:slug>/", event_views.club_detail, name="club"),
    path("clubs/<slug:slug>/invite/", event_views.club_invite, name="club_invite"),
    path("clubs/<slug:slug>/seasons/", event_views.club_season, name="club_season"),
    path("clubs/<slug:slug>/events/new/", event_views.event_create, name="event_create"),
    path("invitations/<str:token>/", event_views.invitation, name="invitation"),
    path("events/<slug:slug>/", event_views.event_detail, name="event"),
    path("events/<slug:slug>/standings/", event_views.event_standings, name="standings"),
    path("events/<slug:slug>/scoresheets/", event_views.scoresheets, name="scoresheets"),
    path("events/<slug:slug>/manage/", event_views.event_manage, name="event_manage"),
    path("events/<slug:slug>/edit/", event_views.event_edit, name="event_edit"),
    path("events/<slug:slug>/status/", event_views.event_status, name="event_status"),
    path("events/<slug:slug>/divisions/", event_views.event_division, name="event_division"),
    path("events/<slug:slug>/fixtures/", event_views.generate, name="generate_fixtures"),
    path("events/<slug:slug>/entries/", event_views.entry_register, name="entry_register"),
    path(
        "entries/<int:pk>/<str:action>/",
        event_views.entry_action,
        name="entry_action",
    ),
    path("matches/<int:pk>/", event_views.match_detail, name="match"),
    path("matches/<int:pk>/result/", event_views.result_enter, name="result_enter"),
    path("matches/<int:pk>/correct/", event_views.result_correct, name="result_correct"),
    path("matches/<int:pk>/schedule/", event_views.match_schedule, name="match_schedule"),
    path("results/<int:pk>/<str:decision>/", event_views.result_decide, name="result_decide"),
]
