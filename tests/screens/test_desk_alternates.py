"""The desk when the field is full: "N of MAX", the offer to put the player on the alternates list,
the alternates panel (seat the next, withdraw), and the maximum in the setup form and the API."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from screens import roles
from tables.models import Seat
from tests import factories
from tests.factories import entries_of, zero
from tournaments import services
from tournaments.models import Alternate, Entry, Player

pytestmark = pytest.mark.django_db


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def full():
    """Running, late registration open, all 3 seats of the field taken."""
    return factories.make_tournament(players=3, max_players=3, late_registration_until_level=2)


def test_a_full_field_refuses_the_registration_and_offers_the_alternates_list(client, staff, full):
    client.force_login(staff)
    desk = reverse("console-desk", args=[full.pk])
    page = client.get(desk).content.decode()
    assert "3 entries · 3 of 3 in" in page
    response = client.post(f"{desk}register/", {"name": "Zoé Late"})
    assert response.status_code == 302 and "alternate=Zo%C3%A9+Late" in response["Location"]
    response = client.get(response["Location"])
    assert _messages(response) == ["The field is full: 3 players are in, the most this tournament seats."]
    assert "Add Zoé Late to the alternates list" in response.content.decode()
    assert not Player.objects.filter(name="Zoé Late").exists() and full.entries.count() == 3

    response = client.post(
        reverse("console-desk-alternate-add", args=[full.pk]), {"name": "Zoé Late"}, follow=True
    )
    assert _messages(response) == ["Zoé Late is on the alternates list (number 1)."]
    page = response.content.decode()
    assert 'data-action="seat-alternate" disabled' in page  # no seat free yet
    assert "Zoé Late" in page and 'data-action="withdraw-alternate"' in page


def test_seat_the_next_alternate_answers_with_table_and_seat_R8_1(client, staff, full):
    client.force_login(staff)
    services.add_alternate(full, Player.objects.create(name="Ana"))
    seat_next = reverse("console-desk-alternate-seat", args=[full.pk])
    response = client.post(seat_next, follow=True)
    assert _messages(response) == ["The field is full: 3 players are in, the most this tournament seats."]
    assert Alternate.objects.get().status == Alternate.Status.WAITING

    services.bust_entries(full, [(zero(entries_of(full)[0]), 1000)])
    page = client.get(reverse("console-desk", args=[full.pk])).content.decode()
    assert 'data-action="seat-alternate"' in page and 'data-action="seat-alternate" disabled' not in page
    response = client.post(seat_next, follow=True)
    entry = Entry.objects.get(player__name="Ana")
    seat = Seat.objects.select_related("table").get(entry=entry)
    assert _messages(response) == [f"Ana is registered: table {seat.table.number}, seat {seat.number}"]
    assert 'data-role="answer"' in response.content.decode()
    response = client.post(seat_next, follow=True)
    assert _messages(response) == ["Nobody is on the alternates list."]


def test_withdraw_and_the_refusals_are_messages_that_change_nothing(client, staff, full):
    client.force_login(staff)
    ana = services.add_alternate(full, Player.objects.create(name="Ana"))
    add = reverse("console-desk-alternate-add", args=[full.pk])
    response = client.post(add, {"name": "ana"}, follow=True)
    assert _messages(response) == ["Ana is already on the alternates list."]
    assert client.post(add, {}, follow=True).status_code == 200
    assert Alternate.objects.count() == 1
    withdraw = reverse("console-desk-alternate-withdraw", args=[full.pk, ana.pk])
    response = client.post(withdraw, follow=True)
    assert _messages(response) == ["Ana is off the alternates list."]
    response = client.post(withdraw, follow=True)
    assert _messages(response) == ["Ana is no longer waiting."]
    assert client.get(withdraw).status_code == 405
    other = factories.make_tournament(players=2, name="Other")
    assert client.post(reverse("console-desk-alternate-withdraw", args=[other.pk, ana.pk])).status_code == 404


def test_the_floor_sees_the_list_but_not_the_alternate_buttons(client, full):
    services.add_alternate(full, Player.objects.create(name="Ana"))
    user = get_user_model().objects.create_user("floor-x", is_staff=True)
    user.groups.set([roles.ensure_roles()[roles.FLOOR]])
    client.force_login(user)
    page = client.get(reverse("console-desk", args=[full.pk])).content.decode()
    assert "Ana" in page and 'data-action="seat-alternate"' not in page
    assert 'data-action="withdraw-alternate"' not in page
    assert client.post(reverse("console-desk-alternate-seat", args=[full.pk])).status_code == 403


def test_the_maximum_is_set_in_the_setup_form_and_not_below_the_players_in(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(stage="registering", players=3)
    url = reverse("console-setup", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert 'name="max_players"' in page
    form = {
        name: value
        for name, value in client.get(url).context["form"].initial.items()
        if value is not None and value is not False
    }
    form["chip_denominations"] = ", ".join(str(c) for c in tournament.chip_denominations)
    form["payout_percentages"] = ""
    response = client.post(url, {**form, "max_players": "2"})
    assert response.status_code == 422
    assert "at least 3 (the players in now)" in response.content.decode()
    response = client.post(url, {**form, "max_players": "1"})
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert tournament.max_players is None
    assert client.post(url, {**form, "max_players": "40"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.max_players == 40
    assert client.post(url, {**form, "max_players": ""}).status_code == 302  # blank: no limit again
    tournament.refresh_from_db()
    assert tournament.max_players is None


def test_the_api_sets_the_maximum_and_refuses_one_below_the_field_422(client, staff):
    api = APIClient()
    api.force_authenticate(staff)
    tournament = factories.make_tournament(stage="registering", players=3)
    url = f"/api/tournaments/{tournament.pk}/"
    response = api.patch(url, {"max_players": 2}, format="json")
    assert response.status_code == 422, response.content
    assert response.json()["params"] == {"min": 3, "max": 100000}
    assert api.patch(url, {"max_players": "x"}, format="json").status_code == 400
    response = api.patch(url, {"max_players": 3}, format="json")
    assert response.status_code == 200 and response.json()["max_players"] == 3
    assert api.get(url).json()["max_players"] == 3
