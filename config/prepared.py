"""Reads of a fixed shape, compiled to SQL once per process and run again with new values.

Django compiles a queryset to SQL every time it runs: on the machines of a big event that costs
about 1 ms of CPU a query, more than PostgreSQL takes to answer it. The reads made on every dealer
input and every table snapshot (the tablet's device, the hand, the seat map...) always have the same
shape, only their values change, so their SQL is built once, by Django, from the queryset:

    device_by_token = PreparedQuery(
        lambda token_hash: Device.objects.select_related("user").filter(token_hash=token_hash)[:1]
    )
    device_by_token(digest)  # [Device] or []: model instances, as the queryset would give

The queryset is built once with marker values in place of the arguments; each marker must reach the
SQL as one parameter unchanged (an exact lookup on an integer or text column: ``pk=``, ``token_hash=``,
``table_id=``). Anything else (a list for ``__in``, a value a lookup rewrites, a date) is refused when
the query is first prepared. Model instances, ``select_related`` and the fields' converters are
Django's own; ``prefetch_related`` and known related objects (a related manager's instance) are not
carried over: set them on the results where they are needed.

The writes of every dealer input (its events, the hand's public view) are as fixed: ``insert_rows``
and ``update_row`` build their SQL once per model and fields, and prepare each value with the field's
own ``get_db_prep_save``, as ``bulk_create`` and ``QuerySet.update`` do.

A write may carry a ``WriteGuard``: an SQL condition that must still hold where the write is made
(a tablet's device still paired, checked in the input's own statement, or in the read that locks the
row it changes, instead of a read of its own).

A leaf: it imports no app.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connections
from django.db.models import BooleanField, Model, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.query import ModelIterable, get_related_populators

from config import json_text

_markers = itertools.count(1)


class UnpreparableQuery(TypeError):
    """The queryset's shape cannot be prepared (see the module's note)."""


def _marker(value):
    # A value no real call passes, of the argument's own type, found again among the SQL's parameters.
    n = next(_markers)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise UnpreparableQuery(f"only int and str arguments can be prepared, not {type(value).__name__}")
    if isinstance(value, int):
        return -(2**62) - n
    return f"\x00prepared-marker-{n}\x00"


@dataclass
class _Compiled:
    sql: str
    # For each of the SQL's parameters: the index of the call's argument, or None for a constant.
    slots: list[int | None]
    constants: list
    model: type
    init_list: list[str]
    fields_start: int
    fields_end: int
    populators: list
    converters: list  # (position, converters, expression)
    annotations: dict[str, int]


class PreparedQuery:
    """A read of a fixed shape: ``PreparedQuery(build)`` where ``build(*args)`` returns the queryset;
    calling it with the arguments gives the queryset's model instances, as a list."""

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()
        self._guarded: dict[str, PreparedQuery] = {}  # a WriteGuard's SQL -> this read with it

    def __call__(self, *args) -> list:
        alias = "default"  # one database; a router would pick it per queryset
        compiled = self._compiled.get(alias) or self._prepare(args, alias)
        connection = connections[alias]
        params = [
            args[slot] if slot is not None else constant
            for slot, constant in zip(compiled.slots, compiled.constants, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        results = []
        for row in rows:
            if compiled.converters:
                row = list(row)
                for position, converters, expression in compiled.converters:
                    value = row[position]
                    for converter in converters:
                        value = converter(value, expression, connection)
                    row[position] = value
            values = row[compiled.fields_start : compiled.fields_end]
            obj = compiled.model.from_db(alias, compiled.init_list, values)
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotations.items():
                setattr(obj, name, row[position])
            results.append(obj)
        return results

    def first(self, *args):
        """The first instance, or None."""
        found = self(*args)
        return found[0] if found else None

    def first_guarded(self, guard: WriteGuard | None, *args):
        """``first(*args)`` with ``guard`` read in the same statement (a column of it): ``GuardFailed``
        when the row is found and the guard does not hold. A read that locks the row a write will
        change checks the caller's permission with no round trip of its own."""
        if guard is None:
            return self.first(*args)
        query = self._guarded.get(guard.sql)
        if query is None:
            build, sql, count = self.build, guard.sql, len(args)
            query = self._guarded.setdefault(
                sql,
                PreparedQuery(
                    lambda *values: build(*values[:count]).annotate(
                        guard_holds=RawSQL(sql, values[count:], output_field=BooleanField())
                    )
                ),
            )
        found = query.first(*args, *guard.params)
        if found is not None and not found.guard_holds:
            raise GuardFailed
        return found

    def _prepare(self, args, alias: str) -> _Compiled:
        with self._lock:
            found = self._compiled.get(alias)
            if found is not None:
                return found
            markers = [_marker(value) for value in args]
            queryset = self.build(*markers)
            if queryset._iterable_class is not ModelIterable:
                raise UnpreparableQuery("only querysets of model instances can be prepared")
            if queryset._prefetch_related_lookups:
                raise UnpreparableQuery("prefetch_related is not carried over by a prepared query")
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            slots, constants = [], []
            for param in params:
                slot = next((i for i, m in enumerate(markers) if type(param) is type(m) and param == m), None)
                slots.append(slot)
                constants.append(None if slot is not None else param)
            missing = [i for i in range(len(markers)) if i not in slots]
            if missing:
                raise UnpreparableQuery(f"arguments {missing} do not reach the SQL unchanged")
            select, klass_info = compiler.select, compiler.klass_info
            if klass_info is None:
                raise UnpreparableQuery("only querysets of model instances can be prepared")
            start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
            fields = [s[0] for s in select[0 : compiler.col_count]]
            converters = [
                (position, convs, expression)
                for position, (convs, expression) in compiler.get_converters(fields).items()
            ]
            compiled = _Compiled(
                sql=sql,
                slots=slots,
                constants=constants,
                model=klass_info["model"],
                init_list=[f[0].target.attname for f in select[start:end]],
                fields_start=start,
                fields_end=end,
                populators=get_related_populators(klass_info, select, alias),
                converters=converters,
                annotations=dict(compiler.annotation_col_map or {}),
            )
            self._compiled[alias] = compiled
            return compiled


# ---------------------------------------------------------------- writes of a fixed shape

# (kind, model, fields, rows, vendor) -> (SQL, the model's fields in the SQL's order)
_write_sql: dict[tuple, tuple[str, list]] = {}


def _plain_fields(model: type[Model], fields) -> list:
    for field in fields:
        # A field with its own placeholder (a geometry, an expression default) needs Django's compiler.
        if not field.concrete or hasattr(field, "get_placeholder"):
            raise UnpreparableQuery(
                f"{model.__name__}.{field.name} cannot be written by a prepared statement"
            )
    return list(fields)


def insert_fields(model: type[Model]) -> list:
    """The fields an INSERT of new ``model`` rows writes: every concrete one but the auto key."""
    opts = model._meta
    return _plain_fields(model, [f for f in opts.concrete_fields if f is not opts.pk])


def insert_params(objs: list[Model], fields: list, connection) -> list:
    """The values of ``objs`` for ``fields``, row after row, as ``bulk_create`` prepares them
    (``pre_save`` as in a save: ``auto_now_add`` is set)."""
    return [field.get_db_prep_save(field.pre_save(obj, True), connection) for obj in objs for field in fields]


# What a JSON record carries as it is (``recordset``): numbers, text, booleans, JSON, aware times.
_RECORD_KINDS = {
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "DateTimeField",
    "ForeignKey",
    "IntegerField",
    "JSONField",
    "PositiveBigIntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}


def recordset(fields: list, connection) -> str:
    """``jsonb_to_recordset(CAST(%s AS jsonb)) AS v(c0 type, …)`` (PostgreSQL): new rows of ``fields``
    read from one JSON value (``recordset_param``), so that a statement's text and its number of
    values stay the same for any number of rows. Why: psycopg keeps a statement's converted text only
    up to 50 values and 4 KB, and above that parses the whole text again at every run (a deal's first
    events as a VALUES list were 115 values: 250 µs a deal to convert and send, 16 µs as one JSON
    value); and PostgreSQL prepares one statement for every count of rows instead of one per count."""
    for field in fields:
        if field.get_internal_type() not in _RECORD_KINDS:
            raise UnpreparableQuery(f"{field.model.__name__}.{field.name} cannot be read from a JSON record")
    columns = ", ".join(f"c{i} {field.db_type(connection)}" for i, field in enumerate(fields))
    return f"jsonb_to_recordset(CAST(%s AS jsonb)) AS v({columns})"


def recordset_param(objs: list[Model], fields: list):
    """The JSON value of ``recordset``: ``objs``' values for ``fields``, ``pre_save`` run as in a save
    (``auto_now_add`` is set), in the columns' order."""
    return json_text.jsonb(
        [{f"c{i}": field.pre_save(obj, True) for i, field in enumerate(fields)} for obj in objs]
    )


def insert_rows(objs: list[Model], *, using: str = "default") -> None:
    """INSERT ``objs`` (new instances of one model with an auto primary key) with every column but the
    key, and set their primary keys, as ``bulk_create`` does, with the SQL built once per model and
    row count. ``pre_save`` runs as in a save (``auto_now_add`` is set); no signal is sent, as with
    ``bulk_create``."""
    if not objs:
        return
    connection = connections[using]
    model = type(objs[0])
    if not connection.features.can_return_rows_from_bulk_insert:
        model._base_manager.using(using).bulk_create(objs)
        return
    key = ("insert", model, len(objs), connection.vendor)
    found = _write_sql.get(key)
    if found is None:
        opts = model._meta
        fields = insert_fields(model)
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = (
            f"INSERT INTO {quote(opts.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
            f"VALUES {', '.join([row] * len(objs))} RETURNING {quote(opts.pk.column)}"
        )
        found = _write_sql[key] = (sql, fields)
    sql, fields = found
    params = insert_params(objs, fields, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = cursor.fetchall()
    for obj, (pk,) in zip(objs, keys, strict=True):  # RETURNING gives the rows in the VALUES' order
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = using


def update_row(model: type[Model], pk, *, using: str = "default", **values) -> int:
    """``model.objects.filter(pk=pk).update(**values)`` for plain values (no expressions), with the SQL
    built once per model and fields. Returns the number of rows changed (0 or 1)."""
    connection = connections[using]
    for name, value in values.items():
        if hasattr(value, "resolve_expression"):
            raise UnpreparableQuery(f"{name}: only plain values can be written by a prepared statement")
    key = ("update", model, tuple(values), connection.vendor)
    found = _write_sql.get(key)
    if found is None:
        fields = _plain_fields(model, [model._meta.get_field(name) for name in values])
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
        sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {quote(model._meta.pk.column)} = %s"
        found = _write_sql[key] = (sql, fields)
    sql, fields = found
    params = [field.get_db_prep_save(values[field.name], connection) for field in fields]
    params.append(model._meta.pk.get_db_prep_value(pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def increment(model: type[Model], pk, name: str = "version", *, using: str = "default") -> int | None:
    """Add one to the integer field ``name`` of the row ``pk`` and return the new value (None: no such
    row), in one statement (``RETURNING``) built once per model and field: a table's and a
    tournament's screen versions move at every hand's end and every bust."""
    connection = connections[using]
    key = ("increment", model, name, connection.vendor)
    found = _write_sql.get(key)
    if found is None:
        field = _plain_fields(model, [model._meta.get_field(name)])[0]
        quote = connection.ops.quote_name
        column = quote(field.column)
        sql = (
            f"UPDATE {quote(model._meta.db_table)} SET {column} = {column} + 1 "
            f"WHERE {quote(model._meta.pk.column)} = %s RETURNING {column}"
        )
        found = _write_sql[key] = (sql, [field])
    sql, _fields = found
    with connection.cursor() as cursor:
        cursor.execute(sql, [model._meta.pk.get_db_prep_value(pk, connection)])
        row = cursor.fetchone()
    return row[0] if row else None


def update_rows(model: type[Model], name: str, values: dict, *, using: str = "default") -> int:
    """Set the plain field ``name`` of each row ``pk`` to ``values[pk]`` in one statement (what
    ``bulk_update`` does for one field, without building its CASE expressions on every call), with the
    SQL built once per model, field and row count. Returns the number of rows changed."""
    if not values:
        return 0
    connection = connections[using]
    key = ("update_rows", model, name, len(values), connection.vendor)
    found = _write_sql.get(key)
    if found is None:
        field = _plain_fields(model, [model._meta.get_field(name)])[0]
        quote = connection.ops.quote_name
        pk = quote(model._meta.pk.column)
        cast = f"CAST(%s AS {field.db_type(connection)})"
        cases = " ".join([f"WHEN %s THEN {cast}"] * len(values))
        sql = (
            f"UPDATE {quote(model._meta.db_table)} SET {quote(field.column)} = CASE {pk} {cases} END "
            f"WHERE {pk} IN ({', '.join(['%s'] * len(values))})"
        )
        found = _write_sql[key] = (sql, [field])
    sql, (field,) = found
    key_field = model._meta.pk
    keys = [key_field.get_db_prep_value(pk, connection) for pk in values]
    params = []
    for pk, value in zip(keys, values.values(), strict=True):
        params += [pk, field.get_db_prep_save(value, connection)]
    params += keys
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


@dataclass(frozen=True)
class WriteGuard:
    """An SQL condition (``sql``, with ``%s`` for ``params``) that a write is made under: put in the
    write's own statement where it can be, else read with the row the write locks
    (``PreparedQuery.first_guarded``). The service that writes need not know what it stands for (its
    caller's permission)."""

    sql: str
    params: tuple = ()


class GuardFailed(Exception):
    """A write's ``WriteGuard`` no longer held: nothing was written. Its caller decides again."""
