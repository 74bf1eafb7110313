from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .notifications import user_group


class NotificationConsumer(AsyncJsonWebsocketConsumer):
    """A signed-in user's notifications, pushed as they are created."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        await self.send_json({"type": "error", "code": "read_only"})

    async def notification_created(self, event: dict) -> None:
        await self.send_json(
            {key: event[key] for key in ("type", "id", "message", "url")} | {"type": "notification"}
        )

    async def session_ended(self, event: dict) -> None:
        await self.close(code=4401)
