from django.urls import path

from . import pages

urlpatterns = [
    path("clubs/<slug:slug>/integrations/", pages.integrations, name="integrations"),
    path(
        "clubs/<slug:slug>/integrations/keys/<int:pk>/revoke/",
        pages.key_revoke,
        name="api_key_revoke",
    ),
    path(
        "clubs/<slug:slug>/integrations/webhooks/<int:pk>/delete/",
        pages.webhook_delete,
        name="webhook_delete",
    ),
    path("widget/events/<slug:slug>/standings/", pages.widget_standings, name="widget_standings"),
    path("widget/events/<slug:slug>/fixtures/", pages.widget_fixtures, name="widget_fixtures"),
    path("widget/events/<slug:slug>/bracket/", pages.widget_bracket, name="widget_bracket"),
]
