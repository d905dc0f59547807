"""The demo loaded by ``manage.py serve --demo``: a Courchevel Hi/Lo tournament in progress.

24 players registered and seated by the draw, the clock running in level 2 with stacks spread as after
some play, and one user per role (``screens.roles``): "director", "floor", "desk" and "deckprep", none a
superuser, each with a fresh password (printed by ``serve``). Loading it again reuses the unfinished
demo tournament and only resets the passwords; each new set of demo links revokes the previous
demo devices.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models import Table
from tables.services import draw_seats
from tournaments import services
from tournaments.models import BlindStructure, Level, Player, Tournament
from tournaments.structures import install_templates

from . import roles
from .models import Device, DeviceKind
from .pairing import devices_changed, new_device, revoke_device

DEMO_NAME = "Courchevel Hi/Lo Demo"
DEMO_PLAYERS = [
    "Alice Martin",
    "Bruno Rossi",
    "Chloé Dubois",
    "Dimitri Papadopoulos",
    "Elena Ivanova",
    "Fabio Conti",
    "Gaëlle Bernard",
    "Hugo Lefèvre",
    "Irina Petrova",
    "Jorge García",
    "Katerina Nikolaou",
    "Luca Bianchi",
    "Marie Laurent",
    "Nikolai Smirnov",
    "Olivia Moreau",
    "Pablo Fernández",
    "Quentin Roux",
    "Rosa Martínez",
    "Sofia Georgiou",
    "Thomas Girard",
    "Ugo Ferrari",
    "Valérie Fontaine",
    "Walter Costa",
    "Yannis Kostas",
]


@dataclass
class Demo:
    tournament: Tournament
    username: str  # the director's
    password: str
    created: bool
    # (role label, username, password) of every demo user: the director, the floor, the desk, deck prep.
    users: list[tuple[str, str, str]] = field(default_factory=list)


# The demo's users, one per role (screens.roles), none a superuser.
DEMO_USERS = [
    ("director", roles.DIRECTOR),
    ("floor", roles.FLOOR),
    ("desk", roles.DESK),
    ("deckprep", roles.DECK_PREP),
]


def _users() -> list[tuple[str, str, str]]:
    """Each demo user in its one group with a fresh password; never a superuser."""
    groups = roles.ensure_roles()
    made = []
    for username, role in DEMO_USERS:
        password = secrets.token_urlsafe(9)
        user, _created = get_user_model().objects.get_or_create(username=username)
        user.is_staff = roles.STAFF[role]
        user.is_superuser = False
        user.set_password(password)
        user.save()
        user.user_permissions.clear()
        user.groups.set([groups[role]])
        made.append((str(roles.ROLE_LABELS[role]), username, password))
    return made


def _draw(tournament: Tournament) -> None:
    if not Table.objects.filter(tournament=tournament).exists():
        draw_seats(tournament)


@transaction.atomic
def load_demo() -> Demo:
    users = _users()
    _role, username, password = users[0]
    existing = Tournament.objects.filter(name=DEMO_NAME).exclude(status=Tournament.Status.FINISHED).first()
    if existing is not None:
        _draw(existing)
        return Demo(existing, username, password, created=False, users=users)
    # The shipped templates come with a data migration; put back any that were deleted since.
    install_templates(BlindStructure, Level)
    template = BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)
    tournament = services.create_tournament(
        structure=template,
        name=DEMO_NAME,
        game="courchevel_hilo",
        betting="pot_limit",
        starting_stack=20000,
        seats_per_table=8,
        buy_in=200,
        fee=20,
        guarantee=5000,
        late_registration_until_level=6,
        max_reentries=1,
        chip_denominations=[25, 100, 500, 1000, 5000, 25000],
        smallest_chip=25,
        seeding=Tournament.Seeding.MASTER,
    )
    services.open_registration(tournament)
    for name in DEMO_PLAYERS:
        player, _created = Player.objects.get_or_create(name=name)
        services.register(tournament, player)
    _draw(tournament)
    services.start_tournament(tournament)
    # In progress: level 1 is over and level 2 has been running for a few minutes.
    tournament.refresh_from_db()
    services.jump_to_level(tournament, 1)
    services.add_time(tournament, -int(timedelta(minutes=3).total_seconds()))
    tournament.refresh_from_db()
    tournament.started_at = timezone.now() - timedelta(minutes=23)
    tournament.save(update_fields=["started_at"])
    _earlier_hands(tournament)
    return Demo(tournament, username, password, created=True, users=users)


def _earlier_hands(tournament: Tournament) -> None:
    """Spread the stacks as 23 minutes of play would, in pairs so no chip is created or lost."""
    rng = random.Random(2026)
    entries = list(tournament.entries.order_by("pk"))
    rng.shuffle(entries)
    for winner, loser in zip(entries[::2], entries[1::2]):
        swing = rng.randrange(0, 56) * 250
        services.set_chips(winner, winner.chips + swing, reason="demo: earlier hands")
        services.set_chips(loser, loser.chips - swing, reason="demo: earlier hands")


def demo_links(tournament: Tournament, base_url: str) -> list[tuple[str, str]]:
    """Demo only: pair a clock screen and every table's tablet, and return labelled links that open
    them already paired. Each link carries its device token, so it is never offered outside a demo."""
    base = base_url.rstrip("/")
    links = []
    with transaction.atomic():
        # The links of an earlier demo stop working: its devices are revoked (audited, sockets closed).
        for old in Device.objects.filter(is_demo=True, revoked_at__isnull=True):
            revoke_device(old, reason=str(_("A new demo was started.")))
        device, token = new_device(
            kind=DeviceKind.CLOCK, tournament=tournament, table=None, label=str(_("Demo clock")), is_demo=True
        )
        links.append((str(_("Clock screen")), f"{base}/screen/{token}/"))
        tables = Table.objects.filter(tournament=tournament).order_by("number")
        for table in tables:
            if table.status == Table.Status.BROKEN:
                continue
            device, token = new_device(
                kind=DeviceKind.TABLET,
                tournament=tournament,
                table=table,
                label=str(_("Demo tablet, table %(number)s") % {"number": table.number}),
                is_demo=True,
            )
            links.append(
                (str(_("Table %(number)s tablet") % {"number": table.number}), f"{base}/screen/{token}/")
            )
        devices_changed(device)
    links.append((str(_("Director console")), f"{base}/console/{tournament.pk}/"))
    return links
