from django.urls import path

from . import consumers

websocket_urlpatterns: list = [
    path("ws/tables/<int:table_id>/", consumers.TableConsumer.as_asgi()),
]
