"""An input on a hand this server keeps, written in one statement on PostgreSQL (dealing.kept_writes):
the same events, views, versions and answers as the transaction under the hand's lock, one round
trip instead of six, and nothing written when the hand has moved on meanwhile (another server, a
correction, a void: the transaction then answers on the hand as stored).

These run on PostgreSQL only (CI's PostgreSQL section, or DATABASE_URL); on SQLite the one statement is
never used and the same inputs are covered by test_hand_cache.py and the rest of the suite."""

import copy
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config import live
from dealing import hand_cache, kept_writes, services, vault
from dealing.models import Hand, HandEvent
from dealing.services import DealingError
from tables.models import Table
from tests.factories import make_table

from .replay import next_input, replayed_public_view, replayed_view

pytestmark = [
    pytest.mark.django_db(transaction=True),  # hands are kept only after a commit
    pytest.mark.skipif(not kept_writes.usable(), reason="PostgreSQL only: SQLite has no data-modifying WITH"),
]


def act(hand: Hand, body: dict, actor, seq: int | None = None):
    seq = services.last_seq(hand) if seq is None else seq
    return services.apply_input(
        hand, body, expected_seq=seq, client_action_id=f"c{time.time_ns()}", actor=actor
    )


def version(table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def test_an_ordinary_input_is_one_statement_with_the_transactions_result(staff, monkeypatch):
    """The first input after the deal: one query (no BEGIN, no lock, no COMMIT), its events in the log
    with their keys, the hand's public view and seq stored, the table's version up by one and announced
    once with the patch the tablet applies (R5 inputs as the dealer taps them)."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    seq, before = services.last_seq(hand), version(table)
    sent = []
    monkeypatch.setattr(live, "send_many", lambda messages: sent.extend(messages))
    body = next_input(hand)
    with CaptureQueriesContext(connection) as captured:
        result = act(hand, body, staff, seq)
    assert [q["sql"][:4] for q in captured.captured_queries] == ["WITH"]
    assert (result.first_seq, result.last_seq) == (seq + 1, seq + 1)
    stored = HandEvent.objects.get(hand=hand, seq=seq + 1)
    assert [row.pk for row in result.events] == [stored.pk] and stored.type == "action"
    assert stored.actor_id == staff.pk and stored.request_digest
    # Every column as the input made it (the events are one JSON value: config.prepared.recordset).
    [made] = result.events
    assert (stored.payload, stored.device, stored.client_action_id, stored.created_at) == (
        made.payload,
        made.device,
        made.client_action_id,
        made.created_at,
    )
    hand.refresh_from_db()
    assert hand.state_seq == seq + 1 and hand.state == replayed_public_view(hand)
    assert version(table) == before + 1
    [(group, message)] = sent
    assert group == live.table_group(table.pk)
    assert message["patch"]["table_version"] == before + 1
    assert message["patch"]["hand"]["seq"] == seq + 1 and message["patch"]["hand"]["state"] == hand.state


def test_a_whole_hand_matches_the_replay_and_its_end_is_recorded_under_the_lock(staff):
    """Every input of a hand: after each one the stored views equal the replay of the log (so the burns
    and board cards the one statement put in the hand's secrets are the dealt ones), the inputs in the
    middle of the hand are single statements, and the input that ends it is recorded in a transaction
    (stacks back to the entries, the table announced): the hand finishes with its result."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    single = 0
    while True:
        hand.refresh_from_db()
        if hand.status != Hand.Status.RUNNING:
            break
        body = next_input(hand)
        with CaptureQueriesContext(connection) as captured:
            act(hand, body, staff, hand.state_seq)
        single += len(captured.captured_queries) == 1
        hand.refresh_from_db()
        if hand.status == Hand.Status.RUNNING:
            assert services.full_view(hand) == replayed_view(hand)
            assert hand.state == replayed_public_view(hand)
    assert single >= 3
    assert hand.status == Hand.Status.FINISHED and hand.result
    seqs = list(HandEvent.objects.filter(hand=hand).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(len(seqs)))  # one log, no gap, no repeat
    dealt = vault.dealt_events(hand)
    assert any(e.get("type") == "board" for e in dealt.values())  # the burns, kept as dealt


def test_a_hand_moved_on_elsewhere_is_not_written_and_the_tablet_gets_409(staff):
    """Another server (the tablet reconnected there) wrote the next event; this server still keeps the
    hand at the old one. An input sent for the old event finds the row moved: nothing is written by the
    one statement, and the answer is the transaction's 409 stale with the hand's last event."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    seq = services.last_seq(hand)
    old = copy.deepcopy(hand_cache._kept[hand.pk])  # the other server's input changes the kept engine
    body = next_input(hand)
    done = act(hand, body, staff, seq)  # "the other server"
    hand_cache._kept[hand.pk] = old  # this server: still at the deal
    count, before = HandEvent.objects.filter(hand=hand).count(), version(table)
    with pytest.raises(DealingError) as stale:
        act(hand, body, staff, seq)
    assert stale.value.code == "stale" and stale.value.params["seq"] == done.last_seq
    assert HandEvent.objects.filter(hand=hand).count() == count and version(table) == before
    hand.refresh_from_db()
    assert hand.state_seq == done.last_seq and hand.state == replayed_public_view(hand)


def test_a_voided_hand_kept_by_this_server_takes_no_input(staff, floor):
    """A floor person voids the hand (a misdeal) while this server keeps it: the input is refused with
    409 hand_over and nothing is written (the status is part of the statement's check)."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    seq = services.last_seq(hand)
    kept = hand_cache._kept[hand.pk]
    services.void_hand(Hand.objects.get(pk=hand.pk), actor=floor, reason="misdeal", expected_seq=seq)
    hand.refresh_from_db()
    hand_cache._kept[hand.pk] = kept._replace(seq=hand.state_seq)  # as if kept at the void's event
    count = HandEvent.objects.filter(hand=hand).count()
    with pytest.raises(DealingError) as refused:
        act(hand, next_input_from(kept), staff, hand.state_seq)
    assert refused.value.code == "hand_over"
    assert HandEvent.objects.filter(hand=hand).count() == count


def next_input_from(kept) -> dict:
    view = kept.engine.view(public=False)
    return {
        "type": "action",
        "seat": view["to_act"],
        "action": "call" if view["options"]["call"] else "check",
    }


def test_an_input_the_engine_refuses_is_answered_on_the_stored_hand(staff):
    """Out of turn on a kept hand: 422 from the rule as the transaction decides it, nothing written,
    and the next legal input goes on from the hand as stored."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    body = next_input(hand)
    wrong = next(p["seat"] for p in services.full_view(hand)["players"] if p["seat"] != body["seat"])
    count = HandEvent.objects.filter(hand=hand).count()
    with pytest.raises(DealingError) as refused:
        act(hand, {**body, "seat": wrong}, staff)
    assert refused.value.status == 409 and refused.value.code == "not_your_turn"
    assert HandEvent.objects.filter(hand=hand).count() == count
    act(hand, body, staff)
    hand.refresh_from_db()
    assert services.full_view(hand) == replayed_view(hand)


def test_the_statement_writes_nothing_for_a_row_that_moved(staff):
    """The statement itself: asked to write on top of an event the hand is no longer at, it writes no
    event, no secret and no version, and says so (None)."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=staff)
    seq, before = services.last_seq(hand), version(table)
    row = HandEvent(hand=hand, seq=seq, type="action", payload={}, device="t")  # seq: already taken
    assert kept_writes.append(hand, [row], {}, state={"x": 1}, kept_seq=seq - 1) is None
    assert kept_writes.append(hand, [row], {seq: {"type": "x"}}, state={"x": 1}, kept_seq=seq - 1) is None
    hand.refresh_from_db()
    assert hand.state_seq == seq and hand.state != {"x": 1} and version(table) == before
    assert str(seq) not in vault.dealt_events(hand) or vault.dealt_events(hand)[str(seq)] != {"type": "x"}
