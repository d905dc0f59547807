"""The floor page (issue 14 item 4): chip counts per table, busts at 0 (R8.8) and their undo, removing a
player with a reason, voiding a misdeal and taking back the last input, voiding a late entry that has
not played. Every refusal answers with its status and changes nothing."""

import pytest
from django.contrib.auth import get_user_model

from dealing import services as dealing
from dealing.models import Hand
from screens import roles
from tables.models import Seat
from tests import factories
from tournaments import services
from tournaments.models import AuditEntry, Entry

pytestmark = pytest.mark.django_db


def _user(name, role):
    user = get_user_model().objects.create_user(name, is_staff=True)
    user.groups.set([roles.ensure_roles()[role]])
    return user


@pytest.fixture
def floor_user():
    return _user("floor-person", roles.FLOOR)


@pytest.fixture
def desk_user():
    return _user("desk-person", roles.DESK)


@pytest.fixture
def room():
    """Two tables of four, running, late registration open."""
    return factories.make_tournament(
        players=8, seats_per_table=4, starting_stack=3000, buy_in=100, late_registration_until_level=3
    )


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def _table_entries(table) -> list[Entry]:
    return [s.entry for s in Seat.objects.filter(table=table, entry__isnull=False).select_related("entry")]


def _chips(tournament) -> dict[int, int]:
    return dict(tournament.entries.values_list("pk", "chips"))


def _hand_with_one_input(table, actor):
    hand = dealing.start_next_hand(table, actor=actor)
    view = dealing.snapshot(hand)["full"]
    action = "call" if view["options"]["call"] else "check"
    dealing.apply_input(
        hand,
        {"type": "action", "seat": view["to_act"], "action": action},
        expected_seq=dealing.last_seq(hand),
    )
    return hand


def floor_url(tournament, rest=""):
    return f"/console/{tournament.pk}/floor/{rest}"


def test_the_floor_page_opens_for_the_floor_and_not_for_the_desk_or_anyone_else(
    client, room, floor_user, desk_user
):
    assert client.get(floor_url(room)).status_code == 302  # to the sign-in
    client.force_login(desk_user)
    assert client.get(floor_url(room)).status_code == 403
    table = room.tables.get(number=1)
    entry = _table_entries(table)[0]
    response = client.post(floor_url(room, "tables/1/count/"), {f"chips-{entry.pk}": "10"})
    assert response.status_code == 403 and Entry.objects.get(pk=entry.pk).chips == 3000
    client.force_login(floor_user)
    page = client.get(floor_url(room), {"table": "1"}).content.decode()
    assert 'data-role="count"' in page and 'data-role="busts"' in page and 'data-role="corrections"' in page
    # The floor does not void entries (the desk and the director do).
    assert 'data-role="void-entry"' not in page
    console = client.get(f"/console/{room.pk}/").content.decode()
    assert f'href="/console/{room.pk}/floor/"' in console


def test_a_table_is_counted_in_one_save_with_its_totals_and_a_zero_count_does_not_bust(
    client, room, floor_user
):
    client.force_login(floor_user)
    table = room.tables.get(number=2)
    first, second, *rest = _table_entries(table)
    response = client.post(
        floor_url(room, "tables/2/count/"),
        {f"chips-{first.pk}": "0", f"chips-{second.pk}": "6,500", f"chips-{rest[0].pk}": ""},
        follow=True,
    )
    assert _messages(response) == ["Table 2 counted: 12000 chips before, 12500 after (2 stacks changed)."]
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.chips, first.status, second.chips) == (0, "active", 6500)
    assert Entry.objects.get(pk=rest[0].pk).chips == 3000  # left blank: not counted
    audit = AuditEntry.objects.filter(action="entry.set_chips").order_by("pk")
    assert [(a.reason, a.data) for a in audit] == [
        ("chip count", {"before": 3000, "after": 0}),
        ("chip count", {"before": 3000, "after": 6500}),
    ]
    page = response.content.decode()
    assert 'data-role="table-total">12500<' in page
    assert f"Bust {first} out of the tournament?" in page  # now offered, with the player named


@pytest.mark.parametrize(
    "typed, message",
    [
        ("-500", "Chips must be a whole number from 0 to 1000000000000, not -500."),
        ("lots", "“lots” is not a number of chips."),
        ("3,5", "“3,5” is not a number of chips."),
    ],
)
def test_a_count_that_is_not_a_number_of_chips_is_400_and_changes_no_stack(
    client, room, floor_user, typed, message
):
    client.force_login(floor_user)
    table = room.tables.get(number=1)
    good, bad, *_rest = _table_entries(table)
    before = _chips(room)
    response = client.post(
        floor_url(room, "tables/1/count/"), {f"chips-{good.pk}": "100", f"chips-{bad.pk}": typed}
    )
    assert response.status_code == 400
    assert _messages(response) == [message]
    assert _chips(room) == before
    assert f'value="{typed}"' in response.content.decode()  # what was typed stays to be fixed


def test_a_table_in_a_hand_is_not_counted_409(client, room, floor_user):
    client.force_login(floor_user)
    table = room.tables.get(number=1)
    _hand_with_one_input(table, floor_user)
    entry = _table_entries(table)[0]
    before = _chips(room)
    response = client.post(floor_url(room, "tables/1/count/"), {f"chips-{entry.pk}": "100"})
    assert response.status_code == 409
    assert _messages(response) == ["Table 1 is in a hand: count it between hands or at the break."]
    assert _chips(room) == before


def test_a_count_naming_a_player_who_left_the_table_is_409(client, room, floor_user):
    client.force_login(floor_user)
    elsewhere = _table_entries(room.tables.get(number=2))[0]
    here = _table_entries(room.tables.get(number=1))[0]
    before = _chips(room)
    response = client.post(
        floor_url(room, "tables/1/count/"), {f"chips-{here.pk}": "10", f"chips-{elsewhere.pk}": "10"}
    )
    assert response.status_code == 409 and "no longer at table 1" in _messages(response)[0]
    assert _chips(room) == before
    assert client.get(floor_url(room), {"table": "9"}).status_code == 404


def test_bust_only_at_zero_chips_R8_8(client, room, floor_user):
    client.force_login(floor_user)
    with_chips, broke = _table_entries(room.tables.get(number=2))[:2]
    factories.zero(broke)
    response = client.post(floor_url(room, f"entries/{with_chips.pk}/bust/"))
    assert response.status_code == 422
    assert _messages(response) == [f"{with_chips} still has 3000 chips and cannot bust (R8.8)."]
    assert Entry.objects.get(pk=with_chips.pk).status == "active"
    response = client.post(floor_url(room, f"entries/{broke.pk}/bust/"), follow=True)
    assert _messages(response) == [f"{broke} is out."]
    assert Entry.objects.get(pk=broke.pk).status == "busted"
    assert not Seat.objects.filter(entry=broke).exists()
    response = client.post(floor_url(room, f"entries/{broke.pk}/bust/"))
    assert response.status_code == 409 and _messages(response) == [f"{broke} is already out."]


def test_remove_from_the_tournament_needs_a_reason_and_keeps_the_count(client, room, floor_user):
    client.force_login(floor_user)
    entry = _table_entries(room.tables.get(number=1))[0]
    url = floor_url(room, "remove/")
    for post, status in [
        ({"entry": entry.pk}, 400),  # no reason chosen
        ({"entry": entry.pk, "kind": "other"}, 400),  # "other" says what
        ({"entry": entry.pk, "kind": "sleepy"}, 400),
        ({"entry": "x", "kind": "no_show"}, 400),
    ]:
        response = client.post(url, post)
        assert response.status_code == status, post
        assert Entry.objects.get(pk=entry.pk).status == "active"
    response = client.post(url, {"entry": entry.pk, "kind": "no_show", "table": "1"}, follow=True)
    assert _messages(response) == [f"{entry} is removed from the tournament (No-show) with 3000 chips."]
    entry.refresh_from_db()
    assert entry.status == "busted" and entry.chips == 0
    assert AuditEntry.objects.get(action="entry.remove").reason == "No-show"
    other = _table_entries(room.tables.get(number=1))[0]
    factories.zero(other)
    response = client.post(url, {"entry": other.pk, "kind": "disqualification"})
    assert response.status_code == 409 and "has no chips: bust the player instead" in _messages(response)[0]


def test_undo_a_bust_with_a_reason_and_the_chips_to_restore(client, room, floor_user):
    client.force_login(floor_user)
    entry = factories.zero(_table_entries(room.tables.get(number=2))[0])
    services.bust_entries(room, [(entry, 1)], hand_label="floor")
    url = floor_url(room, f"entries/{entry.pk}/undo-bust/")
    for post, status in [({"chips": "2500"}, 400), ({"chips": "0", "reason": "wrong player"}, 400)]:
        response = client.post(url, post)
        assert response.status_code == status and Entry.objects.get(pk=entry.pk).status == "busted"
    page = client.get(floor_url(room)).content.decode()
    assert 'data-action="undo-bust"' in page and str(entry) in page
    response = client.post(url, {"chips": "2,500", "reason": "busted the wrong player"}, follow=True)
    seat = Seat.objects.select_related("table").get(entry=entry)
    assert _messages(response) == [
        f"{entry} is back in with 2500 chips: table {seat.table.number}, seat {seat.number}."
    ]
    entry.refresh_from_db()
    assert (entry.status, entry.chips) == ("active", 2500)
    response = client.post(url, {"chips": "2500", "reason": "again"})
    assert response.status_code == 409 and _messages(response) == [f"{entry} is not busted."]


def test_void_a_misdeal_with_a_reason_and_a_stale_page_cannot_void_twice(client, room, floor_user):
    client.force_login(floor_user)
    table = room.tables.get(number=1)
    hand = _hand_with_one_input(table, floor_user)
    seq = dealing.last_seq(hand)
    page = client.get(floor_url(room), {"table": "1"}).content.decode()
    assert f'name="expected_seq" value="{seq}"' in page and "Last input: Seat" in page
    url = floor_url(room, f"hands/{hand.pk}/void/")
    response = client.post(url, {"expected_seq": seq, "reason": ""})
    assert response.status_code == 422 and _messages(response) == ["Give the reason for the correction."]
    response = client.post(url, {"expected_seq": seq - 1, "reason": "two cards exposed"})
    assert response.status_code == 409 and "reload before voiding" in _messages(response)[0]
    response = client.post(url, {"expected_seq": "", "reason": "two cards exposed"})
    assert response.status_code == 400
    assert Hand.objects.get(pk=hand.pk).status == "running"
    response = client.post(url, {"expected_seq": seq, "reason": "two cards exposed"}, follow=True)
    assert _messages(response) == [
        f"Hand {hand.label} is void (misdeal): the chips are back as they were, and the table deals it again."
    ]
    assert Hand.objects.get(pk=hand.pk).status == "voided"
    assert AuditEntry.objects.get(action="hand.void").reason == "two cards exposed"
    response = client.post(url, {"expected_seq": seq, "reason": "two cards exposed"})
    assert response.status_code == 409 and _messages(response) == ["Only a hand in progress can be voided."]


def test_correct_the_last_input_once_with_the_expected_sequence(client, room, floor_user):
    client.force_login(floor_user)
    hand = _hand_with_one_input(room.tables.get(number=2), floor_user)
    seq = dealing.last_seq(hand)
    url = floor_url(room, f"hands/{hand.pk}/correct/")
    response = client.post(url, {"expected_seq": seq, "reason": "  "})
    assert response.status_code == 422 and dealing.last_seq(hand) == seq
    response = client.post(
        url, {"expected_seq": seq, "reason": "the dealer tapped call for a fold"}, follow=True
    )
    assert (
        len(_messages(response)) == 1
        and "is taken back; the dealer enters the right input." in _messages(response)[0]
    )
    assert dealing.last_input(hand) is None
    # The same form again (a double click, a stale page): the hand has moved on, nothing more is undone.
    response = client.post(url, {"expected_seq": seq, "reason": "the dealer tapped call for a fold"})
    assert response.status_code == 409 and "reload before correcting" in _messages(response)[0]
    assert dealing.last_seq(hand) == seq + 1


def test_a_late_entry_that_has_not_played_is_voided_after_the_start_and_one_that_has_is_409(
    client, room, staff
):
    client.force_login(staff)
    late = services.register(room, services.player_named("Late Larry"))
    seat = Seat.objects.select_related("table").get(entry=late)
    page = client.get(floor_url(room)).content.decode()
    assert 'data-role="void-entry"' in page and "Late Larry" in page
    response = client.post(floor_url(room, f"entries/{late.pk}/void/"), {"reason": ""})
    assert response.status_code == 400 and Entry.objects.filter(pk=late.pk).exists()
    response = client.post(
        floor_url(room, f"entries/{late.pk}/void/"), {"reason": "wrong event"}, follow=True
    )
    assert _messages(response) == [
        f"The entry of Late Larry is voided: table {seat.table.number}, seat {seat.number} is free."
    ]
    assert not Entry.objects.filter(pk=late.pk).exists()

    played = _table_entries(room.tables.get(number=1))[0]
    hand = dealing.start_next_hand(room.tables.get(number=1), actor=staff)
    response = client.post(floor_url(room, f"entries/{played.pk}/void/"), {"reason": "wrong event"})
    assert response.status_code == 409
    assert _messages(response) == [
        f"{played} has played (hand {hand.label}): an entry that has been dealt in is not voided."
    ]
    assert Entry.objects.filter(pk=played.pk, status="active").exists()


def test_the_floor_may_not_void_entries(client, room, floor_user):
    client.force_login(floor_user)
    late = services.register(room, services.player_named("Late Larry"))
    assert client.post(floor_url(room, f"entries/{late.pk}/void/"), {"reason": "x"}).status_code == 403
    assert Entry.objects.filter(pk=late.pk).exists()


def test_a_floor_person_who_picked_italian_reads_the_floor_page_in_italian(client, room, floor_user):
    """The language is kept on the account: the browser still asks for English."""
    client.force_login(floor_user)
    english = client.get(floor_url(room), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in english and "Back to the console" in english
    response = client.post(
        "/console/language/", {"language": "it", "next": floor_url(room)}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302 and response["Location"] == floor_url(room)
    page = client.get(floor_url(room), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="it">' in page and "Torna alla console" in page and "Back to the console" not in page
    assert '<option value="it" lang="it" selected>' in page
    # Another staff member's pages keep the browser's language.
    client.force_login(_user("other-floor", roles.FLOOR))
    assert "Back to the console" in client.get(floor_url(room), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Back to the browser's language; a language the event does not run in is refused and nothing kept.
    client.force_login(floor_user)
    assert client.post("/console/language/", {"language": "de"}).status_code == 400
    assert floor_user.staff_language.language == "it"
    client.post("/console/language/", {"language": ""})
    assert "Back to the console" in client.get(floor_url(room), HTTP_ACCEPT_LANGUAGE="en").content.decode()
