"""A new hand written in one SQL statement (PostgreSQL): the hand, its secrets, its first events and
its table's "hand in progress", with the table's version.

Why: a deal was five writes after its reads (the hand, its secrets, its events, the table's flag, the
table's version), each a round trip to the database on the server's one dealers' thread, where every
round trip gives the interpreter lock away and waits to get it back. At 250 inputs a second the deals
were the longest turns on that thread (p50 13 ms), and the actions queued behind them::

    WITH dealt AS (INSERT INTO hand (…) VALUES (…) RETURNING id),
         secret AS (INSERT INTO secret (hand_id, …) SELECT dealt.id, … FROM dealt),
         logged AS (INSERT INTO event (hand_id, …) SELECT dealt.id, … FROM jsonb_to_recordset(…) AS v
                    CROSS JOIN dealt
                    RETURNING id, seq),
         started AS (UPDATE table SET hand_in_progress = true, version = version + <0 or 1>
                     WHERE id = … RETURNING version)
    SELECT (SELECT id FROM dealt), (SELECT version FROM started), ARRAY(SELECT id FROM logged ORDER BY seq)

It runs inside the deal's transaction, under the table's lock, after every check: the same rows as
``insert_rows``, ``vault.create`` and ``tables.services.hand_started`` (with the halt and the hand in
progress checked already) write one after the other, which is what the other databases run. The
foreign keys to the new hand are checked at the end of the statement (or the commit), when the hand
row is there.
"""

from __future__ import annotations

import functools

from django.db import connection

from config.prepared import insert_fields, insert_params, recordset, recordset_param
from tables.models import Table

from .models import Hand, HandEvent, HandSecret


def usable() -> bool:
    return connection.vendor == "postgresql"


@functools.cache
def _statement() -> tuple[str, list, list, list]:
    """The statement, the hand's fields, the secret's fields, the events' fields, built once: the first
    events are one JSON value (``config.prepared.recordset``), however many there are."""
    quote = connection.ops.quote_name
    hand, event, secret, table = (quote(m._meta.db_table) for m in (Hand, HandEvent, HandSecret, Table))
    hand_fields = insert_fields(Hand)
    # All but its key (the hand). Its seed is bytea, which PostgreSQL takes as a plain %s.
    secret_fields = [f for f in HandSecret._meta.concrete_fields if not f.primary_key]
    event_fields = [f for f in insert_fields(HandEvent) if f.name != "hand"]

    def cast(field) -> str:  # a value outside a plain VALUES list is typed on its own
        return f"CAST(%s AS {field.db_type(connection)})"

    names = ", ".join(f"c{i}" for i in range(len(event_fields)))
    sql = (
        f"WITH dealt AS (INSERT INTO {hand} ({', '.join(quote(f.column) for f in hand_fields)}) "
        f'VALUES ({", ".join(["%s"] * len(hand_fields))}) RETURNING "id"), '
        f'secret AS (INSERT INTO {secret} ("hand_id", {", ".join(quote(f.column) for f in secret_fields)}) '
        f'SELECT dealt."id", {", ".join(cast(f) for f in secret_fields)} FROM dealt), '
        f'logged AS (INSERT INTO {event} ("hand_id", {", ".join(quote(f.column) for f in event_fields)}) '
        f'SELECT dealt."id", {names} FROM {recordset(event_fields, connection)} '
        f'CROSS JOIN dealt RETURNING "id", "seq"), '
        f'started AS (UPDATE {table} SET "hand_in_progress" = true, "version" = "version" + %s '
        f'WHERE "id" = %s RETURNING "version") '
        f'SELECT (SELECT "id" FROM dealt), (SELECT "version" FROM started), '
        f'ARRAY(SELECT "id" FROM logged ORDER BY "seq")'
    )
    return sql, hand_fields, secret_fields, event_fields


def deal(hand: Hand, secret: HandSecret, rows: list[HandEvent], *, bump: bool) -> int:
    """Write the new ``hand`` (unsaved), its ``secret`` and its first events ``rows`` and mark its
    table's hand in progress; ``bump``: add one to the table's version too. Returns the table's
    version; the hand and the rows get their keys."""
    sql, hand_fields, secret_fields, event_fields = _statement()
    params = insert_params([hand], hand_fields, connection)
    params += insert_params([secret], secret_fields, connection)
    params.append(recordset_param(rows, event_fields))
    params += [1 if bump else 0, hand.table_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        hand_id, version, keys = cursor.fetchone()
    for obj, pk in ((hand, hand_id), *zip(rows, keys, strict=True)):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = connection.alias
    for row in rows:
        row.hand_id = hand_id
    return version
