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
from django.utils.translation import gettext_lazy as _

from config.permissions import is_staff

DIRECTOR = "Director"
FLOOR = "Floor"
DECK_PREP = "Deck prep"
DESK = "Registration desk"

APPS = ("tournaments", "tables", "dealing", "screens")

ROLE_LABELS = {
    DIRECTOR: _("director"),
    FLOOR: _("floor"),
    DECK_PREP: _("deck prep"),
    DESK: _("registration desk"),
}


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
    """The three groups with exactly their permissions."""
    groups = {}
    for role in (DIRECTOR, FLOOR, DESK, DECK_PREP):
        group, _created = Group.objects.get_or_create(name=role)
        group.permissions.set(_permissions(role))
        groups[role] = group
    return groups


# Whether each role is tournament staff (config.permissions.is_staff: the console and API writes).
STAFF = {DIRECTOR: True, FLOOR: True, DESK: True, DECK_PREP: False}


# What each console area needs, the one place that decides it. A superuser, or a staff member in no
# role group (an account made before the roles), counts as the director.
CAPABILITIES: dict[str, frozenset[str]] = {
    "clock": frozenset({DIRECTOR}),  # clock controls, announcements, floor PIN
    "setup": frozenset({DIRECTOR}),  # new tournament, structure, settings
    "payouts": frozenset({DIRECTOR}),  # payout table, deals
    "devices": frozenset({DIRECTOR}),  # pairing and revoking screens and tablets
    "entries": frozenset({DIRECTOR, DESK}),  # register, re-enter, rebuy, add-on, void, seat cards
    "seating": frozenset({DIRECTOR, FLOOR}),  # draw, moves, locks, tables, breaking order
    "busts": frozenset({DIRECTOR, FLOOR}),  # bust, undo bust, remove from the tournament
    "chip_counts": frozenset({DIRECTOR, FLOOR}),
    "corrections": frozenset({DIRECTOR, FLOOR}),  # void a hand, correct the last input
    "view": frozenset({DIRECTOR, FLOOR, DESK}),  # the console pages themselves, results
}


def roles_of(user) -> set[str]:
    """The console roles of a staff user (empty for anyone else)."""
    if not is_staff(user):
        return set()
    cached = getattr(user, "_console_roles", None)
    if cached is None:
        names = {name for name in user.groups.values_list("name", flat=True) if name in STAFF}
        if user.is_superuser or not names:
            names.add(DIRECTOR)
        cached = user._console_roles = frozenset(names)
    return set(cached)


def may(user, capability: str) -> bool:
    """Whether this user's role may use that console area (``CAPABILITIES``)."""
    return bool(roles_of(user) & CAPABILITIES[capability])


def capabilities_of(user) -> dict[str, bool]:
    """Every capability's answer for this user, for templates (``{% if can.seating %}``)."""
    mine = roles_of(user)
    return {name: bool(mine & allowed) for name, allowed in CAPABILITIES.items()}
