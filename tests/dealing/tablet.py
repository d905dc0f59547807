"""The dealing tests' client side: a tablet that keeps its seq, policies that drive a hand to its end,
and what a refused request must leave unchanged."""

import itertools

from dealing import services
from dealing.models import Hand, HandEvent
from tables.models import Seat, Table
from tournaments.models import Entry


def act_in_turn(hand, *actions: str) -> None:
    """Each action by the seat to act, as its dealer taps it, straight through the dealing service."""
    for action in actions:
        hand.refresh_from_db()
        seat = services.public_view(hand)["options"]["seat"]
        services.apply_input(
            hand, {"type": "action", "seat": seat, "action": action}, expected_seq=hand.state_seq
        )
    hand.refresh_from_db()


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
        elif state["phase"] == "face_up":
            body = {"type": "face_up"}  # R6.2: an all-in, every hand turned up first
        elif state.get("deal_next"):
            body = {"type": "deal"}  # the seeded run-out, one street a tap
        else:
            body = cards_for(state)
        response = tablet.send(body)
        assert response.status_code == 200, response.json()
        data = response.json()["hand"]
    raise AssertionError("the hand did not end")
