"""New tables and their seats written in one statement each: a seat draw of 10,000 players writes
1,250 tables and 10,000 seats.

Django's ``bulk_create`` builds a model instance per seat and prepares every field of every row in
Python (about 2.5 s for 10,000 seats); on PostgreSQL the tables come instead from ``generate_series``
and the seats from three integer arrays expanded by ``unnest``, the other columns at their model
defaults. Other databases (SQLite, the embedded default) keep ``bulk_create``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection

from .models import Seat, Table

# The columns the statements below write. A field added to Seat or Table fails here first (every
# test that seats a table on PostgreSQL), instead of silently taking no value.
_TABLE_COLUMNS = (
    "id",
    "tournament",
    "number",
    "seats",
    "status",
    "button_seat",
    "big_blind_seat",
    "hand_in_progress",
    "break_order",
    "broken_at",
    "version",
)
_SEAT_COLUMNS = {
    "id",
    "table",
    "number",
    "entry",
    "waits_for_big_blind",
    "locked",
    "lock_reason",
    "reserved_for",
    "reserved_key",
    "seated_at",
}


def _check_columns(model, written, *, ordered: bool = False) -> None:
    """``ordered``: the values are also given in the model's field order (``Model.from_db``)."""
    fields = [f.name for f in model._meta.concrete_fields]
    if (tuple(fields) != tuple(written)) if ordered else (set(fields) != set(written)):
        raise RuntimeError(f"tables.bulk writes {list(written)} of {model.__name__}, which has {fields}")


def insert_tables(tournament, numbers: range, seats: int) -> list[Table]:
    """Active tables numbered ``numbers`` of ``seats`` seats, breaking highest number first (R8.4),
    in number order and with their ids."""
    if connection.vendor != "postgresql":
        tables = Table.objects.bulk_create(
            [Table(tournament=tournament, number=n, seats=seats, break_order=n) for n in numbers]
        )
        if any(t.pk is None for t in tables):  # a backend that returns no ids from a bulk insert
            tables = list(Table.objects.filter(tournament=tournament, number__in=numbers).order_by("number"))
        return tables
    _check_columns(Table, _TABLE_COLUMNS, ordered=True)
    meta, quote = Table._meta, connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in _TABLE_COLUMNS[1:])
    defaults = {
        name: meta.get_field(name).get_default() for name in ("status", "hand_in_progress", "version")
    }
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) "
        "SELECT %s, n, %s, %s, NULL, NULL, %s, n, NULL, %s FROM generate_series(%s::integer, %s::integer) AS n "
        f"ORDER BY n RETURNING {quote(meta.pk.column)}, {quote(meta.get_field('number').column)}"
    )
    params = [
        tournament.pk,
        seats,
        defaults["status"],
        defaults["hand_in_progress"],
        defaults["version"],
        numbers.start,
        numbers.stop - 1,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = dict((number, pk) for pk, number in cursor.fetchall())
    tables = []
    for n in numbers:
        values = (ids[n], tournament.pk, n, seats, defaults["status"], None, None,
                  defaults["hand_in_progress"], n, None, defaults["version"])  # fmt: skip
        table = Table.from_db(connection.alias, _TABLE_COLUMNS, values)
        table.tournament = tournament
        tables.append(table)
    return tables


def _int_array(values) -> str:
    """A PostgreSQL array literal of integers (None as NULL): cheaper than adapting 10,000 ints."""
    return "{" + ",".join("NULL" if v is None else str(int(v)) for v in values) + "}"


def insert_seats(rows: list[tuple[int, int, int | None]], seated_at: datetime) -> None:
    """``rows``: (table id, seat number, entry id or None); an occupied seat is seated at ``seated_at``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        Seat.objects.bulk_create(
            [
                Seat(table_id=t, number=n, entry_id=e, seated_at=seated_at if e is not None else None)
                for t, n, e in rows
            ],
            batch_size=2000,
        )
        return
    _check_columns(Seat, _SEAT_COLUMNS)
    meta, quote = Seat._meta, connection.ops.quote_name

    def column(name: str) -> str:
        return quote(meta.get_field(name).column)

    defaults = [Seat._meta.get_field(name).get_default() for name in ("waits_for_big_blind", "locked")]
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({column('table')}, {column('number')}, {column('entry')}, "
        f"{column('waits_for_big_blind')}, {column('locked')}, {column('lock_reason')}, "
        f"{column('reserved_for')}, {column('reserved_key')}, {column('seated_at')}) "
        "SELECT u.t, u.n, u.e, %s, %s, '', '', '', CASE WHEN u.e IS NULL THEN NULL ELSE %s END "
        "FROM unnest(%s::bigint[], %s::integer[], %s::bigint[]) AS u(t, n, e)"
    )
    tables, numbers, entries = zip(*rows)
    with connection.cursor() as cursor:
        cursor.execute(
            sql, [*defaults, seated_at, _int_array(tables), _int_array(numbers), _int_array(entries)]
        )
