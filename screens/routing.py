"""WebSocket routes. Sessions (staff) and cookies (paired devices) come from channels' auth stack;
the origin must be one of ALLOWED_HOSTS."""

from channels.auth import AuthMiddleware, get_user
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.urls import path, re_path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)
from config.threads import on_socket_thread

from .consumers import ClockConsumer, DirectorConsumer, FeatureConsumer, NotFoundConsumer, TableConsumer
from .heartbeat import Heartbeat

websocket_urlpatterns: list = [
    path("ws/tournaments/<id:tournament_id>/clock/", ClockConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/director/", DirectorConsumer.as_asgi()),
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    path("ws/feature/<id:table_id>/", FeatureConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),  # anything else: closed with 4004, never a router error
]


class SocketAuthMiddleware(AuthMiddleware):
    """channels' AuthMiddleware, reading the session's user on the socket thread (config.threads), not
    the server's one thread for synchronous work: after a restart every screen of the room connects at
    once, and their session reads must hold up neither the HTTP requests nor the dealers' inputs."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await on_socket_thread(get_user.func)(scope)


# Outermost: a screen's heartbeat is kept before any of the rest runs (screens.heartbeat).
websocket_application = Heartbeat(
    AllowedHostsOriginValidator(
        CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(URLRouter(websocket_urlpatterns))))
    )
)
