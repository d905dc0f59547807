"""The end of a hand: stacks back to the entries, busts with places (R8.8, R8.6), seats released and
balancing (R8.3), all in the transaction of the last action."""

import pytest
from django.db import models

from dealing.models import Hand
from tables.models import Move, Seat
from tests.factories import make_table
from tournaments.models import Entry

from .tablet import Tablet, play_out


def all_in(state):
    if state["phase"] == "face_up":
        return {"type": "face_up"}  # R6.2: every hand turned up before the run-out
    if state.get("deal_next"):
        return {"type": "deal"}
    options = state["options"]
    if options["raise_kind"]:
        return {"type": "action", "seat": state["to_act"], "action": "all_in"}
    return {"type": "action", "seat": state["to_act"], "action": "call" if options["call"] else "check"}


@pytest.mark.django_db
def test_busts_get_places_and_the_tables_are_balanced(
    api, django_capture_on_commit_callbacks, balance_task_inline
):
    """Everyone all-in: the players left with no chips are out (R8.8); with several out on one hand the
    one with more chips at the start finishes higher (R8.6); their seats are freed and the short table
    gets a player from the long one (R8.3), by the balance task once the hand's end is committed."""
    tournament, table = make_table(stacks=(100, 150, 200, 1000), table_size=5, other_tables=(5, 5), plan={})
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    balance_task_inline.clear()  # the set-up's own balancing
    with django_capture_on_commit_callbacks(execute=True):
        final = play_out(Tablet(api, hand_id), all_in)
    assert balance_task_inline == [tournament.pk]
    assert final["status"] == "finished"

    hand = Hand.objects.get(pk=hand_id)
    result = final["state"]["result"]
    busted_seats = result["busted"]
    assert len(busted_seats) >= 2, result  # this master seed busts several players at once
    start = {int(seat): data["chips"] for seat, data in hand.seats.items()}
    busted = {seat: Entry.objects.get(pk=hand.seats[str(seat)]["entry"]) for seat in busted_seats}
    assert all(e.status == "busted" and e.chips == 0 for e in busted.values())
    assert all(e.bust_hand_label == hand.label for e in busted.values())
    # 14 players were in before the hand: the k busts take places 14-k+1 .. 14, more starting chips higher
    places = sorted((e.place, -start[seat]) for seat, e in busted.items())
    assert [p for p, _ in places] == list(range(14 - len(busted) + 1, 15))
    assert [s for _, s in places] == sorted(s for _, s in places)
    # seats freed, the survivors' stacks written back
    assert not Seat.objects.filter(entry__in=busted.values()).exists()
    for stack in result["stacks"]:
        if stack["stack"]:
            assert Entry.objects.get(pk=hand.seats[str(stack["seat"])]["entry"]).chips == stack["stack"]
    # balancing (R8.3/R8.4): the short table gets players or is broken up
    assert (
        Move.objects.filter(tournament=tournament)
        .filter(models.Q(from_table=table) | models.Q(to_table=table))
        .exists()
    )
    assert sum(Entry.objects.filter(tournament=tournament).values_list("chips", flat=True)) == 1450 + 10000


@pytest.mark.django_db
def test_last_two_players_heads_up_to_the_winner(api):
    """When the hand leaves one player, the tournament is won: the loser takes 2nd (R8.8)."""
    tournament, table = make_table(stacks=(300, 300))
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    final = play_out(Tablet(api, hand_id), all_in)
    stacks = {s["seat"]: s["stack"] for s in final["state"]["result"]["stacks"]}
    tournament.refresh_from_db()
    if 0 in stacks.values():
        loser = Entry.objects.get(tournament=tournament, status="busted")
        assert loser.place == 2
        assert tournament.status == "finished"
    else:  # a split pot: both play on
        assert set(stacks.values()) == {300}
