"""An input on a hand this server keeps (``dealing.hand_cache``), written in one SQL statement.

Why: on PostgreSQL an ordinary input's transaction was six round trips to the database (BEGIN, the
hand's lock, its events, its view, its table's version, COMMIT). Each one gives the interpreter lock
away and waits to get it back behind the server's event loop: at 250 inputs a second on two cores
that waiting, not the database, was most of an input's time on its thread (docs/production.md). One
statement outside a transaction is a transaction of its own, and one round trip::

    WITH moved AS (UPDATE hand SET state = …, state_seq = <end>
                   WHERE id = … AND state_seq = <kept at> AND status = 'running' [AND guard]
                   RETURNING id),
         logged AS (INSERT INTO event (…) SELECT … FROM jsonb_to_recordset(…) AS v CROSS JOIN moved
                    RETURNING id, seq),
         dealt AS (UPDATE secret SET events = events || … WHERE hand_id = … AND EXISTS (SELECT FROM moved)),
         bumped AS (UPDATE table SET version = version + 1 WHERE id = … AND EXISTS (SELECT FROM moved)
                    RETURNING version)
    SELECT (SELECT version FROM bumped), ARRAY(SELECT id FROM logged ORDER BY seq)

The compare-and-set on the hand's row stands for its lock: the kept hand is the stored one exactly
when the row's ``state_seq`` is still the event it was kept at, since every writer of a hand's log
stores its view in the same transaction. A writer that holds the row (a correction, a void, an input
through another server) makes this statement wait for it and then find the row moved on: nothing is
written, and the caller decides the input again in a transaction, on the hand as stored. The events,
their secrets and the table's version are written only with the row (``CROSS JOIN moved``,
``EXISTS``), in the order of the transactional path (the hand, then its table), so neither deadlocks
the other. A ``WriteGuard`` (the tablet's device still paired: ``screens.tablet_inputs``) is one more
condition on the hand's row: if it fails nothing is written either, and the transaction says why.

PostgreSQL only (SQLite has no data-modifying ``WITH``; it is one process and has no round trips to
save): ``usable`` says whether this connection can.
"""

from __future__ import annotations

import functools

from django.db import connection

from config import json_text
from config.prepared import WriteGuard, insert_fields, recordset, recordset_param
from tables.models import Table

from .models import Hand, HandEvent, HandSecret


def usable() -> bool:
    return connection.vendor == "postgresql"


@functools.cache
def _statement(with_secrets: bool, guard_sql: str = "") -> tuple[str, list]:
    """The statement and the event fields in its order, built once per shape (secrets, the guard's
    SQL): the events are one JSON value (``config.prepared.recordset``), however many an input makes."""
    quote = connection.ops.quote_name
    fields = insert_fields(HandEvent)
    hand, event, secret, table = (quote(m._meta.db_table) for m in (Hand, HandEvent, HandSecret, Table))
    columns = ", ".join(quote(f.column) for f in fields)
    names = ", ".join(f"c{i}" for i in range(len(fields)))
    # The dealt secrets go with the events (hole cards, burns): only into a hand that has its secrets row.
    has_secrets = (
        f' AND EXISTS (SELECT 1 FROM {secret} WHERE "hand_id" = %s AND jsonb_typeof("events") = \'object\')'
        if with_secrets
        else ""
    )
    keep_secrets = (
        f', dealt AS (UPDATE {secret} SET "events" = "events" || CAST(%s AS jsonb) '
        f'WHERE "hand_id" = %s AND EXISTS (SELECT 1 FROM moved) RETURNING 1)'
        if with_secrets
        else ""
    )
    sql = (
        f'WITH moved AS (UPDATE {hand} SET "state" = CAST(%s AS jsonb), "state_seq" = %s '
        f'WHERE "id" = %s AND "state_seq" = %s AND "status" = %s{has_secrets}'
        f'{f" AND ({guard_sql})" if guard_sql else ""} RETURNING "id"), '
        f"logged AS (INSERT INTO {event} ({columns}) SELECT {names} FROM "
        f"{recordset(fields, connection)} CROSS JOIN moved "
        f'RETURNING "id", "seq")'
        f"{keep_secrets}, "
        f'bumped AS (UPDATE {table} SET "version" = "version" + 1 '
        f'WHERE "id" = %s AND EXISTS (SELECT 1 FROM moved) RETURNING "version") '
        f'SELECT (SELECT "version" FROM bumped), ARRAY(SELECT "id" FROM logged ORDER BY "seq")'
    )
    return sql, fields


def append(
    hand: Hand,
    rows: list[HandEvent],
    dealt: dict[int, dict],
    *,
    state: dict,
    kept_seq: int,
    guard: WriteGuard | None = None,
) -> int | None:
    """Write ``rows`` (the input's new events, from ``kept_seq + 1`` on), their dealt secrets and the
    hand's public view ``state`` if the hand's row is still at ``kept_seq`` and running (and the
    ``guard`` holds), and bump its table's version. Returns the table's new version (the rows get
    their keys), or None: the hand had moved on (or the guard failed) and nothing was written."""
    sql, fields = _statement(bool(dealt), guard.sql if guard is not None else "")
    end = kept_seq + len(rows)
    params = [
        json_text.jsonb(state),
        end,
        hand.pk,
        kept_seq,
        Hand.Status.RUNNING.value,
    ]
    if dealt:
        params.append(hand.pk)
    if guard is not None:
        params += guard.params
    params.append(recordset_param(rows, fields))
    if dealt:
        params += [
            json_text.jsonb({str(seq): event for seq, event in dealt.items()}),
            hand.pk,
        ]
    params.append(hand.table_id)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        version, keys = cursor.fetchone()
    if version is None:
        return None
    for row, pk in zip(rows, keys, strict=True):
        row.pk = pk
        row._state.adding = False
        row._state.db = connection.alias
    return version
