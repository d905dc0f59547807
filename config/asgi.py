"""ASGI entry point (daphne): HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from config.limits import BodyLimit  # noqa: E402
from screens.routing import websocket_application  # noqa: E402

# An HTTP body over REQUEST_MAX_BODY_BYTES is refused (413) before Django reads it.
application = ProtocolTypeRouter({"http": BodyLimit(django_asgi_app), "websocket": websocket_application})
