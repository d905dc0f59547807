"""JSON text of what the servers send many times a second: the screens' snapshots and the tablets'
answers, encoded by orjson.

Why: at 1,250 tables every dealer input is encoded at least twice (its answer, and the table's patched
snapshot that shows it), and a shared build once per change for every screen that shows it. Python's
``json`` with Django's encoder took 30 µs for a 2.7 KB table snapshot, orjson 6 µs (measured in
process); on a server at 250 inputs a second the encoding was 4% of its CPU, on its event loop.

The text is what ``json.dumps`` with ``DjangoJSONEncoder`` gives, without the spaces after ``,`` and
``:`` and with non-ASCII characters as UTF-8 instead of ``\\u`` escapes. Dates and times go
through Django's encoder (ISO 8601, milliseconds, ``Z`` for UTC), as do decimals, durations and lazy
translations (in the language active at the call). numpy numbers are numbers; a NaN is ``null``
(``json`` wrote ``NaN``, which no browser parses).

A leaf: it imports no app.
"""

from __future__ import annotations

from collections.abc import Callable

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from psycopg.types.json import Jsonb  # a dependency, as Django's PostgreSQL backend uses it

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_SERIALIZE_NUMPY
_django = DjangoJSONEncoder().default


def dumps(value, default: Callable[[object], object] = _django) -> str:
    """``value`` as JSON text; ``default`` turns what orjson does not know into what it does (Django's
    encoder; the API's answers pass DRF's)."""
    return orjson.dumps(value, default=default, option=_OPTIONS).decode()


def _jsonb_text(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY)


def jsonb(value):
    """``value`` as a parameter for a ``jsonb`` column on PostgreSQL (psycopg's ``Jsonb``), its text
    made by orjson: a hand's view is written at each input. What ``JSONField`` writes, without its
    spaces (PostgreSQL keeps jsonb parsed, so the stored value is the same)."""
    return Jsonb(value, dumps=_jsonb_text)
