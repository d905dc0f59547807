"""Issue 16, the room: what the clock screens and the players' page are sent and served, and the
language each screen speaks. (The screens themselves, in a browser: test_room_browser.py.)"""

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone, translation

from screens import player_page
from screens.models import Device, DeviceKind
from screens.pairing import create_pairing_code, redeem_pairing_code, revoke_device
from screens.snapshots import clock_data, clock_snapshot, find_private_keys
from tables.models import Move, Seat
from tests.screens.live import live_tournament
from tournaments import services
from tournaments.models import AuditEntry, Player, Tournament

pytestmark = pytest.mark.django_db


def later(seconds):
    return mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(seconds=seconds))


# --- item 1: what the clock is sent -----------------------------------------------------------------


def test_a_running_clock_payload_does_not_change_within_a_level_R8_2():
    """Cheap at 100 screens: a rebuild within the level sends the same data (the screens count down
    from "level ends at"); the level changing is what changes it."""
    tournament = live_tournament(players=6, level_minutes=20)
    first = clock_snapshot(tournament.pk)
    with later(90):
        again = clock_snapshot(tournament.pk)
    assert first["data"] == again["data"]
    assert first["data"]["clock"]["remaining"] is None and first["data"]["clock"]["level_ends_at"]
    with later(21 * 60):
        next_level = clock_snapshot(tournament.pk)
    assert next_level["data"]["clock"]["level_index"] == 1


def test_a_paused_clock_still_says_its_time_left():
    tournament = live_tournament(players=6)
    services.pause_clock(tournament)
    clock = clock_snapshot(tournament.pk)["data"]["clock"]
    assert clock["paused"] and 19 * 60 < clock["remaining"] <= 20 * 60


def test_late_registration_says_until_which_level_and_where_it_ends_in_the_schedule_R8_1():
    tournament = live_tournament(players=6)
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_until_level=2)
    late = clock_data(Tournament.objects.get(pk=tournament.pk))["late_registration"]
    # Levels 1, 2, then the break (index 2): registration stays open through that break.
    assert late == {"open": True, "until_level": 2, "last_index": 2}
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_until_level=0)
    late = clock_data(Tournament.objects.get(pk=tournament.pk))["late_registration"]
    assert late["open"] is False and late["last_index"] is None


def test_the_field_counts_re_entries_and_chips_in_play():
    tournament = live_tournament(players=4)
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_until_level=4, max_reentries=1)
    tournament.refresh_from_db()
    entry = tournament.entries.get(player__name="Player 2")
    services.set_chips(entry, 0, reason="lost it all")
    services.bust_entries(tournament, [(entry, 3000)])
    services.register(tournament, Player.objects.get(name="Player 2"))
    field = clock_data(Tournament.objects.get(pk=tournament.pk))["field"]
    assert field["entries"] == 5 and field["reentries"] == 1 and field["players_left"] == 4
    assert field["chips_in_play"] == 4 * 3000


def test_chip_leaders_show_only_once_stacks_differ_and_moves_name_who_goes_where():
    tournament = live_tournament(players=6)
    assert clock_data(tournament)["room"]["chip_leaders"] == []  # every stack 3,000 says nothing
    a, b = tournament.entries.order_by("id")[:2]
    services.set_chips(a, 4500, reason="count")
    services.set_chips(b, 1500, reason="count")
    leaders = clock_data(tournament)["room"]["chip_leaders"]
    assert leaders[0] == {"name": a.player.name, "chips": 4500} and leaders[-1]["chips"] == 1500
    seat = Seat.objects.get(entry=b)
    table = tournament.tables.exclude(pk=seat.table_id).first() or seat.table
    Move.objects.create(
        tournament=tournament,
        entry=b,
        from_table=seat.table,
        from_seat=seat.number,
        to_table=table,
        to_seat=9,
        reason=Move.Reason.BALANCE,
    )
    moves = clock_data(tournament)["room"]["recent_moves"]
    assert moves[0]["name"] == b.player.name and moves[0]["to_seat"] == 9


def test_hand_for_hand_says_its_round_and_the_time_taken_off_R8_6():
    tournament = live_tournament(players=6)
    services.set_hand_for_hand(tournament, True)
    tournament.refresh_from_db()
    hfh = clock_data(tournament)["room"]["hand_for_hand"]
    assert hfh == {"round": 1, "seconds_taken": 0}
    started = tournament.hand_for_hand_round_started_at
    services.hand_for_hand_round_finished(tournament, now=started + timedelta(seconds=75))
    tournament.refresh_from_db()
    services.hand_for_hand_round_finished(
        tournament, now=tournament.hand_for_hand_round_started_at + timedelta(seconds=500)
    )
    tournament.refresh_from_db()
    # 75 s, then a slow round counted as its two minutes at most.
    assert clock_data(tournament)["room"]["hand_for_hand"] == {"round": 3, "seconds_taken": 195}
    assert AuditEntry.objects.filter(tournament=tournament, action="clock.hand_for_hand_round").count() == 2


def test_the_end_names_the_winner_and_the_places_paid_R8_8():
    tournament = live_tournament(players=3)
    entries = list(tournament.entries.order_by("id"))
    for entry in entries[:2]:
        services.set_chips(entry, 0, reason="out")
        services.bust_entries(Tournament.objects.get(pk=tournament.pk), [(entry, 3000)])
    tournament = Tournament.objects.get(pk=tournament.pk)
    if tournament.status != Tournament.Status.FINISHED:
        services.finish_tournament(tournament)
        tournament.refresh_from_db()
    results = clock_data(tournament)["room"]["results"]
    assert results[0]["place"] == 1 and results[0]["name"] == entries[2].player.name
    assert [r["place"] for r in results] == sorted(r["place"] for r in results)
    assert all(r["prize"] > 0 for r in results)


def test_a_final_table_is_said_so():
    tournament = live_tournament(players=6)
    assert tournament.tables.count() == 1
    assert clock_data(tournament)["room"]["final_table"] is True


# --- the clock page: kiosk, QR code, panels, festival ------------------------------------------------


def test_the_clock_page_has_the_players_page_qr_and_a_kiosk_mode_without_the_tap_hint(client, staff):
    tournament = live_tournament(players=6)
    client.force_login(staff)
    page = client.get(f"/clock/{tournament.pk}/").content.decode()
    assert (
        'data-role="sound-hint">Tap to turn sound on' in page
        and "<svg" in page
        and 'data-panels="payouts,schedule' in page
    )
    kiosk = client.get(f"/clock/{tournament.pk}/?kiosk=1&panels=payouts,nonsense,time").content.decode()
    assert 'data-role="sound-hint"' not in kiosk and "data-kiosk" in kiosk
    assert 'data-panels="payouts,time"' in kiosk  # an unknown panel is ignored
    assert "http" not in kiosk.split("<svg", 1)[1].split("</svg>", 1)[0].replace("http://www.w3.org", "")


def test_a_festival_screen_must_be_paired_for_every_tournament_it_shows(client, staff):
    a = live_tournament(players=4, name="Flight A")
    b = live_tournament(players=4, name="Flight B")
    _, token = redeem_pairing_code(create_pairing_code(tournament=a, kind=DeviceKind.CLOCK).code)
    client.cookies[f"dev_c{a.pk}"] = token
    assert client.get(f"/clock/festival/?t={a.pk}").status_code == 200
    assert client.get(f"/clock/festival/?t={a.pk}&t={b.pk}").status_code == 403
    assert client.get("/clock/festival/?t=abc").status_code == 404
    client.force_login(staff)
    page = client.get(f"/clock/festival/?t={a.pk}&t={b.pk}").content.decode()
    assert page.count("data-clock ") == 2 and "Flight A" in page and "Flight B" in page


# --- item 2: the players' page ------------------------------------------------------------------------


def test_the_players_page_is_public_and_its_data_is_one_cached_build_per_version(client):
    player_page.builds.clear()
    tournament = live_tournament(players=12)
    assert client.get(f"/p/{tournament.pk}/").status_code == 200  # nobody signed in, no device
    before = player_page.builds.builds
    first = client.get(f"/p/{tournament.pk}/data.json")
    assert first.status_code == 200 and "max-age" in first["Cache-Control"]
    for _ in range(20):
        assert client.get(f"/p/{tournament.pk}/data.json").content == first.content
    assert player_page.builds.builds == before + 1  # twenty-one requests, one build
    again = client.get(f"/p/{tournament.pk}/data.json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]
    body = json.loads(first.content)
    assert body["data"]["field"]["players_left"] == 12
    assert find_private_keys(body) == [] and "chip_leaders" not in body["data"]["room"]
    assert "seed_commitment" not in body["data"]["tournament"]
    # A change is a new version: a new ETag, and the phone gets the new data.
    services.pause_clock(tournament)
    changed = client.get(f"/p/{tournament.pk}/data.json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert json.loads(changed.content)["data"]["clock"]["paused"] is True


def test_the_players_page_carries_no_translated_text_so_one_build_serves_every_language(client):
    player_page.builds.clear()
    tournament = live_tournament(players=4)
    english = client.get(f"/p/{tournament.pk}/data.json", HTTP_ACCEPT_LANGUAGE="en").content
    french = client.get(f"/p/{tournament.pk}/data.json", HTTP_ACCEPT_LANGUAGE="fr").content
    assert english == french and b"_label" not in english
    page = client.get(f"/p/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="fr">' in page


def test_a_zero_prize_pool_pays_nobody_on_the_players_page(client):
    tournament = live_tournament(players=4)
    Tournament.objects.filter(pk=tournament.pk).update(buy_in=0)
    player_page.builds.clear()
    data = json.loads(client.get(f"/p/{tournament.pk}/data.json").content)["data"]
    assert data["field"]["prize_pool"] == 0 and data["field"]["payouts"] == []


def test_find_my_seat_ignores_case_and_accents_and_says_where(client):
    tournament = live_tournament(players=4)
    Player.objects.filter(pk=tournament.entries.order_by("id").first().player_id).update(
        name="José Núñez", name_key="jose nunez"
    )
    player_page.builds.clear()
    found = json.loads(client.get(f"/p/{tournament.pk}/seat/", {"name": "JOSE nun"}).content)["results"]
    assert len(found) == 1 and found[0]["name"] == "José Núñez"
    assert found[0]["table"] == 1 and 1 <= found[0]["seat"] <= 8 and found[0]["place"] is None
    assert json.loads(client.get(f"/p/{tournament.pk}/seat/", {"name": "nobody"}).content)["results"] == []


def test_find_my_seat_refuses_bad_input_plainly(client):
    tournament = live_tournament(players=4)
    short = client.get(f"/p/{tournament.pk}/seat/", {"name": "j"})
    assert short.status_code == 400 and "two letters" in short.json()["detail"]
    long = client.get(f"/p/{tournament.pk}/seat/", {"name": "x" * 65})
    assert long.status_code == 400 and "64" in long.json()["detail"]
    assert client.get("/p/999999/data.json").status_code == 404
    assert client.get("/p/999999/seat/", {"name": "ana"}).status_code == 404
    assert client.post(f"/p/{tournament.pk}/data.json").status_code == 405


# --- item 3: a screen's language ----------------------------------------------------------------------


def test_a_clock_paired_in_french_speaks_french_whatever_the_browser_says(client):
    tournament = live_tournament(players=4)
    new = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK)
    response = client.post("/pair/", {"code": new.code, "language": "fr"}, HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 302
    assert Device.objects.get(tournament=tournament).language == "fr"
    page = client.get(f"/clock/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert page["Content-Language"] == "fr" and '<html lang="fr">' in page.content.decode()
    with translation.override("fr"):
        level = translation.gettext("Level")
    labels = json.loads(
        page.content.decode().split('id="labels" type="application/json">')[1].split("</script>")[0]
    )
    assert labels["level"] == level


def test_pairing_refuses_a_language_not_offered(client):
    tournament = live_tournament(players=4)
    new = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK)
    response = client.post("/pair/", {"code": new.code, "language": "xx"})
    assert response.status_code == 400 and "language" in response.content.decode()
    assert not Device.objects.filter(tournament=tournament).exists()


def test_the_director_sets_a_screens_language_in_the_console(client, staff, plain_user):
    tournament = live_tournament(players=4)
    device, _ = redeem_pairing_code(create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).code)
    url = f"/console/{tournament.pk}/devices/{device.pk}/language/"
    client.force_login(plain_user)
    assert client.post(url, {"language": "el"}).status_code == 302  # to the sign-in page
    assert Device.objects.get(pk=device.pk).language == ""
    client.force_login(staff)
    console = client.get(f"/console/{tournament.pk}/").content.decode()
    # The screen's own select offers each language in its own name (the staff select marks lang="…").
    assert f'action="{url}"' in console and '<option value="el">Ελληνικά</option>' in console
    assert client.post(url, {"language": "el"}).status_code == 302
    assert Device.objects.get(pk=device.pk).language == "el"
    # The console shows the screen's language chosen; on a French console the first option is French.
    console = client.get(f"/console/{tournament.pk}/").content.decode()
    assert '<option value="el" selected>Ελληνικά</option>' in console
    assert '<option value="" selected>' not in console.split(f'action="{url}"')[1].split("</form>")[0]
    french = client.get(f"/console/{tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<option value="">La langue du navigateur</option>' in french
    assert AuditEntry.objects.filter(tournament=tournament, action="device.language").count() == 1
    assert client.post(url, {"language": "klingon"}).status_code == 400
    revoke_device(device)
    assert client.post(url, {"language": "fr"}).status_code == 409
    assert Device.objects.get(pk=device.pk).language == "el"


def test_a_clock_screen_lists_the_first_paid_places_and_says_how_many_are_paid_the_players_page_has_all():
    """A big event pays 1,500 places: the clock screens (their panel lists 30) are sent the first
    places and the count, not the whole table on every change; the player's page keeps every place."""
    from screens.snapshots import CLOCK_PAYOUTS_SHOWN, director_snapshot

    places = CLOCK_PAYOUTS_SHOWN + 10
    tournament = live_tournament(players=places + 5)
    Tournament.objects.filter(pk=tournament.pk).update(
        payout_amounts=[10 * (places - i) for i in range(places)]
    )
    field = clock_snapshot(tournament.pk)["data"]["field"]
    assert [p["place"] for p in field["payouts"]] == list(range(1, CLOCK_PAYOUTS_SHOWN + 1))
    assert field["places_paid"] == places
    assert field["payouts"][0]["amount"] > field["payouts"][-1]["amount"] > 0
    console = director_snapshot(tournament.pk)["data"]
    assert len(console["field"]["payouts"]) == CLOCK_PAYOUTS_SHOWN
    assert len(console["console"]["payouts"]) == places  # the console's own payouts panel: every place
    page = player_page.player_data(Tournament.objects.select_related("structure").get(pk=tournament.pk))
    assert len(page["field"]["payouts"]) == places
