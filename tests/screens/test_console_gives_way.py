"""A director's action that meets a dealer's hand end in a lock cycle gives way and is then done
(config.locks.GiveWayMiddleware: every console action, screens.views.staff, and every API write).

The dealer's input holds its table and its players' entries from the start and learns only at the
hand's end that it needs the tournament (a bust, an all-in's run-out); the director's bust holds the
tournament and then wants that entry. The director's transaction gives up after ``WAIT_MS`` and
changes nothing, the dealer's input goes through, and the console runs the bust again: the director
sees "is out", not "the server is busy" (R8.8). PostgreSQL only: SQLite has no row locks."""

import threading

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse

from config import locks
from tests import factories
from tests.integration.processes import wait_for
from tests.tables.seating import lock_waiters, postgresql_only, run_together
from tournaments.models import Entry, Tournament, tournament_changed


def console_bust(client, tournament, entry):
    return client.post(reverse("console-bust", args=[tournament.pk, entry.pk]))


def api_bust(client, tournament, entry):
    body = {"busts": [{"entry": entry.pk, "chips_at_start": 1000}], "hand_label": "T1 H7"}
    return client.post(f"/api/tournaments/{tournament.pk}/bust/", body, content_type="application/json")


def bust_during_a_dealers_hand_end(client, tournament, entry, *, dealers: int = 1, bust=console_bust):
    """The director busts ``entry`` (from the console, or ``bust``) while, ``dealers`` times over, a
    dealer's hand end holding that entry comes to need the tournament the bust holds. Returns the
    bust's response and how each dealer's transaction ended."""
    outcome, response = {}, {}
    holding = threading.Event()

    def dealer(turn: int):
        with transaction.atomic():
            list(Entry.objects.select_for_update().filter(pk=entry.pk))  # the dealer's player
            holding.set()
            wait_for(lock_waiters, timeout=10, interval=0.01, what="the director waiting for the entry")
            tournament_changed(tournament.pk)  # the hand ends needing the tournament
        outcome[turn] = "committed"

    def dealers_in_turn():
        for turn in range(dealers):
            dealer(turn)
            holding.clear()

    def director():
        holding.wait(10)
        response["bust"] = bust(client, tournament, entry)

    run_together(dealers_in_turn, director)
    return response["bust"], outcome


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_r8_8_a_console_bust_gives_way_to_a_dealers_hand_end_and_then_goes_through(client):
    tournament = factories.make_tournament(players=9)
    entry = factories.zero(factories.entries_of(tournament)[0])
    version = Tournament.objects.get(pk=tournament.pk).version
    client.force_login(User.objects.create_user("td", password="pw", is_staff=True))

    response, outcome = bust_during_a_dealers_hand_end(client, tournament, entry)

    assert outcome == {0: "committed"}  # the dealer's input went through
    assert response.status_code == 302  # back to the console, no 503
    page = client.get(response["Location"])
    assert f"{entry} is out." in page.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.BUSTED and entry.place == 9  # R8.8: the last of nine
    # Both changes are there: the dealer's and the bust's.
    assert Tournament.objects.get(pk=tournament.pk).version >= version + 2


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_r8_8_an_api_bust_gives_way_to_a_dealers_hand_end_and_then_goes_through(client):
    """The same through the API: the client gets the bust's answer, not a 503 to send again."""
    tournament = factories.make_tournament(players=9)
    entry = factories.zero(factories.entries_of(tournament)[0])
    client.force_login(User.objects.create_user("td", password="pw", is_staff=True))

    response, outcome = bust_during_a_dealers_hand_end(client, tournament, entry, bust=api_bust)

    assert outcome == {0: "committed"}
    assert response.status_code == 200, response.content
    assert [(e["id"], e["place"]) for e in response.json()] == [(entry.pk, 9)]  # R8.8
    entry.refresh_from_db()
    assert entry.status == Entry.Status.BUSTED and entry.bust_hand_label == "T1 H7"


@postgresql_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("bust", [console_bust, api_bust], ids=["console", "api"])
def test_an_action_that_gives_way_every_time_answers_503_and_changes_nothing(client, monkeypatch, bust):
    """Past ``ATTEMPTS`` cycles in a row, the director (or the API client) is told to try again, and
    nothing changed."""
    monkeypatch.setattr(locks, "ATTEMPTS", 2)
    tournament = factories.make_tournament(players=9)
    entry = factories.zero(factories.entries_of(tournament)[0])
    client.force_login(User.objects.create_user("td", password="pw", is_staff=True))

    response, outcome = bust_during_a_dealers_hand_end(client, tournament, entry, dealers=2, bust=bust)

    assert outcome == {0: "committed", 1: "committed"}
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "nothing was changed" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE and entry.place is None


@pytest.mark.django_db(transaction=True)
def test_a_dealers_input_is_not_wrapped_and_a_directors_bust_is(monkeypatch):
    """Which writes GiveWayMiddleware runs in a transaction of its own, to run again: a director's
    API bust is; a tablet's deal and action are not (they are the side that goes through, and the
    wrapping would cost every input round trips: dealing.api). Read inside the service called."""
    from django.db import connection
    from rest_framework.test import APIClient

    from dealing import services as dealing
    from screens.pairing import create_pairing_code, redeem_pairing_code
    from tournaments import services as tournaments

    in_a_transaction = {}

    def watched(module, name):
        real = getattr(module, name)

        def service(*args, **kwargs):
            in_a_transaction[name] = connection.in_atomic_block
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, service)

    for module, name in (
        (dealing, "start_next_hand"),
        (dealing, "apply_input"),
        (tournaments, "bust_entries"),
    ):
        watched(module, name)
    tournament, table = factories.make_table(stacks=(1000, 1000, 1000), table_size=4)
    director = User.objects.create_user("td", password="pw", is_staff=True)
    _device, token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind="tablet", table=table, actor=director).code
    )
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Device {token}")
    hand = tablet.post("/api/hands/", {"table": table.pk}, format="json").json()
    acted = tablet.post(
        f"/api/hands/{hand['id']}/actions/",
        {"client_action_id": "a1", "expected_seq": hand["seq"], "seat": 1, "action": "call"},
        format="json",
    )
    assert acted.status_code == 200, acted.json()
    api = APIClient()
    api.force_authenticate(director)
    out = factories.make_tournament(players=9)
    entry = factories.zero(factories.entries_of(out)[0])
    busted = api.post(
        f"/api/tournaments/{out.pk}/bust/",
        {"busts": [{"entry": entry.pk, "chips_at_start": 1000}]},
        format="json",
    )
    assert busted.status_code == 200, busted.json()
    assert in_a_transaction == {"start_next_hand": False, "apply_input": False, "bust_entries": True}
