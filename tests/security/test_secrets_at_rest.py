"""Secrets at rest (docs/dealing.md): the seed, the full view, the hole cards, the burns and the deck
of a running hand live only in ``HandSecret``; no admin changelist lets a floor user (staff without
``dealing.view_deck``) ask yes/no questions about them through lookups, searches or ordering."""

import json
import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.exceptions import SuspiciousOperation
from django.db import models
from django.test import RequestFactory

from config.admin_guard import SecretLookupGuard, reaches_secret
from dealing.models import Hand, HandEvent, HandSecret

pytestmark = pytest.mark.django_db

NEVER = "(?!x)x"  # a regular expression that matches nothing
# JSON key paths that held (or could hold) a secret in the penetration test and after it.
KEY_PATHS = [
    "seed",
    "full",
    "full__seed",
    "full__burns",
    "full__players__0__cards",
    "full__players__0__cards__0",
    "players__0__cards",
    "players__0__cards__0",
    "players__1__cards__1",
    "burns",
    "burns__0",
    "burn",
    "cards",
    "cards__0",
    "deck",
    "deck__0",
]
REGISTERED = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def changelist_url(model) -> str:
    return f"/admin/{model._meta.app_label}/{model._meta.model_name}/"


def field_paths(model, depth: int = 2, prefix: str = ""):
    """Every lookup path from ``model``: its fields, JSON key paths into its JSON fields, and the fields
    of related models up to ``depth`` relations away (Django itself refuses a lookup across a relation
    that is not a list filter; these paths check that the guard keeps it that way)."""
    for field in model._meta.get_fields():
        path = prefix + field.name
        yield path
        if isinstance(field, models.JSONField):
            yield from (f"{path}__{key}" for key in (KEY_PATHS if not prefix else KEY_PATHS[:3]))
        elif field.is_relation and field.related_model is not None and depth > 1:
            yield from field_paths(field.related_model, depth - 1, f"{path}__")


def secret_paths(model) -> list[str]:
    """Paths to the hand secrets from ``model`` (through its hands, or its hand), if it has any."""
    prefixes = {
        Hand: ["secret__"],
        HandEvent: ["hand__secret__"],
        HandSecret: [""],
    }.get(model, [])
    for field in model._meta.get_fields():
        if field.is_relation and field.related_model is Hand and model is not HandEvent:
            prefixes.append(f"{field.name}__secret__")
    return [
        f"{prefix}{name}"
        for prefix in prefixes
        for name in ["seed", "state", *(f"state__{k}" for k in KEY_PATHS), "events", "events__1__cards__0"]
    ]


def outcome(response) -> tuple:
    """What a lookup tells the one who asks: the status, and for a list its row count (or the page a
    refused lookup redirects to)."""
    if response.status_code == 200:
        return 200, response.context["cl"].result_count
    return response.status_code, response.get("Location")


class Asker:
    """Asks one changelist many questions fast: the ModelAdmin's own view, without the middleware and
    without rendering the page (the answer is in the changelist it builds). A refused lookup raises
    DisallowedModelAdminLookup, which Django answers with a 400 (checked over HTTP above)."""

    def __init__(self, model, user):
        self.model_admin = admin.site._registry[model]
        self.url = changelist_url(model)
        self.user = user
        self.factory = RequestFactory()

    def request(self, params: dict):
        request = self.factory.get(self.url, params)
        request.user = self.user
        return request

    def changelist(self, params: dict):
        return self.model_admin.get_changelist_instance(self.request(params))

    def __call__(self, params: dict) -> tuple:
        try:
            response = self.model_admin.changelist_view(self.request(params))
        except SuspiciousOperation:
            return 400, None
        if response.status_code == 200:
            return (
                200,
                response.context_data["cl"].result_count,
                response.context_data["cl"].full_result_count,
            )
        return response.status_code, response.get("Location")


def any_of(values) -> str:
    return r"\b(" + "|".join(re.escape(value) for value in values) + r")\b"


def test_every_registered_admin_is_guarded():
    assert REGISTERED
    for model, model_admin in REGISTERED:
        assert isinstance(model_admin, SecretLookupGuard), model
    assert HandSecret not in admin.site._registry  # the secrets have no admin page at all


def test_no_admin_filters_searches_or_sorts_by_a_secret(rf, floor_user):
    request = rf.get("/admin/")
    request.user = floor_user
    for model, model_admin in REGISTERED:
        names = [
            *model_admin.get_search_fields(request),
            *(
                f if isinstance(f, str) else f[0]
                for f in model_admin.get_list_filter(request)
                if not isinstance(f, type)
            ),
            *(f for f in model_admin.get_ordering(request) if isinstance(f, str)),
            *(f for f in model_admin.get_sortable_by(request) if isinstance(f, str)),
        ]
        for name in names:
            assert not reaches_secret(model, name), (model, name)
        for column in model_admin.get_list_display(request):
            order = getattr(column, "admin_order_field", None) or getattr(
                getattr(model_admin, str(column), None), "admin_order_field", None
            )
            assert not (isinstance(order, str) and reaches_secret(model, order)), (model, column)


@pytest.mark.parametrize(
    "url",
    [
        "/admin/dealing/hand/?id__exact={hand}&state__full__players__0__cards__0=Ah",
        "/admin/dealing/hand/?id__exact={hand}&state__full__seed__regex=^[0-7]",
        "/admin/dealing/hand/?state__players__0__cards__0=Ah",
        "/admin/dealing/hand/?state__burns__0=Ah",
        "/admin/dealing/hand/?secret__seed__regex=^[0-7]",
        "/admin/dealing/hand/?secret__state__players__0__cards__0=Ah",
        "/admin/dealing/hand/?secret__events__icontains=Ah",
        "/admin/dealing/hand/?secret__isnull=False",
        "/admin/dealing/handevent/?payload__cards__0=Ah",
        "/admin/dealing/handevent/?type=hole&payload__cards__contains=Ah",
        "/admin/dealing/handevent/?payload__burn=Ah",
        "/admin/dealing/handevent/?hand__secret__seed__gt=0",
        "/admin/tables/table/?hands__secret__seed__regex=^0",
        "/admin/tournaments/tournament/?master_seed__gt=00",
        "/admin/tournaments/tournament/?MASTER_SEED__isnull=False",
        "/admin/tables/seatdraw/?seed__regex=^0",
        "/admin/screens/device/?token_hash__startswith=a",
        "/admin/screens/pairingcode/?code_hash__startswith=a",
        "/admin/auth/user/?password__startswith=pbkdf2",
        "/admin/auth/user/?device__token_hash__startswith=a",
    ],
)
def test_the_penetration_tests_lookups_are_refused(floor_client, running_hand, url):
    before = (list(HandSecret.objects.values_list("pk", "state_seq")), HandEvent.objects.count())
    response = floor_client.get(url.format(hand=running_hand.hand.pk))
    assert response.status_code == 400
    assert b"Traceback" not in response.content and running_hand.seed.encode() not in response.content
    assert (list(HandSecret.objects.values_list("pk", "state_seq")), HandEvent.objects.count()) == before


@pytest.mark.parametrize(
    "model", [model for model, _admin in REGISTERED], ids=[model._meta.label for model, _admin in REGISTERED]
)
def test_no_changelist_learns_a_secret_from_any_lookup(floor_client, floor_user, running_hand, model):
    """Every field and JSON key path (and the fields of related models), with exact, containment and
    regular-expression lookups: the answer with the secret is the answer with a value that cannot match."""
    url = changelist_url(model)
    assert floor_client.get(url).status_code == 200  # the floor user may open this changelist
    ask = Asker(model, floor_user)
    assert ask({})[0] == 200
    # One regular expression matches any secret (the seed, every hole card, burn and undealt card, the
    # master seed, the device token hash, the pending pairing code's hash, the password hash).
    secret, impossible = any_of(running_hand.values()), NEVER
    paths = sorted(set(field_paths(model)) | set(secret_paths(model)))
    for path in paths:
        assert ask({f"{path}__regex": secret}) == ask({f"{path}__regex": impossible}), path
    # Exact and containment lookups on the model's own fields and key paths, one secret at a time.
    for path in sorted(set(field_paths(model, depth=1)) | set(secret_paths(model))):
        for lookup, value in (
            ("", running_hand.holes[0]),
            ("", running_hand.burns[0]),
            ("__contains", running_hand.seed),
        ):
            assert ask({f"{path}{lookup}": value}) == ask({f"{path}{lookup}": "Zz"}), (path, lookup)


@pytest.mark.parametrize(
    "model", [model for model, _admin in REGISTERED], ids=[model._meta.label for model, _admin in REGISTERED]
)
def test_no_changelist_search_finds_a_secret(floor_client, running_hand, model):
    url = changelist_url(model)
    baseline = outcome(floor_client.get(url, {"q": "zz-never-zz"}))
    # The long secrets (a card's two letters also occur in hex digests such as a seed commitment: no
    # search field reaches the cards, test_no_admin_filters_searches_or_sorts_by_a_secret).
    for value in [v for v in running_hand.values() if len(v) > 2]:
        assert outcome(floor_client.get(url, {"q": value})) == baseline, value


@pytest.mark.parametrize(
    "model", [model for model, _admin in REGISTERED], ids=[model._meta.label for model, _admin in REGISTERED]
)
def test_no_changelist_sorts_by_a_secret(running_hand, model, rf, floor_user):
    """Sorting by any column (``?o=``) is by a public field (or not at all), and never fails."""
    ask = Asker(model, floor_user)
    request = rf.get("/admin/")
    request.user = floor_user
    model_admin = admin.site._registry[model]
    list_display = model_admin.get_list_display(request)
    changelist = ask.changelist({})
    for index, column in enumerate(list_display):
        order_field = changelist.get_ordering_field(column)
        assert not (isinstance(order_field, str) and reaches_secret(model, order_field)), (model, column)
        for sign in ("", "-"):
            assert ask({"o": f"{sign}{index}"})[0] == 200


def _dump(value) -> str:
    return json.dumps(
        value, default=lambda v: bytes(v).hex() if isinstance(v, bytes | memoryview) else str(v)
    )


def test_only_the_hand_secrets_hold_a_running_hands_secrets(running_hand):
    """Every row of every table but HandSecret, as stored: no seed, hole card, burn or deck order."""
    hand_secrets = [running_hand.seed, *running_hand.holes, *running_hand.burns]
    for model in apps.get_models():
        if model is HandSecret:
            continue
        for row in model.objects.values():
            text = _dump(row)
            found = [s for s in hand_secrets if f'"{s}"' in text or (len(s) > 8 and s in text)]
            assert not found, (model._meta.label, found, row)
    secret = HandSecret.objects.get(hand=running_hand.hand)
    assert bytes(secret.seed).hex() == running_hand.seed
    assert {c for p in secret.state["players"] for c in p["cards"]} == set(running_hand.holes)


def test_a_hole_event_is_stored_blank_and_the_hand_row_holds_the_public_view(running_hand):
    hand = Hand.objects.get(pk=running_hand.hand.pk)
    assert "seed" not in hand.state and "burns" not in hand.state
    assert all(player["cards"] is None for player in hand.state["players"])
    holes = HandEvent.objects.filter(hand=hand, type="hole")
    assert holes.count() == 4
    assert all(set(e.payload) == {"type", "seat", "cards"} and e.payload["cards"] is None for e in holes)
    dealt = HandSecret.objects.get(hand=hand).events
    assert sorted(c for e in holes for c in dealt[str(e.seq)]["cards"]) == sorted(running_hand.holes)
