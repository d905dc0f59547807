"""WebSocket routes. Sessions (staff) and cookies (paired devices) come from AuthMiddlewareStack;
the origin must be one of ALLOWED_HOSTS."""

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path, re_path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)

from .consumers import ClockConsumer, DirectorConsumer, FeatureConsumer, NotFoundConsumer, TableConsumer

websocket_urlpatterns: list = [
    path("ws/tournaments/<id:tournament_id>/clock/", ClockConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/director/", DirectorConsumer.as_asgi()),
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    path("ws/feature/<id:table_id>/", FeatureConsumer.as_asgi()),
    re_path(r"", NotFoundConsumer.as_asgi()),  # anything else: closed with 4004, never a router error
]

websocket_application = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
