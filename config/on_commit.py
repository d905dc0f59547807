"""``once_after_commit``: run a follow-up once after the current transaction commits, however many
services in it asked for the same one (a leaf: it imports no app).

The first ask in a transaction queues the call with Django's ``transaction.on_commit``; later asks
with the same key find it still queued and do nothing. A key is remembered per database connection
(so per thread), next to Django's own list of on-commit callbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from django.db import DEFAULT_DB_ALIAS, transaction

_NONE = (None, None, None)


def _still_queued(connection, entry) -> bool:
    """Whether a queued call is still waiting for this transaction's commit.

    ``entry`` is (the callback, its index in Django's on-commit list, its token): O(1) in a transaction that
    touches a thousand tables. After a commit the list is empty; after a rolled-back savepoint Django
    drops that savepoint's callbacks and the list shifts, so this says no and the caller queues again
    (a spare follow-up is harmless: every one of them is idempotent).
    """
    callback, index, _token = entry
    if not connection.in_atomic_block:
        return False
    queued = connection.run_on_commit
    return index < len(queued) and queued[index][1] is callback


def already_queued(key: Hashable, *, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether ``key`` is queued in the current transaction already."""
    connection = transaction.get_connection(using)
    entry = connection.__dict__.get("once_after_commit", {}).get(key)
    return entry is not None and _still_queued(connection, entry)


def once_after_commit(
    key: Hashable,
    func: Callable[[], object],
    *,
    first: Callable[[], object] | None = None,
    using: str = DEFAULT_DB_ALIAS,
) -> bool:
    """Queue ``func`` after the commit unless the same ``key`` is already queued in this transaction.

    ``first``, when given, runs at once (inside the transaction) only for the first ask: e.g. bumping
    a version that must commit with the change. Returns whether this call queued anything.
    """
    connection = transaction.get_connection(using)
    pending = connection.__dict__.setdefault("once_after_commit", {})
    entry = pending.get(key)
    if entry is not None and _still_queued(connection, entry):
        return False
    if first is not None:
        first()

    token = object()

    def run():
        # Recognised by ``token``, not by naming ``run`` in its own body: a function that refers to
        # itself is a reference cycle, which only the garbage collector frees (one per transaction).
        if pending.get(key, _NONE)[2] is token:
            del pending[key]
        func()

    pending[key] = (run, len(connection.run_on_commit), token)
    transaction.on_commit(run, using=using)
    return True


def once_after_commit_for(
    keys: list[Hashable], func: Callable[[], object], *, using: str = DEFAULT_DB_ALIAS
) -> None:
    """Queue one ``func`` after the commit that stands for every key of ``keys`` (none of them queued
    yet): a later ``once_after_commit`` with one of them in this transaction finds it queued."""
    connection = transaction.get_connection(using)
    pending = connection.__dict__.setdefault("once_after_commit", {})

    token = object()

    def run():
        for key in keys:
            if pending.get(key, _NONE)[2] is token:
                del pending[key]
        func()

    entry = (run, len(connection.run_on_commit), token)
    for key in keys:
        pending[key] = entry
    transaction.on_commit(run, using=using)
