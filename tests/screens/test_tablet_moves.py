"""What a tablet lists of the seat moves (issue 15 item 8): moves out until the dealer's Done, moves in
only while they wait, and never a "move" that leaves a player in the seat they had (a redraw, R8.5)."""

import pytest

from screens import snapshots
from tables.models import Move
from tests.screens.live import live_tournament

pytestmark = pytest.mark.django_db


def test_a_table_lists_moves_out_until_done_moves_in_while_waiting_and_no_move_to_the_same_seat():
    tournament = live_tournament(players=12)
    first, second = tournament.tables.order_by("number")
    seated = list(first.seat_set.filter(entry__isnull=False).order_by("number"))
    here = {"tournament": tournament, "reason": "redraw"}
    same = Move.objects.create(
        **here,
        entry=seated[0].entry,
        from_table=first,
        from_seat=seated[0].number,
        to_table=first,
        to_seat=seated[0].number,
        status=Move.Status.DONE,
    )
    out = Move.objects.create(
        **here,
        entry=seated[1].entry,
        from_table=first,
        from_seat=seated[1].number,
        to_table=second,
        to_seat=8,
        status=Move.Status.DONE,
    )
    other = second.seat_set.filter(entry__isnull=False).first()
    arrived = Move.objects.create(
        **here,
        entry=other.entry,
        from_table=second,
        from_seat=other.number,
        to_table=first,
        to_seat=8,
        status=Move.Status.DONE,
    )
    waiting = Move.objects.create(
        **here,
        entry=other.entry,
        from_table=second,
        from_seat=other.number,
        to_table=first,
        to_seat=7,
        status=Move.Status.PENDING,
    )
    listed = {m["id"] for m in snapshots.table_data(first)["moves"]}
    assert listed == {out.pk, waiting.pk}
    assert same.pk not in listed and arrived.pk not in listed
