"""A deal and a hand's end on PostgreSQL write in fewer round trips (dealing.deal_write, the table's
positions in tables.services): the same rows as the statements one after the other, which SQLite runs.

These run on PostgreSQL only (CI's PostgreSQL section, or DATABASE_URL); on SQLite the rest of the
suite covers the same deals and ends."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config import live
from dealing import deal_write, services, vault
from dealing.engine import seed_commitment
from dealing.models import Hand, HandEvent
from tables.models import Seat, Table, table_changed
from tests.factories import make_table

from .replay import next_input, replayed_public_view, replayed_view

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the announcements go after the commit
    pytest.mark.skipif(not deal_write.usable(), reason="PostgreSQL only: SQLite has no data-modifying WITH"),
]


def writes(captured) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if not q["sql"].lstrip().startswith("SELECT")]


def version(table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def stored(hand: Hand) -> dict:
    """What a deal wrote, without its keys and clocks."""
    hand = Hand.objects.get(pk=hand.pk)
    secret = hand.secret
    table = Table.objects.get(pk=hand.table_id)
    return {
        "hand": (hand.number, hand.config, hand.deal_mode, hand.seed_commitment, hand.status),
        "views": (hand.state, hand.state_seq, secret.state, secret.state_seq),
        "seats": {  # who sits there (the entry's key differs between the tables) and their chips
            seat: (
                Seat.objects.get(table=table, number=int(seat), entry_id=data["entry"]).entry.player.name,
                data["chips"],
            )
            for seat, data in hand.seats.items()
        },
        "secret": (bytes(secret.seed), secret.events),
        "events": list(
            HandEvent.objects.filter(hand=hand)
            .order_by("seq")
            .values_list("seq", "type", "payload", "actor_id", "device", "client_action_id", "request_digest")
        ),
        "table": (table.hand_in_progress, table.button_seat, table.big_blind_seat),
    }


def test_a_deal_writes_its_hand_secrets_events_and_table_in_one_statement(staff, monkeypatch):
    """RULES 7.5-7.6: the hand is stored with its seed's commitment and the seed apart, its views are what
    its log replays to, its table has a hand in progress (R8.3: balancing leaves it alone) and its
    version up by one, announced once after the commit; the writes are one statement."""
    _, table = make_table(stacks=(1000, 1000, 1000))
    before = version(table)
    sent = []
    monkeypatch.setattr(live, "send_many", lambda messages: sent.extend(messages))
    started = timezone.now()
    with CaptureQueriesContext(connection) as captured:
        hand = services.start_next_hand(table, actor=staff, device="T1", client_action_id="deal-1")
    ended = timezone.now()
    [write] = [sql for sql in writes(captured) if sql not in ("BEGIN", "COMMIT")]
    assert write.startswith("WITH dealt AS (INSERT")
    hand.refresh_from_db()
    assert (hand.number, hand.status) == (1, Hand.Status.RUNNING)
    assert seed_commitment(vault.seed_of(hand)) == hand.seed_commitment
    assert hand.state == replayed_public_view(hand)
    assert services.full_view(hand) == replayed_view(hand)
    rows = list(HandEvent.objects.filter(hand=hand).order_by("seq"))
    assert [row.seq for row in rows] == list(range(hand.state_seq + 1))
    assert [row.client_action_id for row in rows] == ["deal-1"] + [None] * (len(rows) - 1)
    assert all(row.device == "T1" and row.actor_id == staff.pk for row in rows)
    # The events' clock as written (one JSON value, config.prepared.recordset): the moment of the deal.
    assert all(started <= row.created_at <= ended for row in rows)
    assert Table.objects.get(pk=table.pk).hand_in_progress
    assert version(table) == before + 1
    assert [group for group, _message in sent].count(live.table_group(table.pk)) == 1


def test_one_statement_and_the_statements_one_by_one_write_the_same_deal(staff, monkeypatch):
    """Two tables alike (the same master seed, players and button): one dealt with the one statement,
    the other with the writes one after the other, as on SQLite. Every stored row is the same."""
    _, one = make_table(stacks=(1000, 800, 1200), name="One")
    _, other = make_table(stacks=(1000, 800, 1200), name="Other")
    first = services.start_next_hand(one, actor=staff, device="T", client_action_id="a")
    monkeypatch.setattr(deal_write, "usable", lambda: False)
    with CaptureQueriesContext(connection) as captured:
        second = services.start_next_hand(other, actor=staff, device="T", client_action_id="a")
    assert not any(sql.startswith("WITH dealt") for sql in writes(captured))
    assert stored(first) == stored(second)
    assert version(one) == version(other)


def test_a_deal_in_a_transaction_that_changed_its_table_moves_the_version_once(staff):
    """A service that changed the table and dealt in one transaction: the version goes up once, as for
    any change, and the deal is stored."""
    _, table = make_table(stacks=(1000, 1000))
    before = version(table)
    with transaction.atomic():
        table_changed(table.pk)
        hand = services.start_next_hand(table, actor=staff)
    assert version(table) == before + 1
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.RUNNING
    assert Table.objects.get(pk=table.pk).hand_in_progress


def test_a_hand_end_writes_the_hand_once_and_the_table_in_one_statement(staff):
    """The input that ends the hand: the hand's row gets its final views and its result in one write
    (R6 showdown), and the table its positions for the next hand (R3.5, R3.6), no hand in progress,
    its version up by one, in one statement."""
    _, table = make_table(stacks=(1000, 1000, 1000))
    hand = services.start_next_hand(table, actor=staff)
    while True:
        hand.refresh_from_db()
        body = next_input(hand)
        before = version(table)
        with CaptureQueriesContext(connection) as captured:
            services.apply_input(hand, body, expected_seq=hand.state_seq, actor=staff)
        hand.refresh_from_db()
        if hand.status != Hand.Status.RUNNING:
            break
    sql = writes(captured)
    assert sum(s.startswith('UPDATE "dealing_hand"') for s in sql) == 1
    assert sum('"tables_table"' in s for s in sql) == 1
    assert hand.status == Hand.Status.FINISHED and hand.result and hand.finished_at
    assert hand.state == replayed_public_view(hand) and services.full_view(hand) == replayed_view(hand)
    table.refresh_from_db()
    assert not table.hand_in_progress
    assert (table.button_seat, table.big_blind_seat) == (
        hand.config["button_seat"],
        hand.config["big_blind_seat"],
    )
    assert table.version == before + 1


def test_r8_1_the_big_blinds_seat_waits_no_more_after_the_hand_in_one_statement(staff):
    """R8.1: a player waiting for the big blind posts it in the hand whose big blind they are; at its
    end they wait no more (written with the table's positions)."""
    _, table = make_table(stacks=(1000, 1000, 1000))
    hand = services.start_next_hand(table, actor=staff)
    big_blind = hand.config["big_blind_seat"]
    Seat.objects.filter(table=table, number=big_blind).update(waits_for_big_blind=True)
    while hand.status == Hand.Status.RUNNING:
        services.apply_input(hand, next_input(hand), expected_seq=hand.state_seq, actor=staff)
        hand.refresh_from_db()
    assert not Seat.objects.get(table=table, number=big_blind).waits_for_big_blind
