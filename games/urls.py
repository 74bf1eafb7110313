from django.urls import path

from . import autopilot_views, views

urlpatterns = [
    path("play/", views.lobby, name="play"),
    path("play/tables/new/", views.new_table, name="new_table"),
    path("play/bots/", views.play_bots, name="play_bots"),
    path("play/t/<str:code>/", views.table, name="table"),
    path("play/t/<str:code>/hands/<int:number>/", views.hand, name="hand"),
    path(
        "play/t/<str:code>/hands/<int:number>/analysis/",
        views.hand_analysis,
        name="hand_analysis",
    ),
    path("play/t/<str:code>/again/", views.play_again, name="play_again"),
    path("events/<slug:slug>/live/", views.event_live, name="event_live"),
    path(
        "events/<slug:slug>/autopilot/",
        autopilot_views.autopilot_settings,
        name="autopilot_settings",
    ),
    path(
        "events/<slug:slug>/autopilot/<str:control>/",
        autopilot_views.autopilot_control,
        name="autopilot_control",
    ),
    path("play/queue/", views.queue, name="queue"),
    path("play/queue/join/", views.join_queue, name="join_queue"),
    path("play/queue/status/", views.queue_status, name="queue_status"),
    path("play/queue/counts/", views.queue_counts, name="queue_counts"),
    path("play/queue/leave/", views.leave_queue, name="leave_queue"),
]
