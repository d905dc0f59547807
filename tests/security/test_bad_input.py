"""The catalogue of bad input (docs/api-errors.md): every case of the penetration test's findings, over
HTTP and the sockets, each with its status, its error code and a check that nothing changed.

400 malformed (what the schema states), 404 a reference to nothing, 409 a conflict with the state,
422 a broken rule with its number and range, 429 too many requests with Retry-After.
"""

import json

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from config.asgi import application
from dealing.models import Hand, HandEvent
from screens.models import Device, DeviceKind, PairingCode
from screens.pairing import create_pairing_code, redeem_pairing_code
from tables.models import Move, Seat, Table
from tests.dealing.tablet import Tablet
from tests.factories import make_table as dealing_tournament
from tournaments.models import AuditEntry, Entry, Player, Tournament

MAX_ID = 2**63 - 1


def snapshot() -> tuple:
    """Everything a refused request must leave as it was: events, hands, seats, chips, the clocks and
    every version, players, audit rows, devices, moves."""
    return (
        list(HandEvent.objects.order_by("hand_id", "seq").values_list("hand_id", "seq", "type", "device")),
        list(Hand.objects.order_by("pk").values_list("pk", "status", "state_seq")),
        list(Seat.objects.order_by("pk").values_list("pk", "entry_id", "locked")),
        list(Entry.objects.order_by("pk").values_list("pk", "chips", "status", "place")),
        list(
            Tournament.objects.order_by("pk").values_list(
                "pk",
                "status",
                "level_index",
                "level_started_at",
                "paused_at",
                "remaining_when_paused",
                "clock_version",
                "version",
                "hand_for_hand",
            )
        ),
        list(Table.objects.order_by("pk").values_list("pk", "version", "button_seat", "hand_in_progress")),
        list(Player.objects.order_by("pk").values_list("pk", "name")),
        AuditEntry.objects.count(),
        Device.objects.count(),
        Move.objects.count(),
    )


def refused(response, status: int, code: str | None = None):
    assert response.status_code == status, (response.status_code, response.content[:600])
    body = response.json()
    assert body["detail"], body
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.fixture
def staff(db):
    user = get_user_model().objects.create_user("td", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=["change_hand"]))
    return user


@pytest.fixture
def api(staff):
    client = APIClient()
    client.force_authenticate(staff)
    return client


class Running:
    """A running hand and what the tablet knows of it (seat to act, its range, the last seq)."""

    def __init__(self, api, table, hand_id):
        self.api, self.table, self.hand_id = api, table, hand_id
        self.tablet = Tablet(api, hand_id)
        self.refresh()

    def refresh(self):
        options = self.api.get(f"/api/hands/{self.hand_id}/options/").json()
        self.seq, self.to_act, self.options = options["seq"], options["to_act"], options["options"]
        self.url = f"/api/hands/{self.hand_id}/actions/"

    def body(self, **fields):
        return {"client_action_id": "cid-bad-input", "expected_seq": self.seq, **fields}

    def other_seat(self):
        seats = sorted(
            Seat.objects.filter(table=self.table, entry__isnull=False).values_list("number", flat=True)
        )
        return next(s for s in seats if s != self.to_act)


def _deal(api, betting="no_limit", deal_mode="seeded"):
    _tournament, table = dealing_tournament(betting=betting, stacks=(1000, 1000, 1000))
    response = api.post("/api/hands/", {"table": table.pk, "deal_mode": deal_mode}, format="json")
    assert response.status_code == 201, response.json()
    return Running(api, table, response.json()["id"])


@pytest.fixture
def nl(api):
    return _deal(api)


@pytest.fixture
def pl(api):
    return _deal(api, betting="pot_limit")


@pytest.fixture
def entered(api):
    """An entered-cards hand waiting for the first flop card (R4.2)."""
    return _deal(api, deal_mode="entered")


@pytest.fixture
def showdown(api):
    """An entered-cards hand waiting for the first player to show (R6.2)."""
    hand = _deal(api, deal_mode="entered")
    board = iter([["Ah"], ["2d", "3c"], ["9s"], ["Kd"]])
    for _ in range(40):
        state = hand.tablet.state()
        if state["phase"] == "show":
            hand.refresh()
            hand.to_show = state["to_show"]
            return hand
        if state["phase"] == "board":
            body = {"type": "board", "cards": next(board)}
        else:
            body = {
                "type": "action",
                "seat": state["to_act"],
                "action": "call" if state["options"]["call"] else "check",
            }
        assert hand.tablet.send(body).status_code == 200
    raise AssertionError("no showdown")


def _action(h, **fields):
    return h.body(type="action", seat=h.to_act, **fields)


# ---------------------------------------------------------------- a hand input (HTTP)

# (case, fixture, body builder, status, code)
HAND_INPUTS = [
    # Amounts are JSON integers from 1 to 10^12: anything else is malformed.
    ("raise to the string 200", "nl", lambda h: _action(h, action="raise", amount="200"), 400, "invalid"),
    ("raise to the float 300.0", "nl", lambda h: _action(h, action="raise", amount=300.0), 400, "invalid"),
    ("raise to true", "nl", lambda h: _action(h, action="raise", amount=True), 400, "invalid"),
    ("raise to -100", "nl", lambda h: _action(h, action="raise", amount=-100), 400, "invalid"),
    ("raise to 0", "nl", lambda h: _action(h, action="raise", amount=0), 400, "invalid"),
    ("raise to 2^63", "nl", lambda h: _action(h, action="raise", amount=2**63), 400, "invalid"),
    (
        "seat as a string",
        "nl",
        lambda h: h.body(type="action", seat=str(h.to_act), action="call"),
        400,
        "invalid",
    ),
    ("seat 9", "nl", lambda h: h.body(type="action", seat=9, action="call"), 400, "invalid"),
    (
        "expected_seq as a string",
        "nl",
        lambda h: {**_action(h, action="call"), "expected_seq": str(h.seq)},
        400,
        "invalid",
    ),
    ("expected_seq -1", "nl", lambda h: {**_action(h, action="call"), "expected_seq": -1}, 400, "invalid"),
    (
        "client_action_id with spaces",
        "nl",
        lambda h: {**_action(h, action="call"), "client_action_id": "a b"},
        400,
        "invalid",
    ),
    (
        "client_action_id of 65 characters",
        "nl",
        lambda h: {**_action(h, action="call"), "client_action_id": "x" * 65},
        400,
        "invalid",
    ),
    ("an unknown field", "nl", lambda h: _action(h, action="call", foo=1), 400, "invalid"),
    ("blinds in an input", "nl", lambda h: _action(h, action="call", small_blind=5), 400, "invalid"),
    ("a fold with an amount", "nl", lambda h: _action(h, action="fold", amount=40), 400, "invalid"),
    ("a bet without an amount", "nl", lambda h: _action(h, action="raise"), 400, "invalid"),
    ("an unknown action", "nl", lambda h: _action(h, action="shove"), 400, "invalid"),
    ("an unknown input type", "nl", lambda h: h.body(type="rabbit", seat=h.to_act), 400, "invalid"),
    ("a body that is a list", "nl", lambda h: [1, 2], 400, "invalid"),
    # Well formed, but not now: 409.
    (
        "out of turn",
        "nl",
        lambda h: h.body(type="action", seat=h.other_seat(), action="call"),
        409,
        "not_your_turn",
    ),
    (
        "a stale expected_seq",
        "nl",
        lambda h: {**_action(h, action="call"), "expected_seq": h.seq - 1},
        409,
        "stale",
    ),
    ("board cards when a bet is due", "nl", lambda h: h.body(type="board", cards=["2c"]), 409, "not_waiting"),
    (
        "a show before the showdown",
        "entered",
        lambda h: h.body(type="show", seat=1, cards=["2c", "3c", "4c", "5c", "6c"]),
        409,
        "not_waiting",
    ),
    # Well formed and possible now, but against a rule: 422 with the rule and the range.
    (
        "below the minimum raise",
        "nl",
        lambda h: _action(h, action="raise", amount=h.options["min_to"] - 1),
        422,
        "below_minimum",
    ),
    (
        "more than the stack",
        "nl",
        lambda h: _action(h, action="raise", amount=h.options["max_to"] + 1),
        422,
        "more_than_stack",
    ),
    (
        "above the pot",
        "pl",
        lambda h: _action(h, action="raise", amount=h.options["max_to"] + 1),
        422,
        "above_maximum",
    ),
    (
        "a call of the wrong amount",
        "nl",
        lambda h: _action(h, action="call", amount=h.options["call"] + 1),
        422,
        "bad_call",
    ),
    # Cards: not a card is malformed (400); the wrong number for the step, a card given twice or
    # already used break R2.1/R2.2 (422).
    ("the card 10h", "entered", lambda h: h.body(type="board", cards=["10h"]), 400, "invalid"),
    ("the card AH", "entered", lambda h: h.body(type="board", cards=["AH"]), 400, "invalid"),
    ("cards as one string", "entered", lambda h: h.body(type="board", cards="Kd"), 400, "invalid"),
    ("no cards", "entered", lambda h: h.body(type="board", cards=[]), 400, "invalid"),
    ("53 cards", "entered", lambda h: h.body(type="board", cards=["2c"] * 53), 400, "invalid"),
    (
        "two cards for the first flop card",
        "entered",
        lambda h: h.body(type="board", cards=["Kd", "Qd"]),
        422,
        "wrong_card_count",
    ),
    (
        "a four-card hole",
        "showdown",
        lambda h: h.body(type="show", seat=h.to_show, cards=["4h", "6d", "Qc", "Qd"]),
        422,
        "wrong_card_count",
    ),
    (
        "a six-card hole",
        "showdown",
        lambda h: h.body(type="show", seat=h.to_show, cards=["4h", "6d", "Qc", "Qd", "Jh", "Th"]),
        422,
        "wrong_card_count",
    ),
    (
        "a card given twice",
        "showdown",
        lambda h: h.body(type="show", seat=h.to_show, cards=["4h", "4h", "Qc", "Qd", "Jh"]),
        422,
        "duplicate_card",
    ),
    (
        "a card already on the board",
        "showdown",
        lambda h: h.body(type="show", seat=h.to_show, cards=["Ah", "6d", "Qc", "Qd", "Jh"]),
        422,
        "card_used",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case, fixture, build, status, code", HAND_INPUTS, ids=[c[0] for c in HAND_INPUTS])
def test_a_bad_hand_input_is_refused_and_changes_nothing(request, api, case, fixture, build, status, code):
    hand = request.getfixturevalue(fixture)
    before = snapshot()
    body = refused(api.post(hand.url, build(hand), format="json"), status, code)
    if status == 422:
        assert body["rule"], body  # the rule broken is named
    if code in ("below_minimum", "more_than_stack", "above_maximum"):
        assert (body["params"]["minimum"], body["params"]["maximum"]) == (
            hand.options["min_to"],
            hand.options["max_to"],
        )
    if code == "wrong_card_count":
        assert body["params"]["got"] != body["params"]["count"]
    if code == "stale":
        assert body["seq"] == hand.seq and body["hand"]["id"] == hand.hand_id
    assert snapshot() == before


@pytest.mark.django_db
@pytest.mark.parametrize("raw", ['{"amount": 400e0}', '{"amount": 4e2}', '{"amount": 400.0}'])
def test_an_amount_in_exponent_or_decimal_notation_is_400(api, nl, raw):
    fields = json.dumps(_action(nl, action="raise"))[:-1]
    before = snapshot()
    response = api.post(nl.url, data=fields + ", " + raw[1:], content_type="application/json")
    refused(response, 400, "invalid")
    assert "amount" in response.json()["errors"]
    assert snapshot() == before


@pytest.mark.django_db
def test_a_form_body_is_415(api, nl):
    before = snapshot()
    response = api.post(
        nl.url, {"type": "action", "seat": str(nl.to_act), "action": "call"}, format="multipart"
    )
    refused(response, 415, "unsupported_media_type")
    assert snapshot() == before


@pytest.mark.django_db
def test_anything_on_a_finished_hand_is_409_hand_over(api, nl):
    while Hand.objects.get(pk=nl.hand_id).status == "running":
        nl.refresh()
        assert (
            api.post(
                nl.url, _action(nl, action="fold") | {"client_action_id": f"f{nl.seq}"}, format="json"
            ).status_code
            == 200
        )
    nl.refresh()
    before = snapshot()
    refused(api.post(nl.url, nl.body(type="action", seat=1, action="check"), format="json"), 409, "hand_over")
    assert snapshot() == before


@pytest.mark.django_db
def test_a_client_action_id_reused_for_another_input_is_422(api, nl):
    assert (
        api.post(nl.url, _action(nl, action="call") | {"client_action_id": "once"}, format="json").status_code
        == 200
    )
    nl.refresh()
    before = snapshot()
    refused(
        api.post(nl.url, _action(nl, action="fold") | {"client_action_id": "once"}, format="json"),
        422,
        "client_action_id_reused",
    )
    assert snapshot() == before


# ---------------------------------------------------------------- dealing the next hand


@pytest.fixture
def idle(api):
    """A running tournament's table with no hand in progress."""
    tournament, table = dealing_tournament(stacks=(1000, 1000, 1000))
    return tournament, table


DEALS = [
    ("table as a string", lambda t: {"table": str(t.pk)}, 400, "invalid"),
    ("table as a float", lambda t: {"table": float(t.pk)}, 400, "invalid"),
    ("table as true", lambda t: {"table": True}, 400, "invalid"),
    ("table 0", lambda t: {"table": 0}, 400, "invalid"),
    ("table 2^63", lambda t: {"table": 2**63}, 400, "invalid"),
    ("an unknown field: blinds", lambda t: {"table": t.pk, "blinds": [5, 10]}, 400, "invalid"),
    ("a small blind as a string", lambda t: {"table": t.pk, "small_blind": "10"}, 400, "invalid"),
    ("a deal mode that is not one", lambda t: {"table": t.pk, "deal_mode": "stacked"}, 400, "invalid"),
    ("no such table", lambda t: {"table": MAX_ID}, 404, "not_found"),
    (
        "blinds that differ from the level",
        lambda t: {"table": t.pk, "small_blind": 50, "big_blind": 100},
        422,
        "blinds_mismatch",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case, build, status, code", DEALS, ids=[c[0] for c in DEALS])
def test_a_bad_deal_request_deals_nothing(api, idle, case, build, status, code):
    _tournament, table = idle
    before = snapshot()
    body = refused(api.post("/api/hands/", build(table), format="json"), status, code)
    if code == "blinds_mismatch":
        assert body["rule"] == "R8.2" and (body["params"]["small_blind"], body["params"]["big_blind"]) == (
            10,
            20,
        )
    assert snapshot() == before


@pytest.mark.django_db
def test_blinds_that_are_the_levels_deal_and_a_second_deal_is_409(api, idle):
    _tournament, table = idle
    assert (
        api.post(
            "/api/hands/", {"table": table.pk, "small_blind": 10, "big_blind": 20, "ante": 0}, format="json"
        ).status_code
        == 201
    )
    before = snapshot()
    refused(api.post("/api/hands/", {"table": table.pk}, format="json"), 409, "hand_running")
    assert snapshot() == before


@pytest.mark.django_db
def test_a_repeated_deal_with_the_same_client_action_id_answers_200_with_the_same_hand(api, idle):
    _tournament, table = idle
    first = api.post("/api/hands/", {"table": table.pk, "client_action_id": "deal-1"}, format="json")
    assert first.status_code == 201
    before = snapshot()
    again = api.post("/api/hands/", {"table": table.pk, "client_action_id": "deal-1"}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert snapshot() == before
    # Still the same hand once it is over and another was dealt.
    tablet = Tablet(api, first.json()["id"])
    while Hand.objects.get(pk=tablet.hand_id).status == "running":
        state = tablet.state()
        assert tablet.act(state["to_act"], "fold").status_code == 200
    second = api.post("/api/hands/", {"table": table.pk, "client_action_id": "deal-2"}, format="json")
    assert second.status_code == 201
    late = api.post("/api/hands/", {"table": table.pk, "client_action_id": "deal-1"}, format="json")
    assert late.status_code == 200 and late.json()["id"] == first.json()["id"]


# ---------------------------------------------------------------- the clock (API and console)


@pytest.fixture
def clock(idle):
    tournament, _table = idle
    return Tournament.objects.get(pk=tournament.pk)


def _clock_url(tournament, op):
    return f"/api/tournaments/{tournament.pk}/clock/{op}/"


CLOCK = [
    ("seconds as a string", "add-time", lambda t: {"seconds": "60"}, 400, "invalid"),
    ("seconds as a float", "add-time", lambda t: {"seconds": 60.0}, 400, "invalid"),
    ("zero seconds", "add-time", lambda t: {"seconds": 0}, 400, "invalid"),
    ("more than a day", "add-time", lambda t: {"seconds": 86401}, 400, "invalid"),
    ("an unknown field", "add-time", lambda t: {"seconds": -60, "minutes": 1}, 400, "invalid"),
    (
        "clock_version as a string",
        "add-time",
        lambda t: {"seconds": -60, "clock_version": str(t.clock_version)},
        400,
        "invalid",
    ),
    ("2 hours added to a 30-minute level", "add-time", lambda t: {"seconds": 7200}, 422, "too_much_time"),
    ("more removed than is left", "add-time", lambda t: {"seconds": -5000}, 422, "not_enough_time"),
    (
        "a stale clock_version",
        "add-time",
        lambda t: {"seconds": -60, "clock_version": t.clock_version + 5},
        409,
        "clock_moved",
    ),
    ("a stale pause", "pause", lambda t: {"clock_version": t.clock_version + 1}, 409, "clock_moved"),
    ("a pause with a body it does not take", "pause", lambda t: {"now": True}, 400, "invalid"),
    ("a level past the structure", "jump", lambda t: {"level_index": 99}, 422, "no_such_level"),
    ("a level out of range", "jump", lambda t: {"level_index": 501}, 400, "invalid"),
    ("a level as a string", "jump", lambda t: {"level_index": "1"}, 400, "invalid"),
    ("hand-for-hand as the string true", "hand-for-hand", lambda t: {"on": "true"}, 400, "invalid"),
    ("hand-for-hand as 1", "hand-for-hand", lambda t: {"on": 1}, 400, "invalid"),
    ("resume a running clock", "resume", lambda t: {}, 409, "not_paused"),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case, op, build, status, code", CLOCK, ids=[c[0] for c in CLOCK])
def test_a_bad_clock_request_leaves_the_clock_alone(api, clock, case, op, build, status, code):
    before = snapshot()
    body = refused(api.post(_clock_url(clock, op), build(clock), format="json"), status, code)
    if code in ("too_much_time", "not_enough_time"):
        params = body["params"]
        assert body["rule"] == "R8.2" and params["minimum"] <= 0 <= params["maximum"] <= 60
    assert snapshot() == before


@pytest.mark.django_db
def test_an_api_clock_change_with_the_current_version_goes_through_once(api, clock):
    version = clock.clock_version
    assert (
        api.post(
            _clock_url(clock, "add-time"), {"seconds": -60, "clock_version": version}, format="json"
        ).status_code
        == 200
    )
    before = snapshot()
    refused(
        api.post(_clock_url(clock, "add-time"), {"seconds": -60, "clock_version": version}, format="json"),
        409,
        "clock_moved",
    )
    assert snapshot() == before


@pytest.mark.django_db
def test_a_repeated_or_stale_console_clock_post_changes_nothing(client, staff, clock):
    client.force_login(staff)
    page = client.get(f"/console/{clock.pk}/").content.decode()
    # Every clock control offered now (they follow the state) carries the clock's version.
    clock_forms = page.count(f'action="/console/{clock.pk}/clock/')
    assert clock_forms >= 5 and page.count('name="clock_version"') >= clock_forms
    assert f'value="{clock.clock_version}"' in page
    post = {"seconds": "-60", "clock_version": str(clock.clock_version)}
    client.post(f"/console/{clock.pk}/clock/add_time/", post)
    once = snapshot()
    # The same post again (a double click, a reload that resends it): refused, nothing changes.
    response = client.post(f"/console/{clock.pk}/clock/add_time/", post, follow=True)
    assert any("already moved" in str(m) for m in response.context["messages"])
    assert snapshot() == once
    # A post without the version (an old page) is refused too.
    response = client.post(f"/console/{clock.pk}/clock/pause/", {}, follow=True)
    assert any("reload" in str(m) for m in response.context["messages"])
    assert snapshot() == once
    # Adding beyond the level's own length from the console is refused with the range.
    fresh = Tournament.objects.get(pk=clock.pk)
    response = client.post(
        f"/console/{clock.pk}/clock/add_time/",
        {"seconds": "7200", "clock_version": str(fresh.clock_version)},
        follow=True,
    )
    assert any("own length" in str(m) for m in response.context["messages"])
    assert snapshot() == once


# ---------------------------------------------------------------- names


BAD_NAMES = [
    ("empty", ""),
    ("blank", "   "),
    ("65 characters", "A" * 65),
    ("a newline", "Ana\nLima"),
    ("a tab", "Ana\tLima"),
    ("a forged summary", "Eve\n*** SUMMARY ***"),
    ("a right-to-left override", "Ana\u202eamiL"),
    ("a bidi isolate", "Ana\u2066Lima"),
    ("a zero-width space", "Ana\u200bLima"),
    ("a zero-width joiner", "Ana\u200dLima"),
    ("a byte-order mark", "\ufeffAna Lima"),
    ("a number", 12345),
    ("null", None),
]


@pytest.mark.django_db
@pytest.mark.parametrize("case, name", BAD_NAMES, ids=[c[0] for c in BAD_NAMES])
def test_a_bad_player_name_is_400_naming_the_problem(api, clock, case, name):
    before = snapshot()
    for url in ("/api/players/", f"/api/tournaments/{clock.pk}/entries/"):
        body = refused(api.post(url, {"name": name}, format="json"), 400, "invalid")
        assert "name" in body["errors"], body
    assert snapshot() == before


@pytest.mark.django_db
def test_a_name_is_stored_normalised_and_another_spelling_registers_the_same_player(api, clock):
    made = api.post("/api/players/", {"name": "  Ana   Lima  "}, format="json").json()
    assert made["name"] == "Ana Lima"
    decomposed = api.post("/api/players/", {"name": "Jose\u0301"}, format="json").json()
    assert decomposed["name"] == "Jos\u00e9"  # NFC
    Tournament.objects.filter(pk=clock.pk).update(late_registration_until_level=5)
    players = Player.objects.count()
    entry = api.post(f"/api/tournaments/{clock.pk}/entries/", {"name": "ana lima"}, format="json")
    assert entry.status_code == 201, entry.json()
    assert entry.json()["player"] == made["id"] and Player.objects.count() == players
    before = snapshot()
    again = api.post(f"/api/tournaments/{clock.pk}/entries/", {"name": "ÁNA  LIMA"}, format="json")
    refused(again, 409, "already_active")
    assert snapshot() == before


@pytest.mark.django_db
def test_console_registration_reuses_the_player_and_refuses_a_bad_name(client, staff, clock):
    client.force_login(staff)
    Tournament.objects.filter(pk=clock.pk).update(late_registration_until_level=5)
    ana = Player.objects.create(name="Ana Lima")
    client.post(f"/console/{clock.pk}/register/", {"name": "ana lima"})
    assert (
        clock.entries.filter(player=ana).count() == 1
        and Player.objects.filter(name__iexact="ana lima").count() == 1
    )
    before = snapshot()
    response = client.post(f"/console/{clock.pk}/register/", {"name": "Bob\u202eevil"}, follow=True)
    assert any("Bidirectional" in str(m) for m in response.context["messages"])
    assert snapshot() == before


@pytest.mark.django_db
def test_no_stored_name_can_forge_a_line_of_a_text_history(api, idle):
    """Even a name written into the database behind the API's back (an old row, the admin of another
    version) cannot start a line of its own in a hand history."""
    tournament, table = idle
    forged = "Eve\n*** SUMMARY ***\nSeat 1: Eve collected 1000000"
    seat = Seat.objects.filter(table=table, entry__isnull=False).order_by("number").first()
    Player.objects.filter(pk=seat.entry.player_id).update(name=forged)
    Tournament.objects.filter(pk=tournament.pk).update(name="Cup\r\n*** HOLE CARDS ***")
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    while Hand.objects.get(pk=hand_id).status == "running":
        state = tablet.state()
        assert tablet.act(state["to_act"], "fold").status_code == 200
    text = api.get(f"/api/hands/{hand_id}/history/?output=text").content.decode()
    lines = text.splitlines()
    assert lines.count("*** SUMMARY ***") == 1 and lines.count("*** HOLE CARDS ***") == 1
    assert not any(line.startswith("Seat 1: Eve collected") for line in lines)
    assert "Eve\\u000a*** SUMMARY ***" in text
    phh = api.get(f"/api/hands/{hand_id}/history/?output=phh").content.decode()
    import tomllib

    assert forged in tomllib.loads(phh)["players"]  # PHH keeps the name, escaped, on one line


# ---------------------------------------------------------------- references, types of other bodies


@pytest.mark.django_db
def test_other_bodies_refuse_strings_for_numbers_unknown_fields_and_references_to_nothing(api, clock):
    entry = clock.entries.first()
    cases = [
        (f"/api/entries/{entry.pk}/chips/", {"chips": "500", "reason": "recount"}, 400, "invalid"),
        (
            f"/api/entries/{entry.pk}/chips/",
            {"chips": 500, "reason": "recount", "force": True},
            400,
            "invalid",
        ),
        (f"/api/entries/{entry.pk}/chips/", {"chips": 500, "reason": "re\ncount"}, 400, "invalid"),
        (
            f"/api/tournaments/{clock.pk}/bust/",
            {"busts": [{"entry": str(entry.pk), "chips_at_start": 5}]},
            400,
            "invalid",
        ),
        (
            f"/api/tournaments/{clock.pk}/bust/",
            {"busts": [{"entry": MAX_ID, "chips_at_start": 5}]},
            404,
            "not_found",
        ),
        (f"/api/tournaments/{clock.pk}/entries/", {"player": MAX_ID}, 404, "not_found"),
        (
            f"/api/tournaments/{clock.pk}/entries/",
            {"player": entry.player_id, "name": "Both"},
            400,
            "invalid",
        ),
        ("/api/icm/", {"stacks": [100, "50"], "payouts": [10]}, 400, "invalid"),
        ("/api/icm/", {"stacks": [100, 50], "payouts": [10, 20]}, 422, "payouts_not_descending"),
    ]
    before = snapshot()
    for url, data, status, code in cases:
        refused(api.post(url, data, format="json"), status, code)
    refused(
        api.patch(f"/api/tournaments/{clock.pk}/", {"structure": clock.structure_id}, format="json"),
        400,
        "invalid",
    )
    refused(
        api.patch(f"/api/tournaments/{clock.pk}/", {"seats_per_table": "8"}, format="json"), 400, "invalid"
    )
    assert snapshot() == before


# ---------------------------------------------------------------- devices, pairing, audit


@pytest.mark.django_db
def test_the_audited_device_label_comes_only_from_a_device_token(api, nl):
    response = api.post(
        nl.url, _action(nl, action="call"), format="json", HTTP_X_DEVICE_LABEL="Table 9 tablet"
    )
    assert response.status_code == 200
    assert not HandEvent.objects.filter(hand_id=nl.hand_id, device="Table 9 tablet").exists()
    _device, token = redeem_pairing_code(
        create_pairing_code(tournament=nl.table.tournament, kind=DeviceKind.TABLET, table=nl.table).code,
        label="Dealer A",
    )
    tablet = APIClient()
    nl.refresh()
    response = tablet.post(
        nl.url,
        _action(nl, action="call") | {"client_action_id": "by-device"},
        format="json",
        HTTP_AUTHORIZATION=f"Device {token}",
        HTTP_X_DEVICE_LABEL="Director",
    )
    assert response.status_code == 200, response.json()
    assert list(
        HandEvent.objects.filter(hand_id=nl.hand_id, client_action_id="by-device").values_list(
            "device", flat=True
        )
    ) == ["Dealer A"]


@pytest.mark.django_db
def test_pairing_codes_malformed_unknown_used_and_too_many(settings, clock):
    client = Client()
    code = create_pairing_code(tournament=clock, kind=DeviceKind.CLOCK).code
    assert client.post("/pair/", {"code": code}).status_code == 302
    before = snapshot()
    assert client.post("/pair/", {"code": code}).status_code == 409  # used
    assert client.post("/pair/", {"code": "ZZZZ-ZZZZ"}).status_code == 404  # unknown
    assert client.post("/pair/", {"code": "12"}).status_code == 400  # not a code
    fresh = create_pairing_code(tournament=clock, kind=DeviceKind.CLOCK).code
    assert client.post("/pair/", {"code": fresh, "label": "Clock\n*** SUMMARY ***"}).status_code == 400
    assert PairingCode.objects.filter(used_at__isnull=True).count() == 1
    assert snapshot() == before
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "pairing": "3/60"}
    cache.clear()  # the tries above counted too
    statuses = [client.post("/pair/", {"code": "ZZZZ-ZZZZ"}).status_code for _ in range(4)]
    assert statuses == [404, 404, 404, 429]
    limited = client.post("/pair/", {"code": fresh})
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    assert snapshot() == before  # the right code, once limited, is not even looked at


# ---------------------------------------------------------------- sign-in lockout and API throttles


@pytest.mark.django_db
def test_five_failed_sign_ins_lock_the_username_at_that_address_without_hashing(monkeypatch):
    get_user_model().objects.create_user("director", password="right-password-1", is_staff=True)
    client = Client()
    for _ in range(5):
        assert client.post("/login/", {"username": "director", "password": "wrong"}).status_code == 200
    from django.contrib.auth import base_user, hashers

    hashed = []
    monkeypatch.setattr(base_user, "check_password", lambda *a, **k: hashed.append(1) or False)
    monkeypatch.setattr(hashers, "make_password", lambda *a, **k: hashed.append(1) or "x")
    for password in ("wrong", "right-password-1"):
        locked = client.post("/login/", {"username": "director", "password": password})
        assert locked.status_code == 429 and 1 <= int(locked["Retry-After"]) <= 15 * 60
        assert "_auth_user_id" not in client.session
    assert (
        client.post("/admin/login/", {"username": "director", "password": "right-password-1"}).status_code
        == 429
    )
    assert hashed == []  # locked out: no password was hashed or checked
    # Another address is not locked (the limit is per username and address).
    other = Client(REMOTE_ADDR="10.9.8.7")
    monkeypatch.undo()
    assert other.post("/login/", {"username": "director", "password": "right-password-1"}).status_code == 302


@pytest.mark.django_db
def test_api_throttles_answer_429_with_retry_after(settings, api, clock):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "user": "3/60", "anon": "2/60", "icm": "1/60"}
    statuses = [api.get(f"/api/tournaments/{clock.pk}/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = api.get(f"/api/tournaments/{clock.pk}/")
    assert limited.status_code == 429 and int(limited["Retry-After"]) >= 1
    assert limited.json()["code"] == "throttled" and limited.json()["params"]["retry_after"] >= 1
    anon = APIClient()
    assert [anon.get("/api/tournaments/").status_code for _ in range(3)] == [200, 200, 429]
    icm = APIClient(REMOTE_ADDR="10.1.1.1")
    body = {"stacks": [100, 50], "payouts": [10]}
    assert [icm.post("/api/icm/", body, format="json").status_code for _ in range(2)] == [200, 429]


@pytest.mark.django_db
def test_http_basic_auth_is_off(clock):
    import base64

    get_user_model().objects.create_user("basic", password="basic-pw-123", is_staff=True)
    client = APIClient()
    token = base64.b64encode(b"basic:basic-pw-123").decode()
    before = snapshot()
    response = client.post(_clock_url(clock, "pause"), {}, format="json", HTTP_AUTHORIZATION=f"Basic {token}")
    assert response.status_code in (401, 403)
    assert snapshot() == before


# ---------------------------------------------------------------- sockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "frame, closes_with",
    [
        # A frame no screen ever sends closes the socket (config.limits: 1007 invalid, 1009 too big);
        # well-formed JSON that is no screen message is answered with an error, the socket stays open.
        ({"text_data": "not json"}, 1007),
        ({"text_data": "[1, 2, 3]"}, None),
        ({"text_data": json.dumps({"type": "action", "seat": 1, "action": "fold"})}, None),
        ({"text_data": json.dumps({"type": "refresh", "x": "y" * 5000})}, 1009),
        ({"bytes_data": b"\x00\x01binary"}, 1007),
    ],
    ids=["not JSON", "a list", "an action over the socket", "too long", "binary"],
)
async def test_a_bad_socket_frame_is_answered_or_closed_and_changes_nothing(frame, closes_with):
    from channels.db import database_sync_to_async

    @database_sync_to_async
    def setup():
        _tournament, table = dealing_tournament(stacks=(1000, 1000, 1000))
        staff = get_user_model().objects.create_user("sockets", is_staff=True)
        client = Client()
        client.force_login(staff)
        return table, client.cookies["sessionid"].value

    table, session = await setup()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={session}".encode())],
    )
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_json_from(timeout=5)
    assert first["type"] == "snapshot"
    before = await database_sync_to_async(snapshot)()
    await communicator.send_to(**frame)
    if closes_with is not None:
        assert await communicator.receive_output(timeout=5) == {
            "type": "websocket.close",
            "code": closes_with,
        }
        assert await database_sync_to_async(snapshot)() == before
        return
    answer = await communicator.receive_json_from(timeout=5)
    assert answer == {"type": "error", "code": "unknown_message"}
    await communicator.send_json_to({"type": "ping"})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "pong"  # still open
    assert await database_sync_to_async(snapshot)() == before
    await communicator.disconnect()
