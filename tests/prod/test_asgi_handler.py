"""The ASGI entry point runs a request's middleware chain and view in the request's one thread: never
through the event loop that serves every socket of the server in between (config.asgi_handler)."""

import threading

import pytest
from channels.testing import HttpCommunicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_request_runs_its_middleware_and_view_in_one_thread_and_is_answered(monkeypatch):
    from config import asgi
    from config.overload import OverloadMiddleware

    threads = []
    original = OverloadMiddleware.__call__

    def recorded(self, request):
        threads.append(("middleware", threading.get_ident()))
        response = original(self, request)
        threads.append(("after the view", threading.get_ident()))
        return response

    monkeypatch.setattr(OverloadMiddleware, "__call__", recorded)
    handler = asgi.django_asgi_app
    handler.load_middleware()  # with the patched middleware
    try:
        response = await HttpCommunicator(
            asgi.application, "GET", "/no-such-page/", headers=[(b"host", b"localhost")]
        ).get_response(timeout=10)
    finally:
        monkeypatch.undo()
        handler.load_middleware()
    assert response["status"] == 404  # Django's own answer, through the whole chain
    assert [kind for kind, _ in threads] == ["middleware", "after the view"]
    assert threads[0][1] == threads[1][1] != threading.get_ident()  # a worker thread, not the loop's
    assert not asyncio_coroutine(handler._middleware_chain)


def asyncio_coroutine(func) -> bool:
    import inspect

    return inspect.iscoroutinefunction(func) or getattr(func, "_is_coroutine", None) is not None
