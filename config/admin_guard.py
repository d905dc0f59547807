"""No admin page can be asked about a secret (docs/dealing.md "Secrets at rest").

Django's admin accepts lookups on a model's own fields from the query string
(``?state__full__seed__regex=^[0-7]``), so any staff user who may open a changelist could ask it yes/no
questions about any field, JSON key paths included. This module is the one guard: the project's
admin site (``GuardedAdminSite``, installed by ``config.apps.AdminConfig``) gives every registered
ModelAdmin, the project's and Django's own, the ``SecretLookupGuard`` mixin, which

- refuses (400) any lookup whose path reaches a secret: a model marked ``is_secret = True`` (a hand's
  secrets), a field named in the model's ``secret_fields``, or any field or JSON key named in
  ``SECRET_NAMES`` (seeds, decks, hole cards, burns, the full view, tokens, password hashes);
- drops such paths from the search fields, the list filters, the default ordering and the columns
  a changelist may be sorted by (``?o=``).

It imports no app: the models say what is secret, and the names below are the secret parts of the
JSON the dealing engine writes.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import FieldDoesNotExist
from django.db import DatabaseError, transaction
from django.db.models.constants import LOOKUP_SEP

# Fields and JSON keys that hold (or name) a secret anywhere in the project: refused in any lookup.
SECRET_NAMES = frozenset(
    {
        "seed",
        "master_seed",
        "hand_seed",
        "deck",
        "burn",
        "burns",
        "hole",
        "holes",
        "hole_cards",
        "cards",
        "full",
        "secret",
        "password",
        "token",
        "token_hash",
        "code_hash",
    }
)


def is_secret_model(model) -> bool:
    return bool(getattr(model, "is_secret", False))


def secret_fields(model) -> frozenset[str]:
    return frozenset(getattr(model, "secret_fields", ()))


def reaches_secret(model, path: str) -> bool:
    """True when the lookup or ordering ``path`` (``table__tournament__name__icontains``) touches a
    secret: a secret model, a secret field, or a field, transform or JSON key with a secret name."""
    parts = [part for part in path.lstrip("-?^=@").split(LOOKUP_SEP) if part]
    current = model
    for part in parts:
        if part.lower() in SECRET_NAMES:
            return True
        if current is None:  # past a plain field: transforms, lookups or JSON keys (names checked)
            continue
        name = current._meta.pk.name if part == "pk" else part
        try:
            field = current._meta.get_field(name)
        except FieldDoesNotExist:
            current = None
            continue
        if field.name in secret_fields(current) or field.name.lower() in SECRET_NAMES:
            return True
        related = field.related_model if field.is_relation else None
        if related is not None and is_secret_model(related):
            return True
        current = related if related is not None and related != "self" else None
    return False


def _filter_name(item) -> str | None:
    if isinstance(item, list | tuple):
        return item[0]
    return item if isinstance(item, str) else None  # a SimpleListFilter class names its own parameter


def _expression_names(expression) -> list[str]:
    """The field names an ordering expression refers to (``F("x")``, ``OrderBy(F("x"))``, ...)."""
    name = getattr(expression, "name", None)
    names = [name] if isinstance(name, str) else []
    for source in getattr(expression, "get_source_expressions", list)():
        names += _expression_names(source)
    return names


class GuardedChangeList(ChangeList):
    """A changelist that cannot be sorted (``?o=``) by a column whose order field reaches a secret."""

    def get_ordering_field(self, field_name):
        order_field = super().get_ordering_field(field_name)
        names = [order_field] if isinstance(order_field, str) else _expression_names(order_field)
        if any(reaches_secret(self.model, name) for name in names):
            return None
        return order_field

    def get_results(self, request):
        """A lookup the database cannot run (a JSON ``contains`` on SQLite, a regular expression on a
        number on PostgreSQL) is a wrong lookup (the admin's "?e=1" page), never a server error."""
        try:
            with transaction.atomic():
                super().get_results(request)
                len(self.result_list)  # run the page's query here, inside the savepoint
        except (DatabaseError, TypeError, ValueError) as error:
            raise IncorrectLookupParameters(error) from error


class SecretLookupGuard:
    """Mixed into every registered ModelAdmin by ``GuardedAdminSite.register``."""

    def lookup_allowed(self, lookup, value, request=None):
        if reaches_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_search_fields(self, request):
        return [f for f in super().get_search_fields(request) if not reaches_secret(self.model, f)]

    def get_list_filter(self, request):
        return [
            item
            for item in super().get_list_filter(request)
            if not (_filter_name(item) and reaches_secret(self.model, _filter_name(item)))
        ]

    def get_ordering(self, request):
        return [
            f
            for f in (super().get_ordering(request) or ())
            if not (isinstance(f, str) and reaches_secret(self.model, f))
        ]

    def get_sortable_by(self, request):
        return [
            f
            for f in super().get_sortable_by(request)
            if not (isinstance(f, str) and reaches_secret(self.model, f))
        ]

    def get_changelist(self, request, **kwargs):
        return GuardedChangeList


def guarded(admin_class: type) -> type:
    """``admin_class`` with the guard in front of it (itself when it already has it)."""
    if issubclass(admin_class, SecretLookupGuard):
        return admin_class
    return type(
        admin_class.__name__, (SecretLookupGuard, admin_class), {"__module__": admin_class.__module__}
    )


class GuardedAdminSite(admin.AdminSite):
    """The project's admin site: every ModelAdmin registered on it is guarded."""

    def register(self, model_or_iterable, admin_class=None, **options):
        super().register(model_or_iterable, guarded(admin_class or admin.ModelAdmin), **options)
