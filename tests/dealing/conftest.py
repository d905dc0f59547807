"""Fixtures for the dealing tests: a running tournament with one table, a master seed for
deterministic decks, staff, floor and deck-prep users, and a tablet-like API client."""

import itertools
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from rest_framework.test import APIClient

from dealing.models import Hand, HandEvent
from tables.models import Seat, Table
from tournaments.models import BlindStructure, Entry, Level, Player, Tournament

MASTER_SEED = bytes(range(32))


def make_tournament(
    *,
    game="courchevel",
    betting="no_limit",
    stacks=(1000, 1000, 1000),
    seats=None,
    sb=10,
    bb=20,
    ante=0,
    ante_kind="none",
    table_size=8,
    button_seat=1,
    seeding="master",
    smallest_chip=1,
    extra_entries=0,
    name="Cup",
):
    """A running tournament, one table with ``stacks`` seated at ``seats`` (default 1, 2, 3 ...)."""
    structure = BlindStructure.objects.create(name=f"{name} blinds", betting=betting)
    fixed = betting == "fixed_limit"
    Level.objects.create(
        structure=structure,
        order=0,
        duration_minutes=30,
        small_blind=sb,
        big_blind=bb,
        ante=ante,
        ante_kind=ante_kind,
        small_bet=bb if fixed else 0,
        big_bet=2 * bb if fixed else 0,
    )
    Level.objects.create(
        structure=structure,
        order=1,
        duration_minutes=30,
        small_blind=2 * sb,
        big_blind=2 * bb,
        small_bet=2 * bb if fixed else 0,
        big_bet=4 * bb if fixed else 0,
    )
    tournament = Tournament.objects.create(
        name=name,
        game=game,
        betting=betting,
        starting_stack=1000,
        structure=structure,
        seats_per_table=table_size,
        status=Tournament.Status.RUNNING,
        seeding=seeding,
        master_seed=MASTER_SEED if seeding == "master" else None,
        smallest_chip=smallest_chip,
        level_index=0,
        level_started_at=timezone.now() - timedelta(minutes=1),
    )
    table = Table.objects.create(tournament=tournament, number=1, seats=table_size, button_seat=button_seat)
    for number in range(1, table_size + 1):
        Seat.objects.create(table=table, number=number)
    seats = seats or list(range(1, len(stacks) + 1))
    for seat, chips in zip(seats, stacks, strict=True):
        player = Player.objects.create(name=f"P{seat}")
        entry = Entry.objects.create(tournament=tournament, player=player, chips=chips)
        Seat.objects.filter(table=table, number=seat).update(entry=entry)
    for i in range(extra_entries):  # players at other (not modelled) tables: keeps the field larger
        player = Player.objects.create(name=f"Elsewhere {i}")
        Entry.objects.create(tournament=tournament, player=player, chips=1000)
    return tournament, table


def chips_by_seat(table) -> dict[int, int]:
    return {
        s.number: s.entry.chips
        for s in Seat.objects.filter(table=table, entry__isnull=False).select_related("entry")
    }


def world(table) -> tuple:
    """Everything an error must leave unchanged: events, hands, chips, table positions."""
    table = Table.objects.get(pk=table.pk)
    return (
        list(
            HandEvent.objects.filter(hand__table=table)
            .order_by("hand", "seq")
            .values_list("hand_id", "seq", "type", "payload")
        ),
        list(
            Hand.objects.filter(table=table).order_by("number").values_list("number", "status", "state_seq")
        ),
        sorted(
            Entry.objects.filter(tournament=table.tournament).values_list("pk", "chips", "status", "place")
        ),
        (table.button_seat, table.big_blind_seat, table.hand_in_progress),
    )


_ids = itertools.count(1)


class Tablet:
    """A dealer tablet: remembers the last seq it saw and makes client_action_ids."""

    def __init__(self, client, hand_id):
        self.client = client
        self.hand_id = hand_id
        self.seq = None

    def refresh(self):
        data = self.client.get(f"/api/hands/{self.hand_id}/").json()
        self.seq = data["seq"]
        return data

    def send(self, body, *, client_action_id=None, expected_seq=None):
        if self.seq is None:
            self.refresh()
        payload = {
            "client_action_id": client_action_id or f"cid-{next(_ids)}",
            "expected_seq": self.seq if expected_seq is None else expected_seq,
            **body,
        }
        response = self.client.post(f"/api/hands/{self.hand_id}/actions/", payload, format="json")
        if response.status_code == 200:
            self.seq = response.json()["hand"]["seq"]
        return response

    def act(self, seat, action, amount=None, **kw):
        body = {"type": "action", "seat": seat, "action": action}
        if amount is not None:
            body["amount"] = amount
        return self.send(body, **kw)

    def state(self):
        return self.refresh()["state"]


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("dealer", is_staff=True)


@pytest.fixture
def floor(django_user_model):
    user = django_user_model.objects.create_user("floor", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_hand"))
    return user


@pytest.fixture
def deck_prep(django_user_model):
    user = django_user_model.objects.create_user("deckprep", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_deck"))
    return user


@pytest.fixture
def api(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.fixture
def anon():
    return APIClient()


def call_down(state):
    """Check when possible, else call: the hand goes to showdown with everyone in."""
    options = state["options"]
    return {"type": "action", "seat": state["to_act"], "action": "check" if not options["call"] else "call"}


class RaiseOnce:
    """The first player able to raise or bet does so by the minimum; everyone else calls or checks."""

    def __init__(self):
        self.done = False

    def __call__(self, state):
        options = state["options"]
        if not self.done and options["raise_kind"] and options["min_to"] is not None:
            self.done = True
            return {
                "type": "action",
                "seat": state["to_act"],
                "action": options["raise_kind"],
                "amount": options["min_to"],
            }
        return call_down(state)


def play_out(tablet, policy=call_down, *, cards_for=None, limit=200):
    """Drive the hand to its end through the API; ``cards_for(state)`` answers board and show requests
    (entered-card mode). Returns the final hand data."""
    data = tablet.refresh()
    for _ in range(limit):
        state = data["state"]
        if data["status"] != "running":
            return data
        if state["phase"] == "action":
            body = policy(state)
        else:
            body = cards_for(state)
        response = tablet.send(body)
        assert response.status_code == 200, response.json()
        data = response.json()["hand"]
    raise AssertionError("the hand did not end")
