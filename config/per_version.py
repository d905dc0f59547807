"""What is read of a tournament that moves only with its version, kept for its latest versions.

The 1,250 tables of a big event read it once per version, not once each: a table's snapshot and a
deal cost the same at 10 tables and at 1,250. A reader reads the version first and the state after
it, so what is kept under a version is at least as new as that version (a change in between moves
the version on, and its readers build again).

Keyed by the tournament's creation time too (a test database, or a restored one, may give another
tournament the same id and version), and, for what holds labels, by the language it is built in.

A leaf: it imports no app.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.utils.translation import get_language


class PerVersion:
    def __init__(self, size: int = 64, *, by_language: bool = False):
        self._kept: dict[tuple, object] = {}
        self._lock = threading.Lock()
        self._size = size
        self._by_language = by_language

    def get(self, tournament, version: int | None, build: Callable[[], object]):
        """What ``build()`` gives for ``tournament`` at ``version`` (None: built, never kept)."""
        if version is None:
            return build()
        key = (tournament.pk, tournament.created_at, version, get_language() if self._by_language else "")
        with self._lock:
            found = self._kept.get(key)
        if found is None:
            found = build()
            with self._lock:
                self._kept[key] = found
                while len(self._kept) > self._size:  # a few tournaments' latest versions
                    del self._kept[next(iter(self._kept))]
        return found

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
