from django.urls import path

from . import views

urlpatterns = [
    path("", views.dispute_list, name="disputes"),
    path("<int:pk>/", views.dispute_detail, name="dispute"),
    path("<int:pk>/adjudicate/", views.dispute_adjudicate, name="dispute_adjudicate"),
    path("<int:pk>/rule/", views.dispute_rule, name="dispute_rule"),
    path("<int:pk>/analysis/", views.dispute_analysis, name="dispute_analysis"),
    path("<int:pk>/appeal/", views.dispute_appeal, name="dispute_appeal"),
    path("matches/<int:match_pk>/new/", views.dispute_open, name="dispute_open"),
    path("live-hands/<int:hand_pk>/new/", views.live_dispute_open, name="live_dispute_open"),
    path("events/<slug:slug>/settings/", views.referee_settings, name="referee_settings"),
    path("events/<slug:slug>/batches/", views.batch_new, name="batch_new"),
    path("batches/<int:pk>/", views.batch_detail, name="batch"),
    path("batches/<int:pk>/progress/", views.batch_progress, name="batch_progress"),
    path("batches/<int:pk>/lines/<int:line>/dispute/", views.batch_dispute, name="batch_dispute"),
]
