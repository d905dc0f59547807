"""A full hand of each of the six games through the HTTP API, seeded and with entered cards."""

import pytest

from dealing import vault
from dealing.engine import shuffled_deck
from dealing.models import Hand, HandEvent
from dealing.verification import verify_hand
from tests.factories import make_table
from tournaments.models import Entry

from .tablet import RaiseOnce, Tablet, chips_by_seat, play_out

GAMES = [
    (game, betting)
    for game in ("courchevel", "courchevel_hilo")
    for betting in ("fixed_limit", "pot_limit", "no_limit")
]


@pytest.mark.django_db
@pytest.mark.parametrize("game, betting", GAMES)
def test_full_hand_of_each_game_through_the_api(api, game, betting):
    """R1: every one of the six games plays end to end: chips conserved (R6.7), stacks written back to
    the entries, the seed revealed and matching its commitment, and the hand verifies."""
    _tournament, table = make_table(
        game=game, betting=betting, stacks=(1000, 1500, 800, 1200), extra_entries=2
    )
    before = chips_by_seat(table)
    response = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 201, response.json()
    started = response.json()
    assert started["seed"] is None and len(started["seed_commitment"]) == 64
    assert started["state"]["game"] == game and started["state"]["betting"] == betting
    hand = Hand.objects.get(pk=started["id"])
    assert hand.config["cap_raises"] is True  # six players left in the tournament (R5.1)

    final = play_out(Tablet(api, hand.pk), RaiseOnce())

    assert final["status"] == "finished"
    result = final["state"]["result"]
    after = chips_by_seat(table)
    assert sum(after.values()) == sum(before.values())  # R6.7
    assert after == {s["seat"]: s["stack"] for s in result["stacks"]}
    assert any(s["net"] != 0 for s in result["stacks"])  # a pot was won
    hand.refresh_from_db()
    assert final["seed"] == vault.seed_of(hand).hex()
    assert verify_hand(hand).ok
    # the recorded hole cards are the top of the deck from the revealed seed
    deck = shuffled_deck(bytes.fromhex(final["seed"]))
    secrets = vault.dealt_events(hand)  # the log keeps them blank; the hand's secrets keep them
    dealt = [
        c for e in HandEvent.objects.filter(hand=hand, type="hole") for c in secrets[str(e.seq)]["cards"]
    ]
    assert sorted(dealt) == sorted(deck[:20])
    assert final["state"]["board"] and len(final["state"]["board"]) == 5
    if game == "courchevel_hilo":
        assert all(p["share"] in ("pot", "high", "low") for pot in result["pots"] for p in pot["awards"])
    table.refresh_from_db()
    assert not table.hand_in_progress
    assert (table.button_seat, table.big_blind_seat) == (
        hand.config["button_seat"],
        hand.config["big_blind_seat"],
    )


@pytest.mark.django_db
def test_entered_cards_hand_through_the_api(api):
    """R4 entered mode: the dealer enters the board (1, 2, 1, 1 cards, R4.2/R4.4) and the hands shown in
    showdown order (R6.2); no seed exists, and a card already used is refused with 422."""
    _tournament, table = make_table(game="courchevel_hilo", betting="pot_limit", stacks=(500, 500, 500))
    response = api.post("/api/hands/", {"table": table.pk, "deal_mode": "entered"}, format="json")
    assert response.status_code == 201, response.json()
    hand_id = response.json()["id"]
    assert response.json()["seed_commitment"] == ""
    board = iter([["Ah"], ["2d", "3c"], ["9s"], ["Kd"]])
    hands = {
        1: ["4h", "6d", "Qc", "Qd", "Jh"],
        2: ["6c", "7c", "8c", "Ts", "Js"],
        3: ["As", "Ac", "Kh", "Ks", "2s"],
    }

    tablet = Tablet(api, hand_id)
    used = tablet.send({"type": "board", "cards": ["Ah"]})
    assert used.status_code == 200
    again = tablet.send({"type": "board", "cards": ["Ah"]})
    assert again.status_code in (409, 422)
    next(board)

    def cards_for(state):
        if state["phase"] == "board":
            return {"type": "board", "cards": next(board)}
        return {"type": "show", "seat": state["to_show"], "cards": hands[state["to_show"]]}

    final = play_out(tablet, cards_for=cards_for)
    assert final["status"] == "finished"
    assert final["seed"] is None
    assert final["state"]["board"] == ["Ah", "2d", "3c", "9s", "Kd"]
    stacks = chips_by_seat(table)
    assert sum(stacks.values()) == 1500
    # seat 1 has the only low (5-4-3-2-A) and seat 3 trips aces: the pot is split high/low (R6.4)
    shares = {(a["seat"], a["share"]) for pot in final["state"]["result"]["pots"] for a in pot["awards"]}
    assert (1, "low") in shares and (3, "high") in shares
    assert verify_hand(Hand.objects.get(pk=hand_id)).ok


@pytest.mark.django_db
def test_next_hand_moves_the_big_blind_and_uses_the_level_in_force(api):
    """R3.6: the big blind moves one player clockwise every hand; R8.2: a new level applies from the
    next hand dealt after the clock reaches it; hand numbers go up per table."""
    from datetime import timedelta

    from django.utils import timezone

    tournament, table = make_table(stacks=(1000, 1000, 1000, 1000), extra_entries=1)
    first = api.post("/api/hands/", {"table": table.pk}, format="json").json()
    hand1 = Hand.objects.get(pk=first["id"])
    # the clock reaches level 2 while hand 1 runs: hand 1 keeps its blinds
    tournament.level_started_at = timezone.now() - timedelta(minutes=31)
    tournament.save(update_fields=["level_started_at"])
    play_out(Tablet(api, hand1.pk))
    second = api.post("/api/hands/", {"table": table.pk}, format="json").json()
    hand2 = Hand.objects.get(pk=second["id"])
    assert hand1.config["big_blind"] == 20 and hand2.config["big_blind"] == 40
    assert hand2.number == hand1.number + 1
    seats = [1, 2, 3, 4]
    assert hand2.config["big_blind_seat"] == seats[(seats.index(hand1.config["big_blind_seat"]) + 1) % 4]
    assert hand2.config["small_blind_seat"] == hand1.config["big_blind_seat"]


@pytest.mark.django_db
def test_fixed_limit_cap_lifts_only_when_the_tournament_is_heads_up(api):
    """R5.1: heads-up at one table keeps the cap while others play elsewhere; it lifts at two players left."""
    _, table = make_table(betting="fixed_limit", stacks=(1000, 1000), extra_entries=3, name="A")
    hand = Hand.objects.get(pk=api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"])
    assert hand.config["cap_raises"] is True
    assert hand.config["small_blind_seat"] == hand.config["button_seat"]  # R3.5
    _, table2 = make_table(betting="fixed_limit", stacks=(1000, 1000), name="B")
    assert Entry.objects.filter(tournament=table2.tournament, status="active").count() == 2
    hand2 = Hand.objects.get(pk=api.post("/api/hands/", {"table": table2.pk}, format="json").json()["id"])
    assert hand2.config["cap_raises"] is False


@pytest.mark.django_db
def test_hand_for_hand_each_table_waits_for_the_others(api, django_capture_on_commit_callbacks):
    """R8.6: during hand-for-hand every table plays one hand and waits until all tables have finished it;
    the last table to finish closes the round, and the clock is charged for it."""
    from django.utils import timezone

    from tables.models import Table

    tournament, table = make_table(stacks=(1000, 1000, 1000), table_size=4, other_tables=(3,))
    other = Table.objects.get(tournament=tournament, number=2)
    round_start = timezone.now() - timezone.timedelta(seconds=5)
    tournament.hand_for_hand = True
    tournament.hand_for_hand_round_started_at = round_start
    tournament.paused_at = timezone.now()
    tournament.remaining_when_paused = 600.0
    tournament.save()

    with django_capture_on_commit_callbacks(execute=True):
        first = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
        play_out(Tablet(api, first))
    waiting = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert waiting.status_code == 409 and waiting.json()["code"] == "hand_for_hand_wait"

    with django_capture_on_commit_callbacks(execute=True):
        second = api.post("/api/hands/", {"table": other.pk}, format="json").json()["id"]
        play_out(Tablet(api, second))
    tournament.refresh_from_db()
    assert tournament.hand_for_hand_round_started_at > round_start  # a new round has begun
    assert api.post("/api/hands/", {"table": table.pk}, format="json").status_code == 201


@pytest.mark.django_db
def test_a_hand_where_the_blinds_put_everyone_all_in_plays_itself_out(api):
    """R3.7/R4.6: blinds posted short leave nobody able to bet; the hands are turned face up (R6.2) and
    the board run out street by street with no betting."""
    tournament, table = make_table(stacks=(10, 15), extra_entries=1)
    response = api.post("/api/hands/", {"table": table.pk}, format="json")
    assert response.status_code == 201
    assert response.json()["state"]["phase"] == "face_up"
    data = play_out(Tablet(api, response.json()["id"]))
    assert data["status"] == "finished" and len(data["state"]["board"]) == 5
    assert data["seed"] is not None
    assert (
        sum(chips_by_seat(table).values())
        + sum(e.chips for e in Entry.objects.filter(tournament=tournament, status="busted"))
        == 25
    )
    assert sum(Entry.objects.filter(tournament=tournament).values_list("chips", flat=True)) == 1025


@pytest.mark.django_db
def test_dead_button_after_a_player_leaves(api):
    """R3.6: the big blind moves one player on; the small blind is last hand's big blind; the button
    goes to last hand's small-blind seat even when that player has gone (a dead button)."""
    from tables.models import Seat, Table
    from tables.services import move_entry

    tournament, table = make_table(stacks=(1000, 1000, 1000, 1000), extra_entries=1)
    first = Hand.objects.get(pk=api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"])
    assert (
        first.config["button_seat"],
        first.config["small_blind_seat"],
        first.config["big_blind_seat"],
    ) == (1, 2, 3)
    play_out(Tablet(api, first.pk))
    # the small blind's player leaves the table between hands (moved or out)
    other = Table.objects.get(tournament=tournament, number=2)
    open_seat = Seat.objects.filter(table=other, entry__isnull=True).first()
    move_entry(Seat.objects.get(table=table, number=2).entry, other, open_seat.number, reason="moved")
    second = Hand.objects.get(pk=api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"])
    positions = (
        second.config["button_seat"],
        second.config["small_blind_seat"],
        second.config["big_blind_seat"],
    )
    assert positions == (2, 3, 4)
    assert [s["seat"] for s in second.config["seats"]] == [1, 3, 4]
