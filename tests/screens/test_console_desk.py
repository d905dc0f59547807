"""The registration desk, the controls that follow the state, seating and results (Django client)."""

import csv
import io

import pytest

from dealing import services as dealing
from tables.models import Seat
from tests import factories
from tournaments import services
from tournaments.models import AuditEntry, Entry, Player

pytestmark = pytest.mark.django_db


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_one_player_whatever_the_case_or_accents_and_the_answer_names_table_and_seat_R8_1(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(stage="drawn", players=3, max_reentries=2)
    desk = f"/console/{tournament.pk}/desk/"
    response = client.post(f"{desk}register/", {"name": "Ána Lima"}, follow=True)
    entry = Entry.objects.get(player__name="Ána Lima")
    seat = Seat.objects.select_related("table").get(entry=entry)
    assert _messages(response) == [f"Ána Lima is registered: table {seat.table.number}, seat {seat.number}"]
    assert 'data-action="seat-card"' in response.content.decode()
    # The search offers the existing player first; typing it again registers nobody new.
    found = client.get(f"{desk}search/", {"name": "ana lima"}).content.decode()
    assert 'data-same="true"' in found and "Ána Lima" in found
    response = client.post(f"{desk}register/", {"name": "ana  LIMA"}, follow=True)
    assert _messages(response) == ["Ána Lima already has chips in this tournament."]
    assert Player.objects.filter(name_key=entry.player.name_key).count() == 1
    card = client.get(f"/console/{tournament.pk}/entries/{entry.pk}/seat-card/").content.decode()
    assert f'data-role="table">{seat.table.number}<' in card and f'data-role="seat">{seat.number}<' in card


def test_void_before_it_has_played_frees_the_seat_and_the_pool_and_is_refused_once_dealt_in(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(stage="drawn", players=3, buy_in=100)
    entry = tournament.entries.first()
    seat = Seat.objects.select_related("table").get(entry=entry)
    assert services.prize_pool(tournament) == 300
    response = client.post(f"/console/{tournament.pk}/desk/{entry.pk}/void/", follow=True)
    assert _messages(response) == [
        f"The entry of {entry} is voided: table {seat.table.number}, seat {seat.number} is free."
    ]
    assert (
        not Entry.objects.filter(pk=entry.pk).exists() and not Seat.objects.filter(entry_id=entry.pk).exists()
    )
    assert services.prize_pool(tournament) == 200
    assert AuditEntry.objects.filter(action="entry.void", data__name=str(entry)).exists()

    running = factories.make_tournament(players=3)
    entry = running.entries.first()
    hand = dealing.start_next_hand(running.tables.get(), actor=staff)
    response = client.post(f"/console/{running.pk}/desk/{entry.pk}/void/", follow=True)
    assert _messages(response) == [
        f"{entry} has played (hand {hand.label}): an entry that has been dealt in is not voided."
    ]
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_rebuy_and_addon_at_the_desk_answer_with_the_chips_and_seat(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(
        players=2,
        rebuys_allowed=1,
        addon_allowed=True,
        addon_stack=500,
        late_registration_until_level=2,
    )
    entry = tournament.entries.first()
    seat = Seat.objects.select_related("table").get(entry=entry)
    response = client.post(f"/console/{tournament.pk}/desk/{entry.pk}/rebuy/", follow=True)
    where = f"table {seat.table.number}, seat {seat.number}"
    assert _messages(response) == [f"{entry} rebuys: 2000 chips, {where}"]
    response = client.post(f"/console/{tournament.pk}/desk/{entry.pk}/addon/", follow=True)
    assert _messages(response) == [f"{entry} takes the add-on: 2500 chips, {where}"]
    response = client.post(f"/console/{tournament.pk}/desk/{entry.pk}/addon/", follow=True)
    assert _messages(response) == ["The add-on has already been taken."]


def test_busted_players_are_out_never_in_even_before_they_are_placed_R8_8(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(players=3, late_registration_until_level=3)
    entry = factories.zero(tournament.entries.first())
    services.bust_entries(tournament, [(entry, 1000)])
    entry.refresh_from_db()
    assert entry.status == "busted" and entry.place is None  # placed when late registration closes
    desk = client.get(f"/console/{tournament.pk}/desk/?show=out").content.decode()
    row = desk[desk.index(f'data-entry="{entry.pk}"') :].split("</tr>")[0]
    assert "pill out" in row and "pill ok" not in row
    console = client.get(f"/console/{tournament.pk}/").content.decode()
    assert console.count('pill ok">in<') == 2


def test_controls_follow_the_state_no_pause_or_bust_once_finished(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(players=2)
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-action="pause"' in page and 'data-action="resume"' not in page
    assert 'data-action="start"' not in page
    loser, _winner = list(tournament.entries.order_by("pk"))
    factories.zero(loser)
    services.bust_entries(tournament, [(loser, 1000)])
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    for action in (
        "pause",
        "resume",
        "next-level",
        "previous-level",
        "add-minute",
        "hand-for-hand-on",
        "jump",
    ):
        assert f'data-action="{action}"' not in page, action
    assert "Bust " not in page and 'data-role="phase">Finished<' in page


def test_go_to_level_names_levels_by_number_and_fixed_limit_by_its_bets_R3_3(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(
        players=2,
        betting="fixed_limit",
        levels=[
            factories.level(10, 20, small_bet=20, big_bet=40),
            factories.pause(10),
            factories.level(15, 30, small_bet=30, big_bet=60),
        ],
    )
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert "Level 1 · 20/40 (blinds 10/20)" in page
    assert "Break · 10 min" in page
    assert "Level 2 · 30/60 (blinds 15/30)" in page


def test_hand_for_hand_is_shown_as_such_with_each_table_in_the_round_R8_6(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(players=12, seats_per_table=6)
    services.set_hand_for_hand(tournament, True)
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-role="phase">Hand-for-hand<' in page
    assert page.count('data-state="to_deal"') == 2
    assert 'data-action="hand-for-hand-off"' in page and 'data-action="pause"' not in page


def test_suggest_and_approve_balancing_and_the_breaking_order_R8_3_R8_4(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(players=12, seats_per_table=6, plan={"review_moves": True})
    # Three players of table 1 bust: the tables are 3 and 6, so a move is suggested, not made.
    table1 = tournament.tables.get(number=1)
    out = [s.entry for s in table1.seat_set.filter(entry__isnull=False)[:3]]
    for entry in out:
        factories.zero(entry)
    services.bust_entries(tournament, [(e, 1000) for e in out])
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-role="suggestions"' in page and 'data-action="approve"' in page
    keys = [part.split('"')[0] for part in page.split('name="key" value="')[1:]]
    # Skip sets a suggestion aside (it can still be approved later) and moves nobody.
    key = keys[0]
    before_skip = {s.entry_id: s.table_id for s in Seat.objects.filter(entry__isnull=False)}
    client.post(f"/console/{tournament.pk}/seating/skip/", {"key": key})
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-skipped="true"' in page and "Skipped:" in page
    assert {s.entry_id: s.table_id for s in Seat.objects.filter(entry__isnull=False)} == before_skip
    entry_id = int(key.split(":")[0])
    before = Seat.objects.get(entry_id=entry_id).table.number
    response = client.post(f"/console/{tournament.pk}/seating/approve/", {"key": key}, follow=True)
    assert "moves to table" in _messages(response)[0]
    assert Seat.objects.get(entry_id=entry_id).table.number != before
    # A stale suggestion is refused and moves nobody.
    response = client.post(f"/console/{tournament.pk}/seating/approve/", {"key": key}, follow=True)
    assert "no longer suggested" in _messages(response)[0]
    response = client.post(f"/console/{tournament.pk}/seating/break-order/", {"order": "1, 2"}, follow=True)
    assert _messages(response) == ["Tables break in this order: 1, 2."]
    assert list(tournament.tables.order_by("-break_order").values_list("number", flat=True)) == [1, 2]
    response = client.post(f"/console/{tournament.pk}/seating/break-order/", {"order": "1"}, follow=True)
    assert "missing 2" in _messages(response)[0]


def test_results_page_and_csv_list_places_names_and_prizes(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(players=3, buy_in=100, payout_percentages=[70, 30])
    entries = list(tournament.entries.order_by("pk"))
    factories.zero(entries[0])
    services.bust_entries(tournament, [(entries[0], 1000)])
    factories.zero(entries[1])
    services.bust_entries(tournament, [(entries[1], 1000)])
    page = client.get(f"/console/{tournament.pk}/results/").content.decode()
    assert "Download CSV" in page and 'media="print"' in page
    response = client.get(f"/console/{tournament.pk}/results.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Place", "Player", "Entry", "Prize"]
    assert [(r[0], r[1], r[3]) for r in rows[1:]] == [
        ("1", str(entries[2]), "210"),
        ("2", str(entries[1]), "90"),
        ("3", str(entries[0]), "0"),
    ]


def test_the_directors_guide_is_in_the_console_with_its_screenshots(client, staff):
    assert client.get("/console/help/").status_code == 302  # staff only
    client.force_login(staff)
    page = client.get("/console/help/").content.decode()
    assert "<h1" in page and "Registration desk" in page
    assert '<img src="/console/help/console-desk.png"' in page
    shot = client.get("/console/help/console-desk.png")
    assert shot.status_code == 200 and shot["Content-Type"] == "image/png"
    assert client.get("/console/help/architecture.md").status_code == 404
    assert client.get("/console/help/..%2Fconfig%2Fsettings.py").status_code == 404
    # The console links to it.
    tournament = factories.make_tournament(stage="planned")
    assert 'href="/console/help/"' in client.get(f"/console/{tournament.pk}/").content.decode()


def test_at_a_color_up_break_the_console_colors_up_and_races_the_odd_chips_R8_7(client, staff):
    from tests.screens.test_chip_race import _on_a_color_up_break

    client.force_login(staff)
    tournament = _on_a_color_up_break()
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-action="color-up"' in page and "Color up the 25 chips" in page
    response = client.post(f"/console/{tournament.pk}/color-up/", follow=True)
    assert "colored up and the odd chips raced off" in _messages(response)[0]
    assert all(chips % 100 == 0 for chips in tournament.entries.values_list("chips", flat=True))
    page = client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-action="color-up"' not in page  # done once per break
    response = client.post(f"/console/{tournament.pk}/color-up/", follow=True)
    assert _messages(response) == ["These chips are already colored up."]
