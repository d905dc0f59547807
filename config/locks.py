"""Lock waits bounded while a transaction holds a tournament's row (a leaf: it imports no app).

The lock order of the field is the tournament, then its tables, then their seats and entries. A
dealer's input cannot keep it: it holds its table (and its players' entries) from the start, and only
the hand's end learns that it busts somebody and needs the tournament. A balance holding the
tournament and waiting for that table then deadlocked with it; PostgreSQL broke the cycle after its
``deadlock_timeout`` (1 s) by failing either one, often the dealer's input.

So whoever holds the tournament waits at most ``WAIT_MS`` for any other lock: in such a cycle it is
the one that gives up, well before the deadlock check, and the dealer's input goes through. What gave
up can always be done again: the balance task is queued again, and a director's action (in the
console or through the API) is run again here (``run_giving_way``, by ``GiveWayMiddleware``): the
click or the request goes through a moment later. Only when it gives way every time does it answer
503 with Retry-After, having changed nothing (``config.overload``).
"""

import random
import time
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, connection, transaction
from rest_framework.permissions import SAFE_METHODS

from config.overload import overloaded

WAIT_MS = 300

# A director's action that gave way runs again at most this often, after a short pause (the dealer's
# hand end it gave way to commits within milliseconds of getting the tournament).
ATTEMPTS = 3
PAUSE_S = (0.05, 0.15)

# SQLSTATE of a lock wait that ran out (lock_timeout) and of a deadlock PostgreSQL broke.
_GAVE_UP = {"55P03", "40P01"}


def bound_lock_waits() -> None:
    """From now to the end of the current transaction, waiting longer than ``WAIT_MS`` for a lock
    fails with ``OperationalError`` (PostgreSQL; SQLite runs one writer at a time and never waits on
    a row)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{int(WAIT_MS)}ms'")


def gave_up_waiting(error: BaseException) -> bool:
    """``error`` is a lock wait that ran out or a broken deadlock: nothing was changed and the same
    work can simply be done again."""
    return isinstance(error, OperationalError) and getattr(error.__cause__, "sqlstate", None) in _GAVE_UP


def run_giving_way(func: Callable, *args, **kwargs):
    """``func(*args, **kwargs)`` in one transaction; when it gave way in a lock cycle, that
    transaction changed nothing, so it is run again from the start, up to ``ATTEMPTS`` times in all,
    and the last attempt's error is raised. Inside a transaction already it is simply called: only
    the outermost transaction can be taken back and run again."""
    if connection.in_atomic_block:
        return func(*args, **kwargs)
    for attempt in range(1, ATTEMPTS + 1):
        try:
            with transaction.atomic():
                return func(*args, **kwargs)
        except OperationalError as error:
            if attempt == ATTEMPTS or not gave_up_waiting(error):
                raise
        time.sleep(random.uniform(*PAUSE_S))  # a pause, not a secret


def gives_way(view: Callable) -> Callable:
    """Marks a view whose writes ``GiveWayMiddleware`` runs again when they gave way. Every API view
    is, without the mark, unless its class says ``gives_way = False`` (a dealer's input)."""
    view.gives_way = True
    return view


def _gives_way(view: Callable) -> bool:
    # Here, not at the top: DRF's views read its settings, whose classes import the apps' models,
    # which import this module.
    from rest_framework.views import APIView

    cls = getattr(view, "cls", None)  # DRF's as_view() names its class
    if isinstance(cls, type) and issubclass(cls, APIView):
        return getattr(cls, "gives_way", True)
    return getattr(view, "gives_way", False)


class GiveWayMiddleware:
    """Last in MIDDLEWARE: an unsafe request to the API or to a view marked ``gives_way`` (the
    console's actions) runs its view in one transaction, run again when it gave way in a lock cycle
    (``run_giving_way``). After every other middleware's view check (CSRF among them): it calls the
    view itself, so what the others do around the view still happens once."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if request.method in SAFE_METHODS or not _gives_way(view):
            return None
        # Read now: each attempt parses the same body (a request's stream can be read only once).
        request.body  # noqa: B018
        try:
            return run_giving_way(view, request, *args, **kwargs)
        except (OperationalError, InterfaceError) as error:
            # A view called here is past the other middlewares' exception hooks: the overload's 503.
            response = overloaded(request, error)
            if response is None:
                raise
            return response
