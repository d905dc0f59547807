"""The staff roles and what each may do: the one map every app reads (a leaf: it imports no app).

The names are the Django groups that ``screens.roles.ensure_roles`` makes; the map says which console
areas and API writes each role opens. ``config.permissions`` decides with it (``may``), so the
console's views and templates and every app's API answer the same.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

DIRECTOR = "Director"
FLOOR = "Floor"
DECK_PREP = "Deck prep"
DESK = "Registration desk"

ROLE_LABELS = {
    DIRECTOR: _("director"),
    FLOOR: _("floor"),
    DECK_PREP: _("deck prep"),
    DESK: _("registration desk"),
}

# Whether each role is tournament staff (config.permissions.is_staff: the console and API writes).
STAFF = {DIRECTOR: True, FLOOR: True, DESK: True, DECK_PREP: False}


# What each console area and API write needs. A superuser, or a staff member in no role group (an
# account made before the roles), counts as the director.
CAPABILITIES: dict[str, frozenset[str]] = {
    "clock": frozenset({DIRECTOR}),  # clock controls, announcements, floor PIN, start and finish
    "setup": frozenset({DIRECTOR}),  # new tournament, structure, settings, events, simulation
    "payouts": frozenset({DIRECTOR}),  # payout table, deals
    "devices": frozenset({DIRECTOR}),  # pairing and revoking screens and tablets
    "entries": frozenset({DIRECTOR, DESK}),  # register, re-enter, rebuy, add-on, void, seat cards
    "seating": frozenset({DIRECTOR, FLOOR}),  # draw, moves, locks, tables, breaking order
    "busts": frozenset({DIRECTOR, FLOOR}),  # bust, undo bust, remove from the tournament
    "chip_counts": frozenset({DIRECTOR, FLOOR}),  # chip counts, bags, the color-up (R8.7)
    "corrections": frozenset({DIRECTOR, FLOOR}),  # void a hand, correct the last input, floor calls
    "hands": frozenset({DIRECTOR, FLOOR}),  # deal and act from a staff account (tablets act anyway)
    "view": frozenset({DIRECTOR, FLOOR, DESK}),  # the console pages themselves, results
}

# What a refusal says the role may not do (``config.permissions.refusal``).
CAPABILITY_LABELS = {
    "clock": _("run the clock"),
    "setup": _("set up the tournament"),
    "payouts": _("change the payouts"),
    "devices": _("pair or revoke devices"),
    "entries": _("register entries"),
    "seating": _("change the seating"),
    "busts": _("bust or remove players"),
    "chip_counts": _("enter chip counts"),
    "corrections": _("correct hands"),
    "hands": _("run hands"),
    "view": _("open the console"),
}
