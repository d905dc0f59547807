"""ASGI entry point (daphne): HTTP through Django, WebSockets through Channels."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from config import gc_pauses, threads  # noqa: E402
from config.asgi_handler import SyncChainASGIHandler  # noqa: E402

gc_pauses.watch()
# The event loop gets the interpreter lock back from the socket threads sooner (config.threads).
threads.set_switch_interval()

django_asgi_app = SyncChainASGIHandler()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from config.limits import BodyLimit  # noqa: E402
from screens.routing import websocket_application  # noqa: E402

# An HTTP body over REQUEST_MAX_BODY_BYTES is refused (413) before Django reads it.
application = ProtocolTypeRouter({"http": BodyLimit(django_asgi_app), "websocket": websocket_application})
# Everything imported is kept for the life of the server: out of the collector's sight from now on,
# and what the server holds as it runs, every FREEZE_EVERY seconds (config.gc_pauses).
gc_pauses.settle()
gc_pauses.keep_settling()
