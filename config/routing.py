"""WebSocket routes. The live screens add their consumers here."""

from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

websocket_urlpatterns: list = []

websocket_application = AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns))
