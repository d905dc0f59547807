"""Pages and the tablet API: pairing, demo links, the console, device tokens, privacy of payloads."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from dealing import vault
from screens.demo import demo_links
from screens.models import Device, DeviceKind, FloorCall, PairingCode
from screens.pairing import create_pairing_code, redeem_pairing_code, revoke_device
from tests.screens.live import live_tournament

pytestmark = pytest.mark.django_db


def test_an_unpaired_screen_is_sent_to_pairing_and_a_code_pairs_it_once(client, tournament):
    url = f"/clock/{tournament.pk}/"
    assert client.get(url).status_code == 403
    new = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK)
    typed = new.display.lower()  # codes are read aloud: case and the dash do not matter
    response = client.post("/pair/", {"code": typed})
    assert response.status_code == 302 and response["Location"] == url
    cookie = response.cookies[f"dev_c{tournament.pk}"]
    assert cookie["httponly"] and len(cookie.value) > 30
    page = client.get(url)
    assert page.status_code == 200 and b"data-clock" in page.content
    # Only a hash is stored, and the code works once.
    assert not PairingCode.objects.filter(code_hash=new.code).exists()
    again = client.post("/pair/", {"code": new.code})
    # A used code conflicts with the code's state: 409 (docs/api-errors.md).
    assert again.status_code == 409 and "already been used" in again.content.decode()
    assert Device.objects.filter(tournament=tournament).count() == 1


def test_expired_and_unknown_codes_are_refused_plainly(client, tournament):
    new = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK)
    PairingCode.objects.filter(pk=new.pairing.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    expired = client.post("/pair/", {"code": new.code})
    assert expired.status_code == 409 and "expired" in expired.content.decode()
    unknown = client.post("/pair/", {"code": "ZZZZ-ZZZZ"})
    assert unknown.status_code == 404 and "not known" in unknown.content.decode()
    malformed = client.post("/pair/", {"code": "12"})
    assert malformed.status_code == 400 and "8 letters" in malformed.content.decode()
    assert not Device.objects.exists()


def test_a_tablet_code_pairs_only_its_table(client):
    tournament = live_tournament(players=12)
    first, second = tournament.tables.order_by("number")
    new = create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=first)
    response = client.post("/pair/", {"code": new.code})
    assert response["Location"] == f"/tablet/{first.pk}/"
    assert client.get(f"/tablet/{first.pk}/").status_code == 200
    assert client.get(f"/tablet/{second.pk}/").status_code == 403


def test_demo_links_open_screens_already_paired_and_only_demo_tokens_work(client, tournament):
    links = dict(demo_links(tournament, "http://127.0.0.1:8000"))
    assert set(links) == {"Clock screen", "Table 1 tablet", "Director console"}
    clock_path = links["Clock screen"].removeprefix("http://127.0.0.1:8000")
    response = client.get(clock_path)
    assert response.status_code == 302 and response["Location"] == f"/clock/{tournament.pk}/"
    assert client.get(response["Location"]).status_code == 200
    tablet_path = links["Table 1 tablet"].removeprefix("http://127.0.0.1:8000")
    response = client.get(tablet_path)
    assert client.get(response["Location"]).status_code == 200
    # A paired (non-demo) device's token never opens a screen from a link.
    _, token = redeem_pairing_code(create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).code)
    assert client.get(f"/screen/{token}/").status_code == 404


def test_console_is_for_staff(client, tournament, plain_user):
    assert client.get(f"/console/{tournament.pk}/")["Location"].startswith("/login/")
    client.force_login(plain_user)
    assert client.get(f"/console/{tournament.pk}/").status_code == 302
    assert client.post(f"/console/{tournament.pk}/clock/pause/").status_code == 302
    tournament.refresh_from_db()
    assert tournament.paused_at is None


def test_console_shows_every_panel_and_its_buttons_drive_the_services(client, tournament, staff):
    client.force_login(staff)
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    for section in (
        'id="clock"',
        'id="entries"',
        'id="seating"',
        'id="payouts"',
        'id="hands"',
        'id="devices"',
        'id="audit"',
    ):
        assert section in page
    assert "Player 1" in page and "Table 1" in page
    response = client.post(
        f"/console/{tournament.pk}/clock/next_level/", {"clock_version": tournament.clock_version}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.level_index == 1
    from tournaments.models import AuditEntry

    assert AuditEntry.objects.filter(tournament=tournament, action="clock.jump", actor=staff).exists()
    # A refused change is reported and changes nothing.
    client.post(f"/console/{tournament.pk}/clock/resume/", {"clock_version": tournament.clock_version})
    messages = [str(m) for m in client.get(f"/console/{tournament.pk}/").context["messages"]]
    assert any("not paused" in m for m in messages)
    client.post(f"/console/{tournament.pk}/announce/", {"text": "Dinner break at level 6"})
    from screens.snapshots import clock_snapshot

    assert clock_snapshot(tournament.pk)["data"]["announcement"] == "Dinner break at level 6"


def test_console_pairing_shows_a_code_and_qr_and_revoking_cuts_the_device_off(client, tournament, staff):
    client.force_login(staff)
    table = tournament.tables.get()
    page = client.post(f"/console/{tournament.pk}/devices/pair/", {"kind": "tablet", "table": table.pk})
    html = page.content.decode()
    assert page.status_code == 200 and "<svg" in html and "/pair/" in html
    code = page.context["new"].code
    device, token = redeem_pairing_code(code)
    assert device.table_id == table.pk and device.kind == "tablet"
    client.post(f"/console/{tournament.pk}/devices/{device.pk}/revoke/")
    device.refresh_from_db()
    assert device.revoked_at is not None
    tablet_client = type(client)()
    tablet_client.cookies[device.cookie_name] = token
    assert tablet_client.get(f"/tablet/{table.pk}/").status_code == 403


def test_tablet_api_takes_the_device_token_for_its_own_table_only(client):
    tournament = live_tournament(players=12)
    first, second = tournament.tables.order_by("number")
    tablet, token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=first).code
    )
    _, clock_token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).code
    )
    auth = {"HTTP_AUTHORIZATION": f"Device {token}"}
    assert client.post(f"/tablet/{second.pk}/floor/", **auth).status_code == 403
    assert (
        client.post(f"/tablet/{first.pk}/floor/", HTTP_AUTHORIZATION=f"Device {clock_token}").status_code
        == 403
    )
    assert client.post(f"/tablet/{first.pk}/floor/").status_code in (401, 403)
    response = client.post(f"/tablet/{first.pk}/floor/", **auth)
    assert response.status_code == 200
    call = FloorCall.objects.get()
    assert call.table_id == first.pk and call.device_label == tablet.label
    # Pressing again while the floor is on the way changes nothing.
    client.post(f"/tablet/{first.pk}/floor/", **auth)
    assert FloorCall.objects.count() == 1
    revoke_device(tablet)
    refused = client.post(f"/tablet/{first.pk}/floor/", **auth)
    assert refused.status_code == 401 and "revoked" in refused.json()["detail"]


def test_no_payload_carries_hole_cards_seeds_or_the_deck():
    """RULES 7.6: clock, console and table payloads are public, whatever the hand's state."""
    from dealing import services as dealing
    from screens.snapshots import (
        PRIVATE_KEYS,
        clock_snapshot,
        director_snapshot,
        find_private_keys,
        table_snapshot,
    )

    tournament = live_tournament(players=4, master_seed=True)
    table = tournament.tables.get()
    hand = dealing.start_next_hand(table)
    full = dealing.snapshot(hand)["full"]
    holes = [card for p in full["players"] for card in p["cards"]]
    burns = full["burns"]
    assert len(holes) == 20
    payloads = [clock_snapshot(tournament.pk), director_snapshot(tournament.pk), table_snapshot(table.pk)]
    for payload in payloads:
        text = json.dumps(payload)
        assert find_private_keys(payload) == [], payload["kind"]
        assert vault.seed_hex(hand) not in text and tournament.master_seed.hex() not in text
        for card in holes + burns:
            assert f'"{card}"' not in text, (payload["kind"], card)
    table_payload = payloads[2]["data"]["hand"]
    assert table_payload["seed_commitment"] == hand.seed_commitment
    assert len(table_payload["state"]["board"]) == 1  # R4.2: only the exposed flop card is public
    assert {"seed", "deck", "hole_cards"} <= PRIVATE_KEYS


def test_dealing_api_permission_lets_a_tablet_act_only_on_its_own_tables_hands():
    from rest_framework.test import APIRequestFactory, force_authenticate
    from rest_framework.views import APIView

    from dealing import services as dealing
    from dealing.permissions import tablet_on_its_table

    tournament = live_tournament(players=12)
    first, second = tournament.tables.order_by("number")
    hand = dealing.start_next_hand(second)
    tablet, _ = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=first).code
    )
    clock, _ = redeem_pairing_code(create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).code)
    assert tablet.user is not None and not tablet.user.is_staff

    def allowed(device, kwargs, body=None):
        request = APIRequestFactory().post("/x/", body or {}, format="json")
        force_authenticate(request, user=device.user, token=device)
        view = APIView()
        view.kwargs = kwargs
        request = view.initialize_request(request)
        return tablet_on_its_table(request, view)

    assert not allowed(tablet, {"pk": hand.pk})  # a hand at another table
    assert allowed(tablet, {}, {"table": first.pk})  # deal the next hand at its own table
    assert not allowed(tablet, {}, {"table": second.pk})
    assert not allowed(clock, {}, {"table": first.pk})  # a clock screen never acts
    own = dealing.start_next_hand(first)
    assert allowed(tablet, {"pk": own.pk})
    revoke_device(tablet)
    tablet.user.refresh_from_db()
    assert not tablet.user.is_active


def play_down(hand):
    """Check or call every decision until the hand is over."""
    from dealing import services as dealing

    for n in range(60):
        hand.refresh_from_db()
        if hand.is_over:
            return hand
        state = dealing.snapshot(hand)["public"]
        options = state["options"]
        action = "check" if "check" in options["actions"] else "call"
        dealing.apply_input(
            hand,
            {"type": "action", "seat": options["seat"], "action": action},
            expected_seq=hand.state_seq,
            client_action_id=f"play-{n}",
        )
    raise AssertionError("the hand did not end")


def test_console_hand_page_shows_the_history_and_verifies_the_seed(client, staff):
    """RULES section 7: once over, the hand's seed matches its commitment and replays to the same events."""
    from dealing import services as dealing

    tournament = live_tournament(players=3)
    hand = play_down(dealing.start_next_hand(tournament.tables.get()))
    client.force_login(staff)
    console = client.get(f"/console/{tournament.pk}/").content.decode()
    assert f"/console/{tournament.pk}/hands/{hand.pk}/" in console
    page = client.get(f"/console/{tournament.pk}/hands/{hand.pk}/").content.decode()
    assert 'data-role="verified">verified' in page.replace("\n", "")
    assert hand.seed_commitment in page
    assert "Player 1" in page  # the text history names the players


def test_hand_for_hand_tablet_waits_after_its_hand_until_every_table_has_played():
    """R8.6: a table that finished its hand of the round is told to wait; the others are not."""
    from dealing import services as dealing
    from screens.snapshots import table_snapshot
    from tournaments import services

    tournament = live_tournament(players=12)
    first, second = tournament.tables.order_by("number")
    services.set_hand_for_hand(tournament, True)
    play_down(dealing.start_next_hand(first))
    dealing.start_next_hand(second)
    waiting = table_snapshot(first.pk)["data"]["wait"]
    assert "wait" in waiting.lower()
    assert table_snapshot(second.pk)["data"]["wait"] == ""  # mid-hand: not waiting


def test_console_bust_out_places_the_player_and_updates_the_field(client, staff):
    """R8.8: a player out of chips gets the place of the number of players left."""
    from screens.snapshots import clock_snapshot
    from tournaments import services
    from tournaments.models import Entry

    tournament = live_tournament(players=6)
    client.force_login(staff)
    entry = tournament.entries.get(player__name="Player 3")
    services.set_chips(entry, 0, reason="lost every chip on a hand dealt without a tablet")
    client.post(f"/console/{tournament.pk}/entries/{entry.pk}/bust/")
    entry = Entry.objects.get(pk=entry.pk)
    assert entry.status == "busted" and entry.place == 6
    field = clock_snapshot(tournament.pk)["data"]["field"]
    assert field["players_left"] == 5 and field["entries"] == 6
    assert field["average_stack"] == 3000 * 5 // 5


def test_console_cannot_bust_a_player_with_chips_but_can_remove_one_with_a_reason_R8_8(client, staff):
    from tournaments.models import AuditEntry, Entry

    tournament = live_tournament(players=6)
    client.force_login(staff)
    entry = tournament.entries.get(player__name="Player 2")
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert f"/entries/{entry.pk}/bust/" not in page  # no Bust button beside a player with chips
    response = client.post(f"/console/{tournament.pk}/entries/{entry.pk}/bust/", follow=True)
    assert "3000 chips and cannot bust" in response.content.decode()
    assert Entry.objects.get(pk=entry.pk).status == "active" and Entry.objects.get(pk=entry.pk).chips == 3000
    response = client.post(
        f"/console/{tournament.pk}/entries/{entry.pk}/remove/", {"reason": ""}, follow=True
    )
    assert Entry.objects.get(pk=entry.pk).status == "active"  # no reason, nothing changed
    client.post(f"/console/{tournament.pk}/entries/{entry.pk}/remove/", {"reason": "disqualified: collusion"})
    entry = Entry.objects.get(pk=entry.pk)
    assert (entry.status, entry.chips, entry.place) == ("busted", 0, 6)
    removal = AuditEntry.objects.get(action="entry.remove")
    assert removal.reason == "disqualified: collusion" and removal.data == {"chips_removed": 3000}


def test_console_shows_payouts_and_icm_values_that_share_the_pool(client, staff):
    tournament = live_tournament(players=6)
    client.force_login(staff)
    context = client.get(f"/console/{tournament.pk}/").context
    assert [p["amount"] for p in context["payouts"]] == [600]
    rows = context["icm_rows"]
    assert len(rows) == 6
    assert sum(r["equity"] for r in rows) == 600  # equal stacks: 100 each
    assert {r["equity"] for r in rows} == {100}


def test_console_offers_icm_from_the_players_left_not_the_entries(client, staff):
    """ICM values once ``icm.MAX_PLAYERS`` or fewer are left: one more and the console shows none (the
    field is then not read for them)."""
    from tournaments import icm
    from tournaments.models import Entry

    tournament = live_tournament(players=icm.MAX_PLAYERS + 1)
    client.force_login(staff)
    assert client.get(f"/console/{tournament.pk}/").context["icm_rows"] == []
    entry = tournament.entries.order_by("pk").first()
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.BUSTED, chips=0, place=icm.MAX_PLAYERS + 1)
    rows = client.get(f"/console/{tournament.pk}/").context["icm_rows"]
    assert len(rows) == icm.MAX_PLAYERS and str(entry) not in {r["name"] for r in rows}


def test_console_registration_and_bad_input_are_reported_and_change_nothing(client, staff):
    tournament = live_tournament(players=2, start=False)
    client.force_login(staff)
    client.post(f"/console/{tournament.pk}/register/", {"name": "Ana Lopez"})
    assert tournament.entries.filter(player__name="Ana Lopez", status="active").count() == 1
    # Registering the same player twice is refused with the service's reason.
    response = client.post(f"/console/{tournament.pk}/register/", {"name": "Ana Lopez"}, follow=True)
    assert any("already has chips" in str(m) for m in response.context["messages"])
    assert tournament.entries.filter(player__name="Ana Lopez").count() == 1
    response = client.post(f"/console/{tournament.pk}/register/", {"name": ""}, follow=True)
    assert any("name" in str(m) for m in response.context["messages"])
    response = client.post(
        f"/console/{tournament.pk}/clock/add_time/",
        {"seconds": "soon", "clock_version": tournament.clock_version},
        follow=True,
    )
    assert any("seconds" in str(m) for m in response.context["messages"])
    assert client.post(f"/console/{tournament.pk}/clock/explode/").status_code == 404


def test_console_forms_with_a_malformed_id_say_so_and_change_nothing(client, staff):
    """A tampered form (a player or table that is not an id) is reported, never a server error."""
    from screens.models import PairingCode

    tournament = live_tournament(players=2, start=False)
    client.force_login(staff)
    entries = tournament.entries.count()
    response = client.post(f"/console/{tournament.pk}/register/", {"player": "abc"}, follow=True)
    assert response.status_code == 200
    assert any("player" in str(m) for m in response.context["messages"])
    assert tournament.entries.count() == entries
    response = client.post(
        f"/console/{tournament.pk}/devices/pair/", {"kind": "tablet", "table": "abc"}, follow=True
    )
    assert response.status_code == 200
    assert any("table" in str(m) for m in response.context["messages"])
    assert not PairingCode.objects.exists()
