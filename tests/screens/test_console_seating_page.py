"""The console's seating page as the floor uses it: every change a form, every refusal a message that
names the problem and changes nothing, the forms only for the roles that seat players."""

import random

import pytest
from django.contrib.auth import get_user_model

from screens import roles
from tables.models import Move, Seat, SeatingPlan, Table
from tests.factories import make_tournament

pytestmark = pytest.mark.django_db


def signed_in(client, name, role):
    user = get_user_model().objects.create_user(name, password="x", is_staff=True)
    user.groups.set([roles.ensure_roles()[role]])
    client.force_login(user)
    return client


@pytest.fixture
def tournament():
    return make_tournament(players=10, rng=random.Random(7), plan={"review_moves": True})


def messages_of(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


def test_the_desk_sees_the_page_but_no_form_and_may_not_post(client, tournament):
    signed_in(client, "desk", roles.DESK)
    page = client.get(f"/console/{tournament.pk}/seating/").content.decode()
    assert "Recent moves" in page and 'data-role="lock"' not in page and 'data-action="chart-on"' not in page
    seat = Seat.objects.filter(table__tournament=tournament, entry__isnull=True).first()
    response = client.post(
        f"/console/{tournament.pk}/seating/lock/",
        {"table": seat.table.number, "seat": seat.number, "reason": "x"},
    )
    assert response.status_code == 403
    assert not Seat.objects.get(pk=seat.pk).locked


def test_the_floor_locks_reserves_moves_and_shows_the_chart_and_the_page_lists_it(client, tournament):
    signed_in(client, "floor", roles.FLOOR)
    base = f"/console/{tournament.pk}/seating/"
    t1, t2 = Table.objects.filter(tournament=tournament).order_by("number")
    empty = list(t2.seat_set.filter(entry__isnull=True).order_by("number"))
    client.post(base + "lock/", {"table": "2", "seat": str(empty[0].number), "reason": "wobbly chair"})
    client.post(
        base + "reserve/",
        {"table": "2", "seat": str(empty[1].number), "player": "Zoé Martin", "reason": "on her way"},
    )
    mover = t1.seat_set.filter(entry__isnull=False).select_related("entry__player").first().entry
    response = client.post(
        base + "move/",
        {
            "player": mover.player.name.lower(),
            "table": "2",
            "seat": str(empty[2].number),
            "reason": "near the rail",
        },
        follow=True,
    )
    assert "moves to table 2" in messages_of(response)
    page = client.get(base).content.decode()
    assert "wobbly chair" in page and "reserved for Zoé Martin (on her way)" in page
    assert "near the rail" in page  # the recent moves say why
    assert Move.objects.get(entry=mover).note == "near the rail"
    response = client.post(base + "chart-on-clock/", {"on": "1"}, follow=True)
    assert "show the seating chart" in messages_of(response)
    assert SeatingPlan.objects.get(tournament=tournament).chart_on_clock
    chart = client.get(f"/console/{tournament.pk}/seating/chart/").content.decode()
    assert "locked: wobbly chair" in chart and "reserved for Zoé Martin" in chart


def test_a_refused_change_is_a_message_and_changes_nothing(client, tournament):
    signed_in(client, "floor", roles.FLOOR)
    base = f"/console/{tournament.pk}/seating/"
    taken = (
        Seat.objects.filter(table__tournament=tournament, entry__isnull=False).select_related("table").first()
    )
    response = client.post(
        base + "reserve/",
        {"table": taken.table.number, "seat": taken.number, "player": "X", "reason": "y"},
        follow=True,
    )
    assert f"seat {taken.number} is taken" in messages_of(response)
    assert not Seat.objects.get(pk=taken.pk).locked
    response = client.post(base + "open-table/", {"seats": "9"}, follow=True)
    assert "R2.7" in messages_of(response)
    assert Table.objects.filter(tournament=tournament).count() == 2
    response = client.post(base + "break-table/", {"table": "1"}, follow=True)
    assert "R8.5" in messages_of(response)
    assert Table.objects.filter(tournament=tournament, status="active").count() == 2
    response = client.post(
        base + "move/", {"player": "Nobody", "table": "1", "seat": "1", "reason": "x"}, follow=True
    )
    assert "No player still in is called Nobody" in messages_of(response)
    response = client.post(base + "lock/", {"table": "1", "seat": "abc", "reason": "x"}, follow=True)
    assert "whole number" in messages_of(response)
