"""The staff roles as Django groups: a director, a floor person and deck prep, none a superuser.

- **Director** (staff): runs the tournament from the console and the API, and may correct hands
  (``dealing.change_hand``); never sees a running hand's deck.
- **Floor** (staff): the console, dealing, and voiding or correcting a hand (``dealing.change_hand``).
- **Deck prep** (not staff): sees a running hand's seed, deck order and hole cards
  (``dealing.view_deck``, through the API's deck endpoint), and nothing else: no console, no writes.

``ensure_roles()`` makes the groups (again, idempotently) with these permissions; the demo gives one
user to each (``screens.demo``).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.utils.translation import gettext_lazy as _

DIRECTOR = "Director"
FLOOR = "Floor"
DECK_PREP = "Deck prep"

APPS = ("tournaments", "tables", "dealing", "screens")

ROLE_LABELS = {
    DIRECTOR: _("director"),
    FLOOR: _("floor"),
    DECK_PREP: _("deck prep"),
}


def _permissions(role: str):
    everything = Permission.objects.filter(content_type__app_label__in=APPS)
    if role == DIRECTOR:
        return everything.exclude(content_type__app_label="dealing", codename="view_deck")
    if role == FLOOR:
        return Permission.objects.filter(
            content_type__app_label="dealing", codename__in=["change_hand", "view_hand", "view_handevent"]
        )
    return Permission.objects.filter(
        content_type__app_label="dealing", codename__in=["view_deck", "view_hand", "view_handevent"]
    )


def ensure_roles() -> dict[str, Group]:
    """The three groups with exactly their permissions."""
    groups = {}
    for role in (DIRECTOR, FLOOR, DECK_PREP):
        group, _created = Group.objects.get_or_create(name=role)
        group.permissions.set(_permissions(role))
        groups[role] = group
    return groups


# Whether each role is tournament staff (config.permissions.is_staff: the console and API writes).
STAFF = {DIRECTOR: True, FLOOR: True, DECK_PREP: False}
