"""ASGI entry point: Django for HTTP, the Channels router for WebSockets."""

import gc
import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns as games_ws  # noqa: E402
from league.routing import websocket_urlpatterns as league_ws  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(league_ws + games_ws))
        ),
    }
)

# A web process holds hundreds of sockets' state, and a full collection pauses its event
# loop: moving what start-up made (Django, every module) out of the collector's way cut
# those pauses from 120-170 ms to 40-100 ms under benchmarks/live.py's 200 tables.
gc.collect()
gc.freeze()
# A full collection still walks every socket's state, each pausing the loop: under 200
# tables each process ran about six a minute, of 60-200 ms, each collecting a few hundred
# cycles. One for every 100 collections of the middle generation instead of every 10: in
# three runs of benchmarks/live.py at 200 tables none ran while the tables played (two at
# start-up, 9-14 ms) where the default ran twelve a run (785-999 ms in all).
gc.set_threshold(700, 10, 100)

# The event loop shares the GIL with the threads that run the table services. Each time the
# loop waits on a socket it lets the GIL go, and by default it may then wait 5 ms for a busy
# thread to hand it back, on every message. At 1 ms, benchmarks/live.py's p99 over 60 s at
# 200 tables (through the wave of hand ends) was 85-115 ms in four runs; at 5 ms, 186-189.
sys.setswitchinterval(0.001)
