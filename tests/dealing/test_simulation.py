"""A one-table tournament played to its winner through the services with random legal actions, random
floor corrections and lost snapshots: chips are conserved hand after hand (R6.7), the big blind moves
one player clockwise every hand (R3.6), busts take places down to the winner (R8.8), and every hand
verifies from its seed."""

import contextlib
import random

import pytest

from dealing import services
from dealing.models import Hand
from dealing.verification import verify_tournament
from tables.models import Seat
from tests.factories import make_table
from tournaments.models import Entry


def waits_for_the_dealer(view: dict) -> bool:
    """An input is due: a betting action, the hands turned face up (R6.2) or a street of the run-out."""
    return view["to_act"] is not None or view["phase"] == "face_up" or bool(view.get("deal_next"))


def random_input(rng: random.Random, view: dict) -> dict:
    if view["phase"] == "face_up":
        return {"type": "face_up"}
    if view.get("deal_next"):
        return {"type": "deal"}
    options = view["options"]
    seat = view["to_act"]
    roll = rng.random()
    if options["raise_kind"] and roll < 0.35:
        low, high = options["min_to"], options["max_to"]
        amount = high if rng.random() < 0.3 else rng.randint(low, max(low, min(high, low * 3)))
        return {"type": "action", "seat": seat, "action": options["raise_kind"], "amount": amount}
    if options["call"] and roll < 0.5:
        return {"type": "action", "seat": seat, "action": "fold"}
    return {"type": "action", "seat": seat, "action": "call" if options["call"] else "check"}


def next_big_blind(seats: list[int], previous: int) -> int:
    later = [s for s in seats if s > previous]
    return later[0] if later else seats[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "game, betting, seed",
    [
        ("courchevel", "no_limit", 1),
        ("courchevel_hilo", "pot_limit", 2),
        ("courchevel_hilo", "fixed_limit", 3),
    ],
)
def test_random_tournament_to_the_winner(game, betting, seed, floor, staff):
    rng = random.Random(seed)
    # fixed limit moves chips slowly: shorter stacks keep the run short
    stacks = (100, 60, 140, 80, 120) if betting == "fixed_limit" else (200, 120, 260, 160, 220)
    tournament, table = make_table(
        game=game, betting=betting, stacks=stacks, seats=(1, 2, 4, 6, 7), sb=10, bb=20
    )
    total = sum(stacks)
    previous_big_blind = None
    for number in range(1, 200):
        tournament.refresh_from_db()
        if tournament.status == "finished":
            break
        in_seats = sorted(
            Seat.objects.filter(table=table, entry__isnull=False).values_list("number", flat=True)
        )
        hand = services.start_next_hand(table, actor=staff)
        if previous_big_blind is not None and len(in_seats) > 2:
            assert hand.config["big_blind_seat"] == next_big_blind(in_seats, previous_big_blind)  # R3.6
        previous_big_blind = hand.config["big_blind_seat"]
        steps = 0
        while hand.status == "running":
            steps += 1
            assert steps < 200
            view = services.snapshot(hand)["full"]
            if rng.random() < 0.05 and waits_for_the_dealer(view) and steps > 1:
                with contextlib.suppress(services.HandConflict):
                    services.correct_last_action(
                        hand, actor=floor, reason="random correction", expected_seq=services.last_seq(hand)
                    )
            if rng.random() < 0.1:
                Hand.objects.filter(pk=hand.pk).update(state=None)  # a restart loses the cache
            hand.refresh_from_db()
            view = services.snapshot(hand)["full"]
            if not waits_for_the_dealer(view):
                break
            body = random_input(rng, view)
            services.apply_input(
                hand,
                body,
                expected_seq=services.last_seq(hand),
                client_action_id=f"{number}-{steps}",
                actor=staff,
            )
            hand.refresh_from_db()
        assert hand.status == "finished"
        chips = sum(Entry.objects.filter(tournament=tournament).values_list("chips", flat=True))
        assert chips == total  # R6.7 across hands
    else:
        pytest.fail("the tournament did not finish")

    tournament.refresh_from_db()
    assert tournament.status == "finished"
    places = sorted(Entry.objects.filter(tournament=tournament).values_list("place", flat=True))
    assert places[0] == 1 and max(places) <= 5
    winner = Entry.objects.get(tournament=tournament, place=1)
    assert winner.chips == total
    report = verify_tournament(tournament)
    assert report.ok, "\n".join(report.lines())
    assert len(report.hands) == Hand.objects.filter(table=table).count() >= 2
