"""Fixtures for the security tests: a running seeded hand with its secrets, and the floor user of the
penetration test (staff with every permission but ``dealing.view_deck``)."""

import os
import re
import select
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

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


ROOT = Path(__file__).resolve().parents[2]


def clean_env(**extra) -> dict:
    """The environment without the project's settings variables: the defaults, as ``make run`` has them."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    return {**base, "PYTHONUNBUFFERED": "1", **extra}


@dataclass
class DemoServer:
    base: str
    username: str = ""
    password: str = ""
    links: dict[str, str] = field(default_factory=dict)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_demo_server(tmp_dir: Path):
    """``manage.py serve --demo`` as ``make run`` starts it (no DJANGO_* variables), on a free port
    with its own database. Returns (the process, what it printed: the demo's sign-in and links)."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--demo", "--no-ticker", "--port", str(port)],
        cwd=ROOT,
        env=clean_env(DATABASE_URL=f"sqlite:///{tmp_dir / 'run.sqlite3'}"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    server = DemoServer(base=f"http://127.0.0.1:{port}")
    output = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1)
        if process.poll() is not None:
            raise AssertionError("".join(output) + process.stdout.read())
        if not ready:
            continue
        line = process.stdout.readline()
        output.append(line)
        signed = re.match(r"\s+sign in as\s+(\S+) / (\S+)", line)
        if signed and not getattr(server, "password", None):  # the first printed is the director
            server.username, server.password = signed.groups()
        link = re.match(r"\s{2}(.+?)\s+(http://\S+)$", line.rstrip())
        if link:
            server.links[link.group(1).strip()] = link.group(2)
        if "Director console" in line:
            break
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, server
        except OSError:
            time.sleep(0.2)
    raise AssertionError("serve did not listen: " + "".join(output))


def stop(process) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    process, server = start_demo_server(tmp_path_factory.mktemp("demo"))
    try:
        yield server
    finally:
        stop(process)
