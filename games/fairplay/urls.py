from django.urls import path

from . import views

urlpatterns = [
    path("", views.queue, name="fairplay_queue"),
    path("<int:pk>/", views.case_detail, name="fairplay_case"),
    path("<int:pk>/decide/", views.decide, name="fairplay_decide"),
]
