"""Fixtures for the security tests: a running seeded hand with its secrets, and the floor user of the
penetration test (staff with every permission but ``dealing.view_deck``)."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from dealing import services, vault
from dealing.engine import shuffled_deck
from dealing.models import Hand
from screens.models import DeviceKind
from screens.pairing import create_pairing_code, redeem_pairing_code
from tests.factories import make_table as make_tournament


@dataclass
class Secrets:
    hand: Hand
    seed: str  # hex
    holes: list[str]  # every hole card dealt, none shown
    burns: list[str]
    undealt: list[str]  # the next cards of the deck
    master_seed: str
    token_hash: str
    code_hash: str
    password_hash: str

    def values(self) -> list[str]:
        return [
            self.seed,
            *self.holes,
            *self.burns,
            *self.undealt,
            self.master_seed,
            self.token_hash,
            self.code_hash,
            self.password_hash,
        ]


@pytest.fixture
def floor_user(django_user_model):
    """Staff with every permission (every admin page, floor corrections) except the deck-prep role."""
    user = django_user_model.objects.create_user("floorboss", is_staff=True)  # an unusable password hash
    user.user_permissions.set(Permission.objects.exclude(codename="view_deck"))
    return user


@pytest.fixture
def floor_client(floor_user):
    client = Client()
    client.force_login(floor_user)
    return client


@pytest.fixture
def running_hand(floor_user) -> Secrets:
    tournament, table = make_tournament(stacks=(1000, 1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=floor_user)
    device, _token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=table).code
    )
    pending = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).pairing
    full = services.full_view(hand)
    holes = [card for player in full["players"] for card in player["cards"]]
    board = services.public_view(hand)["board"]
    deck = shuffled_deck(vault.seed_of(hand))
    undealt = [card for card in deck if card not in holes and card not in board and card not in full["burns"]]
    floor_user.refresh_from_db()
    return Secrets(
        hand=hand,
        seed=vault.seed_hex(hand),
        holes=holes,
        burns=list(full["burns"]),
        undealt=undealt[:6],
        master_seed=bytes(tournament.master_seed).hex(),
        token_hash=device.token_hash,
        code_hash=pending.code_hash,
        password_hash=floor_user.password,
    )
