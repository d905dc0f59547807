"""The tables API: seating chart, moves, director overrides; refused requests change nothing."""

import pytest
from rest_framework.test import APIClient

from tables import services
from tables.models import Move, Seat, SeatDraw, Table
from tests.factories import make_tournament
from tournaments.errors import TournamentError
from tournaments.models import AuditEntry, Entry, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(rng):
    tournament = make_tournament(players=14, rng=rng)
    return tournament


def state(tournament):
    """Everything a refused request must leave alone."""
    return (
        sorted(
            Seat.objects.filter(table__tournament=tournament).values_list(
                "table__number", "number", "entry_id", "locked", "waits_for_big_blind"
            )
        ),
        sorted(Move.objects.filter(tournament=tournament).values_list("entry_id", "status", "to_seat")),
        sorted(Table.objects.filter(tournament=tournament).values_list("number", "status", "break_order")),
    )


def open_seat(tournament, number):
    return Seat.objects.filter(table__tournament=tournament, table__number=number, entry__isnull=True).first()


def test_seating_chart_lists_every_table_seat_and_player(drawn):
    response = APIClient().get(f"/api/tournaments/{drawn.pk}/seating/")
    assert response.status_code == 200
    tables = response.json()["tables"]
    assert [t["number"] for t in tables] == [1, 2]
    assert [t["players"] for t in tables] == [7, 7]
    names = [s["player"] for t in tables for s in t["seating"] if s["player"]]
    assert len(names) == len(set(names)) == 14
    assert all(t["halted"] is None for t in tables)


def test_draw_by_api_then_a_second_draw_is_refused(api):
    tournament = make_tournament(players=9, stage="registering")
    response = api.post(f"/api/tournaments/{tournament.pk}/seating/draw/")
    assert response.status_code == 201
    assert len(response.json()["seed"]) == 64
    before = state(tournament)
    again = api.post(f"/api/tournaments/{tournament.pk}/seating/draw/")
    assert again.status_code == 409
    assert "already drawn" in again.json()["detail"]
    assert state(tournament) == before
    draws = api.get(f"/api/tournaments/{tournament.pk}/seating/draws/").json()
    assert len(draws) == 1 and len(draws[0]["assignment"]) == 9


def test_writes_need_staff(drawn):
    response = APIClient().post(f"/api/tournaments/{drawn.pk}/moves/apply/")
    assert response.status_code in (401, 403)


def test_manual_move_to_an_open_seat(api, drawn):
    seat = Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False).first()
    target = open_seat(drawn, 2)
    response = api.post(
        f"/api/tournaments/{drawn.pk}/moves/manual/",
        {"entry": seat.entry_id, "table": 2, "seat": target.number, "reason": "wheelchair access"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["from_table"], body["to_table"], body["status"], body["reason"]) == (1, 2, "done", "manual")
    target.refresh_from_db()
    assert target.entry_id == seat.entry_id
    assert AuditEntry.objects.filter(action="tables.move", reason="wheelchair access").exists()


@pytest.mark.parametrize(
    "change, status, words",
    [
        ({"seat": "occupied"}, 409, "is taken"),
        ({"seat": 9}, 400, "seat"),  # out of range: seats are 1 to 8 (R2.7), the schema says so
        ({"seat": 0}, 400, "seat"),
        ({"table": 7}, 404, "No table 7"),  # a reference to nothing: 404, like an id in the path
        ({"entry": 999999}, 404, "No entry"),
        ({"reason": ""}, 400, "reason"),
    ],
)
def test_bad_manual_moves_are_refused_and_change_nothing(api, drawn, change, status, words):
    mover = Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False).first()
    body = {
        "entry": mover.entry_id,
        "table": 2,
        "seat": open_seat(drawn, 2).number,
        "reason": "floor decision",
    }
    body.update(change)
    if body["seat"] == "occupied":
        body["seat"] = (
            Seat.objects.filter(table__tournament=drawn, table__number=2, entry__isnull=False).first().number
        )
    before = state(drawn)
    response = api.post(f"/api/tournaments/{drawn.pk}/moves/manual/", body, format="json")
    assert response.status_code == status, response.json()
    assert words in response.json()["detail"]
    assert state(drawn) == before


def test_moving_a_busted_player_is_refused(api, drawn):
    seat = Seat.objects.filter(table__tournament=drawn, entry__isnull=False).first()
    Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    before = state(drawn)
    response = api.post(
        f"/api/tournaments/{drawn.pk}/moves/manual/",
        {"entry": seat.entry_id, "table": 2, "seat": open_seat(drawn, 2).number, "reason": "x"},
        format="json",
    )
    assert response.status_code == 409
    assert "out of the tournament" in response.json()["detail"]
    assert state(drawn) == before


def test_a_ninth_seat_at_a_table_is_refused(api):
    """R2.7: nine players cannot be dealt Courchevel; a table of 8 has no ninth seat to move into."""
    tournament = make_tournament(players=16)
    mover = Seat.objects.filter(table__tournament=tournament, table__number=2, entry__isnull=False).first()
    before = state(tournament)
    response = api.post(
        f"/api/tournaments/{tournament.pk}/moves/manual/",
        {"entry": mover.entry_id, "table": 1, "seat": 9, "reason": "squeeze in"},
        format="json",
    )
    # Out of every table's range (the schema says 1 to 8): a malformed request.
    assert response.status_code == 400 and "seat" in response.json()["errors"]
    assert state(tournament) == before
    # The service itself refuses it as the rule it is.
    with pytest.raises(TournamentError) as refused:
        services.move_entry(mover.entry, Table.objects.get(tournament=tournament, number=1), 9, reason="x")
    assert refused.value.rule == "R2.7" and refused.value.status == 422
    assert state(tournament) == before


def test_suggested_moves_change_nothing_then_apply_makes_them(api, drawn):
    # Three players bust at table 1: 4 against 7, so one player must move (R8.3).
    for seat in Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False)[:3]:
        Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    before = state(drawn)
    suggested = api.get(f"/api/tournaments/{drawn.pk}/moves/suggested/").json()
    assert state(drawn) == before
    assert [(m["from_table"], m["to_table"], m["reason"]) for m in suggested] == [(2, 1, "balance")]
    applied = api.post(f"/api/tournaments/{drawn.pk}/moves/apply/").json()
    assert [(m["entry"], m["to_table"], m["to_seat"]) for m in applied] == [
        (m["entry"], m["to_table"], m["to_seat"]) for m in suggested
    ]
    again = api.post(f"/api/tournaments/{drawn.pk}/moves/apply/").json()
    assert again == []  # idempotent: nobody moves twice
    done = api.get(f"/api/tournaments/{drawn.pk}/moves/?status=done").json()
    assert len(done) == 1
    ack = api.post(f"/api/moves/{done[0]['id']}/acknowledge/")
    assert ack.status_code == 200 and ack.json()["status"] == "acknowledged"
    assert api.post(f"/api/moves/{done[0]['id']}/acknowledge/").json()["status"] == "acknowledged"


def test_a_pending_move_cannot_be_acknowledged(api, drawn):
    services.hand_started(Table.objects.get(tournament=drawn, number=2))
    for seat in Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False)[:3]:
        Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    moves = api.post(f"/api/tournaments/{drawn.pk}/moves/apply/").json()
    assert [m["status"] for m in moves] == ["pending"]
    before = state(drawn)
    response = api.post(f"/api/moves/{moves[0]['id']}/acknowledge/")
    assert response.status_code == 409
    assert state(drawn) == before
    chart = api.get(f"/api/tournaments/{drawn.pk}/seating/").json()
    assert [m["id"] for m in chart["pending_moves"]] == [moves[0]["id"]]


def test_lock_keeps_a_player_from_being_moved(api, drawn):
    """R8.3 override: the player due to move is locked, so the next one in line moves instead."""
    for seat in Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False)[:3]:
        Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    first = api.get(f"/api/tournaments/{drawn.pk}/moves/suggested/").json()[0]
    table2 = Table.objects.get(tournament=drawn, number=2)
    response = api.post(
        f"/api/tables/{table2.pk}/seats/{first['from_seat']}/lock/", {"reason": "medical"}, format="json"
    )
    assert response.status_code == 200 and response.json()["locked"] is True
    second = api.get(f"/api/tournaments/{drawn.pk}/moves/suggested/").json()[0]
    assert second["entry"] != first["entry"] and second["from_table"] == 2
    assert api.delete(f"/api/tables/{table2.pk}/seats/{first['from_seat']}/lock/").json()["locked"] is False


def test_lock_needs_a_reason_and_an_existing_seat(api, drawn):
    table = Table.objects.get(tournament=drawn, number=1)
    before = state(drawn)
    assert api.post(f"/api/tables/{table.pk}/seats/1/lock/", {}, format="json").status_code == 400
    assert (
        api.post(f"/api/tables/{table.pk}/seats/9/lock/", {"reason": "x"}, format="json").status_code == 404
    )
    assert state(drawn) == before


def test_break_order_can_be_seen_and_changed(api):
    """R8.4: highest table number breaks first by default; the director can change it."""
    tournament = make_tournament(players=24)
    url = f"/api/tournaments/{tournament.pk}/seating/break-order/"
    assert api.get(url).json() == {"order": [3, 2, 1]}
    assert api.put(url, {"order": [1, 3, 2]}, format="json").json() == {"order": [1, 3, 2]}
    before = state(tournament)
    bad = api.put(url, {"order": [1, 3]}, format="json")
    # Well formed, but not every active table once: a rule on the values (422, R8.4).
    assert bad.status_code == 422 and "missing 2" in bad.json()["detail"]
    assert api.put(url, {"order": [1, 3, 9, 2]}, format="json").status_code == 422
    assert state(tournament) == before


def test_plan_changes_are_validated(api, drawn):
    url = f"/api/tournaments/{drawn.pk}/seating/plan/"
    assert api.patch(url, {"allowed_difference": 2}, format="json").json()["allowed_difference"] == 2
    bad = api.patch(url, {"allowed_difference": 0}, format="json")
    assert bad.status_code == 400 and "allowed_difference" in bad.json()["detail"]
    assert api.get(url).json()["allowed_difference"] == 2


def test_moves_filter_rejects_an_unknown_status(api, drawn):
    response = api.get(f"/api/tournaments/{drawn.pk}/moves/?status=flying")
    assert response.status_code == 400 and "flying" in response.json()["detail"]


@pytest.mark.parametrize("table", ["abc", "²", "-1"])
def test_moves_filter_rejects_a_table_that_is_not_a_whole_number(api, drawn, table):
    response = api.get(f"/api/tournaments/{drawn.pk}/moves/", {"table": table})
    assert response.status_code == 400 and "table" in response.json()["detail"]


def test_moves_filter_by_table_number(api, drawn):
    seat = Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False).first()
    services.move_entry(
        seat.entry, Table.objects.get(tournament=drawn, number=2), open_seat(drawn, 2).number, reason="draft"
    )
    assert len(api.get(f"/api/tournaments/{drawn.pk}/moves/", {"table": "2"}).json()) == 1
    assert api.get(f"/api/tournaments/{drawn.pk}/moves/", {"table": "3"}).json() == []


def test_seat_a_late_entry_by_api_R8_1(api, drawn):
    """A late entry goes to an open seat at one of the shortest tables and the draw is recorded."""
    Entry.objects.filter(
        pk=Seat.objects.filter(table__tournament=drawn, table__number=2, entry__isnull=False).first().entry_id
    ).update(status=Entry.Status.BUSTED, chips=0)
    services.balance(drawn)  # the busted player's seat is freed: table 2 is now the short one
    late = Entry.objects.create(tournament=drawn, player=Player.objects.create(name="Late Larry"), chips=1000)
    response = api.post(f"/api/tournaments/{drawn.pk}/seating/seat-entry/", {"entry": late.pk}, format="json")
    assert response.status_code == 201, response.json()
    seat = Seat.objects.select_related("table").get(entry=late)
    assert (seat.table.number, response.json()["number"], response.json()["entry"]) == (
        2,
        seat.number,
        late.pk,
    )
    assert SeatDraw.objects.filter(tournament=drawn, kind=SeatDraw.Kind.LATE).count() == 1


def test_seat_entry_bad_input_is_refused_and_changes_nothing(api, drawn):
    url = f"/api/tournaments/{drawn.pk}/seating/seat-entry/"
    seated_entry = Seat.objects.filter(table__tournament=drawn, entry__isnull=False).first().entry_id
    busted = Entry.objects.create(
        tournament=drawn, player=Player.objects.create(name="Gone"), chips=0, status=Entry.Status.BUSTED
    )
    elsewhere = make_tournament(players=2, name="Other Cup").entries.first()
    before = state(drawn)
    for body, code, words in [
        ({}, 400, "entry"),
        ({"entry": "Ann"}, 400, "entry"),
        ({"entry": 10**30}, 400, "entry"),  # out of the id range the schema states
        ({"entry": elsewhere.pk}, 404, "No entry"),
        ({"entry": seated_entry}, 409, "already has a seat"),
        ({"entry": busted.pk}, 409, "out of the tournament"),
    ]:
        response = api.post(url, body, format="json")
        assert response.status_code == code, (body, response.json())
        assert words in response.json()["detail"], response.json()
    assert state(drawn) == before
    assert not SeatDraw.objects.filter(kind=SeatDraw.Kind.LATE).exists()


def test_seat_entry_before_the_draw_is_refused(api):
    tournament = make_tournament(players=3, stage="registering")
    response = api.post(
        f"/api/tournaments/{tournament.pk}/seating/seat-entry/",
        {"entry": tournament.entries.first().pk},
        format="json",
    )
    assert response.status_code == 409 and "not drawn" in response.json()["detail"]
    assert not Table.objects.filter(tournament=tournament).exists()


def test_tables_list_and_one_table(drawn):
    client = APIClient()
    tables = client.get(f"/api/tournaments/{drawn.pk}/tables/").json()
    assert [(t["number"], t["players"], t["status"]) for t in tables] == [(1, 7, "active"), (2, 7, "active")]
    one = client.get(f"/api/tables/{tables[1]['id']}/").json()
    assert (
        one["number"] == 2 and len([s for s in one["seating"] if s["entry"]]) == 7 and one["halted"] is None
    )


@pytest.mark.parametrize(
    "url",
    [
        "/api/tables/{big}/",
        "/api/tournaments/{big}/tables/",
        "/api/tournaments/{big}/seating/",
        "/api/moves/{big}/acknowledge/",
        "/api/tables/{big}/seats/1/lock/",
    ],
)
def test_unknown_or_huge_ids_are_404(api, drawn, url):
    url = url.format(big=10**30)
    response = (
        api.post(url, {"reason": "x"}, format="json")
        if "lock" in url or "acknowledge" in url
        else api.get(url)
    )
    assert response.status_code == 404, response.content


def test_manual_moves_refused_for_a_player_already_moving_a_promised_seat_or_a_broken_table(api, drawn):
    """Table 2 is mid-hand when table 1 goes three short: its mover waits (R8.3). Moving that player by hand
    again, or someone else into the seat promised to them, is refused; so is a seat at a broken table."""
    services.hand_started(Table.objects.get(tournament=drawn, number=2))
    for seat in Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False)[:3]:
        Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    [pending] = services.balance(drawn)
    assert pending.status == Move.Status.PENDING
    someone = (
        Seat.objects.filter(table__tournament=drawn, table__number=1, entry__isnull=False).first().entry_id
    )
    url = f"/api/tournaments/{drawn.pk}/moves/manual/"
    before = state(drawn)
    for body, words in [
        ({"entry": pending.entry_id, "table": 1, "seat": open_seat(drawn, 1).number}, "already has a move"),
        ({"entry": someone, "table": 1, "seat": pending.to_seat}, "promised"),
    ]:
        response = api.post(url, {**body, "reason": "floor"}, format="json")
        assert response.status_code == 409 and words in response.json()["detail"], response.json()
    assert state(drawn) == before


def test_a_manual_move_to_a_broken_table_is_refused(api):
    tournament = make_tournament(players=9)  # tables of 5 and 4
    for seat in Seat.objects.filter(table__tournament=tournament, entry__isnull=False)[:2]:
        Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)
    services.balance(tournament)  # seven left: the final table is redrawn and the other table broken (R8.5)
    [broken] = Table.objects.filter(tournament=tournament, status=Table.Status.BROKEN)
    mover = Seat.objects.filter(table__tournament=tournament, entry__isnull=False).first().entry_id
    before = state(tournament)
    response = api.post(
        f"/api/tournaments/{tournament.pk}/moves/manual/",
        {"entry": mover, "table": broken.number, "seat": 1, "reason": "floor"},
        format="json",
    )
    assert response.status_code == 409 and "broken" in response.json()["detail"], response.json()
    assert state(tournament) == before
