"""The staff roles as Django groups: a director, a floor person, the registration desk and deck prep.

- **Director** (staff): runs the tournament from the console and the API, and may correct hands
  (``dealing.change_hand``); never sees a running hand's deck.
- **Floor** (staff): seating, corrections, busts and chip counts (``dealing.change_hand``).
- **Registration desk** (staff): entries and seat cards only.
- **Deck prep** (not staff): sees a running hand's seed, deck order and hole cards
  (``dealing.view_deck``, through the API's deck endpoint), and nothing else: no console, no writes.

``ensure_roles()`` makes the groups (again, idempotently) with these permissions; the demo gives one
user to each (``screens.demo``).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.db import transaction

# The names, the capability map and the decisions live in the config leaves, so every app's API
# reads the same map; they are re-exported here for the console.
from config.permissions import capabilities_of, may, refusal, roles_of
from config.roles import (
    CAPABILITIES,
    CAPABILITY_LABELS,
    DECK_PREP,
    DESK,
    DIRECTOR,
    FLOOR,
    ROLE_LABELS,
    STAFF,
)

__all__ = [
    "CAPABILITIES",
    "CAPABILITY_LABELS",
    "DECK_PREP",
    "DESK",
    "DIRECTOR",
    "FLOOR",
    "ROLE_LABELS",
    "ROLE_NAMES",
    "STAFF",
    "capabilities_of",
    "ensure_roles",
    "may",
    "opens_console",
    "refusal",
    "roles_of",
    "set_role",
]

APPS = ("tournaments", "tables", "dealing", "screens")


def _permissions(role: str):
    everything = Permission.objects.filter(content_type__app_label__in=APPS)
    if role == DIRECTOR:
        return everything.exclude(content_type__app_label="dealing", codename="view_deck")
    if role == DESK:
        return Permission.objects.filter(
            content_type__app_label="tournaments",
            codename__in=["view_entry", "view_player", "view_tournament"],
        )
    if role == FLOOR:
        return Permission.objects.filter(
            content_type__app_label="dealing", codename__in=["change_hand", "view_hand", "view_handevent"]
        )
    return Permission.objects.filter(
        content_type__app_label="dealing", codename__in=["view_deck", "view_hand", "view_handevent"]
    )


def ensure_roles() -> dict[str, Group]:
    """The four groups with exactly their permissions."""
    groups = {}
    for role in (DIRECTOR, FLOOR, DESK, DECK_PREP):
        group, _created = Group.objects.get_or_create(name=role)
        group.permissions.set(_permissions(role))
        groups[role] = group
    return groups


# The areas the tournament console's own page holds; a role with none of them (the registration
# desk) has the desk page as its console.
CONSOLE_AREAS = ("clock", "setup", "payouts", "devices", "seating", "busts", "chip_counts", "corrections")


def opens_console(user) -> bool:
    """Whether the tournament console page is this user's page, not just the registration desk."""
    return any(may(user, area) for area in CONSOLE_AREAS)


# The names a person types for each role (``manage.py staff_role ana floor``), as the demo's users.
ROLE_NAMES = {"director": DIRECTOR, "floor": FLOOR, "desk": DESK, "deckprep": DECK_PREP}


@transaction.atomic
def set_role(user, role: str):
    """Give this account exactly one role: its group (other role groups leave, other groups stay)
    and the staff flag that role has (deck prep is not staff: no console, no writes)."""
    groups = ensure_roles()
    user.groups.remove(*[group for name, group in groups.items() if name != role])
    user.groups.add(groups[role])
    user.is_staff = STAFF[role]
    user.save(update_fields=["is_staff"])
    user.__dict__.pop("_console_roles", None)  # the roles read before this change
    return user
