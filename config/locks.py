"""Lock waits bounded while a transaction holds a tournament's row (a leaf: it imports no app).

The lock order of the field is the tournament, then its tables, then their seats and entries. A
dealer's input cannot keep it: it holds its table (and its players' entries) from the start, and only
the hand's end learns that it busts somebody and needs the tournament. A balance holding the
tournament and waiting for that table then deadlocked with it; PostgreSQL broke the cycle after its
``deadlock_timeout`` (1 s) by failing either one, often the dealer's input.

So whoever holds the tournament waits at most ``WAIT_MS`` for any other lock: in such a cycle it is
the one that gives up, well before the deadlock check, and the dealer's input goes through. What gave
up can always be done again: the balance task is queued again, a director's request answers 503
with Retry-After and changed nothing (``config.overload``).
"""

from django.db import OperationalError, connection

WAIT_MS = 300

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
