"""WebSocket routes. Sessions (staff) and cookies (paired devices) come from AuthMiddlewareStack;
the origin must be one of ALLOWED_HOSTS."""

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from .consumers import ClockConsumer, DirectorConsumer, TableConsumer

websocket_urlpatterns: list = [
    path("ws/tournaments/<int:tournament_id>/clock/", ClockConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/director/", DirectorConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]

websocket_application = AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
