"""ASGI entry point (daphne): HTTP through Django, WebSockets through Channels."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from config.asgi_handler import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from config.limits import BodyLimit  # noqa: E402
from screens.routing import websocket_application  # noqa: E402

# An HTTP body over REQUEST_MAX_BODY_BYTES is refused (413) before Django reads it.
application = ProtocolTypeRouter({"http": BodyLimit(django_asgi_app), "websocket": websocket_application})
