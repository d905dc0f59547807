"""Django's ASGI handler, with the middleware chain and the view run in one go in the request's thread
(a leaf: it imports no app).

Under ASGI Django builds its middleware chain in async mode and adapts each sync-only middleware: our
middlewares are sync-only, so every request went from its thread to the event loop (Django's async
innermost handler) and back to its thread (the sync view), twice through the loop that also serves
every socket of this server. Run whole, the chain stays in the request's one thread: the loop only
reads the request and writes the response.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        # Thread-sensitive inside the handler's ThreadSensitiveContext: this request's own thread.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
