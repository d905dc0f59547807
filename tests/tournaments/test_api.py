"""Every API operation: one success, one bad input that gets a 4xx naming the problem and changes nothing."""

import pytest
from django.forms.models import model_to_dict

from tests.factories import entries_of, zero
from tournaments import services
from tournaments.models import AuditEntry, BlindStructure, Entry, Level, Player, Tournament

pytestmark = pytest.mark.django_db


def state(*objects):
    """Everything that could change: the rows given, and how many entries, levels and audit rows exist."""
    rows = [model_to_dict(type(o).objects.get(pk=o.pk)) for o in objects]
    counts = (
        Tournament.objects.count(),
        Entry.objects.count(),
        Level.objects.count(),
        Player.objects.count(),
        BlindStructure.objects.count(),
        AuditEntry.objects.count(),
    )
    return rows, counts


def refused(response, status, *words):
    assert response.status_code == status, response.content
    detail = response.json()["detail"]
    for word in words:
        assert word in detail, detail
    return response.json()


# ---------------------------------------------------------------- tournaments


def test_create_tournament_copies_the_template(api, template):
    response = api.post(
        "/api/tournaments/",
        {
            "name": "Spring",
            "game": "courchevel",
            "structure": template.pk,
            "buy_in": 300,
            "seeding": "master",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["starting_stack"] == template.starting_stack and body["status"] == "planned"
    assert body["structure"] != template.pk and len(body["master_seed_commitment"]) == 64
    assert body["master_seed"] is None


@pytest.mark.parametrize(
    "field, value, status, words",
    [
        ("starting_stack", -5, 400, ["starting_stack"]),
        ("starting_stack", 10**12, 400, ["starting_stack"]),
        ("seats_per_table", 9, 400, ["seats_per_table"]),
        # Well formed (numbers from 0 to 100), but against the payout rules: 422.
        ("payout_percentages", [30, 70], 422, ["payout_percentages", "higher"]),
        ("game", "holdem", 400, ["game"]),
    ],
)
def test_create_tournament_bad_input_names_the_field_and_creates_nothing(
    api, template, field, value, status, words
):
    before = state(template)
    data = {"name": "Bad", "game": "courchevel", "structure": template.pk, field: value}
    refused(api.post("/api/tournaments/", data, format="json"), status, *words)
    assert state(template) == before


def test_writes_need_staff_reads_are_public(anon, planned, template):
    tournament = planned()
    assert anon.get(f"/api/tournaments/{tournament.pk}/").status_code == 200
    before = state(tournament)
    assert anon.post("/api/tournaments/", {"name": "x", "structure": template.pk}).status_code == 403
    assert anon.post(f"/api/tournaments/{tournament.pk}/open-registration/").status_code == 403
    assert anon.get(f"/api/tournaments/{tournament.pk}/audit/").status_code == 403
    assert state(tournament) == before


def test_edit_tournament(api, planned):
    tournament = planned()
    response = api.patch(
        f"/api/tournaments/{tournament.pk}/",
        {"name": "Renamed", "payout_percentages": [60, 40]},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Renamed" and response.json()["payout_percentages"] == [60, 40]


def test_edit_tournament_bad_input_changes_nothing(api, running):
    tournament = running(3)
    before = state(tournament)
    refused(
        api.patch(f"/api/tournaments/{tournament.pk}/", {"payout_percentages": [50, 30]}, format="json"),
        422,
        "payout_percentages",
        "100",
    )
    refused(
        api.patch(f"/api/tournaments/{tournament.pk}/", {"starting_stack": 5000}, format="json"),
        409,
        "starting_stack",
    )
    assert state(tournament) == before


def test_lifecycle_open_start_finish(api, planned):
    tournament = planned()
    assert api.post(f"/api/tournaments/{tournament.pk}/open-registration/").json()["status"] == "registering"
    for name in ("Ann", "Bob"):
        assert api.post(f"/api/tournaments/{tournament.pk}/entries/", {"name": name}).status_code == 201
    assert api.post(f"/api/tournaments/{tournament.pk}/seating/draw/").status_code == 201
    body = api.post(f"/api/tournaments/{tournament.pk}/start/").json()
    assert body["status"] == "running" and body["clock"]["running"]
    loser = zero(entries_of(tournament)[0])
    response = api.post(
        f"/api/tournaments/{tournament.pk}/bust/",
        {"busts": [{"entry": loser.pk, "chips_at_start": 20000}]},
        format="json",
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.status == "finished"  # the last player standing finishes it


def test_lifecycle_in_the_wrong_state_is_409_and_changes_nothing(api, planned):
    tournament = planned()
    before = state(tournament)
    refused(api.post(f"/api/tournaments/{tournament.pk}/start/"), 409, "cannot start")
    refused(api.post(f"/api/tournaments/{tournament.pk}/finish/"), 409, "cannot finish")
    assert state(tournament) == before
    api.post(f"/api/tournaments/{tournament.pk}/open-registration/")
    before = state(tournament)
    body = refused(
        api.post(f"/api/tournaments/{tournament.pk}/start/"), 409, "cannot start: no players seated"
    )
    assert body["code"] == "no_players"
    refused(api.post(f"/api/tournaments/{tournament.pk}/open-registration/"), 409, "cannot open registration")
    assert state(tournament) == before


def test_master_seed_is_revealed_only_when_finished(api, running):
    tournament = running(2, seeding="master")
    assert api.get(f"/api/tournaments/{tournament.pk}/").json()["master_seed"] is None
    services.bust_entries(tournament, [(zero(entries_of(tournament)[0]), 100)])
    body = api.get(f"/api/tournaments/{tournament.pk}/").json()
    tournament.refresh_from_db()
    assert body["status"] == "finished" and body["master_seed"] == bytes(tournament.master_seed).hex()


# ---------------------------------------------------------------- clock


def test_clock_read_and_operations(api, running):
    tournament = running(3)
    url = f"/api/tournaments/{tournament.pk}/clock/"
    clock = api.get(url).json()
    assert clock["running"] and clock["level_number"] == 1 and clock["level"]["big_blind"] == 100
    paused = api.post(url + "pause/").json()
    assert paused["paused"] and not paused["running"]
    removed = api.post(url + "add-time/", {"seconds": -300}, format="json").json()
    assert removed["remaining_seconds"] == pytest.approx(paused["remaining_seconds"] - 300, abs=0.01)
    added = api.post(url + "add-time/", {"seconds": 120}, format="json").json()
    assert added["remaining_seconds"] == pytest.approx(removed["remaining_seconds"] + 120, abs=0.01)
    assert api.post(url + "resume/").json()["running"]
    jumped = api.post(url + "jump/", {"level_index": 4}, format="json").json()
    assert jumped["is_break"] and jumped["level_for_next_hand"]["order"] == 5
    tournament.refresh_from_db()
    assert tournament.status == "on_break"
    h4h = api.post(url + "hand-for-hand/", {"on": True}, format="json").json()
    assert h4h["hand_for_hand"] and h4h["paused"]
    assert api.post(url + "hand-for-hand-round/").status_code == 200
    assert api.post(url + "hand-for-hand/", {"on": False}, format="json").json()["running"]


def test_clock_operations_in_the_wrong_state_or_with_bad_input_change_nothing(api, running, planned):
    tournament = running(3)
    url = f"/api/tournaments/{tournament.pk}/clock/"
    before = state(tournament)
    refused(api.post(url + "resume/"), 409, "not paused")
    refused(api.post(url + "add-time/", {"seconds": 0}, format="json"), 400, "seconds")
    refused(api.post(url + "add-time/", {"seconds": "ten"}, format="json"), 400, "seconds")
    refused(api.post(url + "add-time/", {"seconds": -5000}, format="json"), 422, "more time than is left")
    # Never more than the level's own length left: the level has just started, nothing can be added.
    refused(api.post(url + "add-time/", {"seconds": 7200}, format="json"), 422, "its own length")
    refused(api.post(url + "jump/", {"level_index": 999}, format="json"), 400, "level_index")
    refused(api.post(url + "jump/", {"level_index": -1}, format="json"), 400, "level_index")
    refused(api.post(url + "hand-for-hand/", {"on": False}, format="json"), 409, "already off")
    refused(api.post(url + "hand-for-hand-round/"), 409, "Hand-for-hand is off")
    assert state(tournament) == before
    not_started = planned(name="Not started")
    before = state(not_started)
    refused(api.post(f"/api/tournaments/{not_started.pk}/clock/pause/"), 409, "Planned")
    assert state(not_started) == before


# ---------------------------------------------------------------- entries


def test_register_list_and_reenter(api, running):
    tournament = running(3, max_reentries=1, late_registration_until_level=3)
    response = api.post(f"/api/tournaments/{tournament.pk}/entries/", {"name": "Late Larry"})
    assert response.status_code == 201 and response.json()["chips"] == 20000
    entries = api.get(f"/api/tournaments/{tournament.pk}/entries/").json()
    assert len(entries) == 4
    out = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(out, 20000)])
    again = api.post(f"/api/entries/{out.pk}/reenter/")
    assert again.status_code == 201 and again.json()["number"] == 2


def test_register_and_reenter_bad_input_change_nothing(api, running):
    tournament = running(3)  # no re-entries, registration closed once started
    player = entries_of(tournament)[0].player
    before = state(tournament)
    refused(api.post(f"/api/tournaments/{tournament.pk}/entries/", {}), 400, "player")
    refused(api.post(f"/api/tournaments/{tournament.pk}/entries/", {"player": 99999}), 404, "player")
    refused(api.post(f"/api/tournaments/{tournament.pk}/entries/", {"player": player.pk}), 409, "closed")
    out = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(out, 20000)])
    before = state(tournament)
    refused(api.post(f"/api/entries/{out.pk}/reenter/"), 409, "closed")
    assert state(tournament) == before


def test_bust_places_several_players_R8_6(api, running):
    tournament = running(6)
    a, b = zero(entries_of(tournament)[0]), zero(entries_of(tournament)[1])
    response = api.post(
        f"/api/tournaments/{tournament.pk}/bust/",
        {
            "busts": [{"entry": a.pk, "chips_at_start": 900}, {"entry": b.pk, "chips_at_start": 1500}],
            "hand_label": "T2 #40",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    assert [(row["id"], row["place"]) for row in response.json()] == [(b.pk, 5), (a.pk, 6)]


def test_bust_of_a_player_with_chips_or_bad_input_changes_nothing(api, running):
    tournament = running(4)
    emptied, stacked = zero(entries_of(tournament)[0]), entries_of(tournament)[1]
    before = state(tournament, emptied, stacked)
    url = f"/api/tournaments/{tournament.pk}/bust/"
    body = refused(
        api.post(
            url,
            {
                "busts": [
                    {"entry": emptied.pk, "chips_at_start": 500},
                    {"entry": stacked.pk, "chips_at_start": 500},
                ]
            },
            format="json",
        ),
        422,
        "still has 20000 chips",
    )
    assert body["rule"] == "R8.8"
    refused(api.post(url, {"busts": []}, format="json"), 400, "busts")
    refused(
        api.post(url, {"busts": [{"entry": emptied.pk, "chips_at_start": -1}]}, format="json"),
        400,
        "chips_at_start",
    )
    refused(api.post(url, {"busts": [{"entry": 99999, "chips_at_start": 5}]}, format="json"), 404, "99999")
    refused(
        api.post(url, {"busts": [{"entry": 10**30, "chips_at_start": 5}]}, format="json"), 400, "busts.entry"
    )
    refused(
        api.post(url, {"busts": [{"entry": "Ann", "chips_at_start": 5}]}, format="json"), 400, "busts.entry"
    )
    assert state(tournament, emptied, stacked) == before


def test_rebuy_addon_and_chip_correction(api, running):
    tournament = running(3, rebuys_allowed=2, addon_allowed=True, late_registration_until_level=2)
    entry = entries_of(tournament)[0]
    assert api.post(f"/api/entries/{entry.pk}/rebuy/").json()["chips"] == 40000
    assert api.post(f"/api/entries/{entry.pk}/addon/").json()["addon_taken"] is True
    body = api.post(
        f"/api/entries/{entry.pk}/chips/", {"chips": 12345, "reason": "recount"}, format="json"
    ).json()
    assert body["chips"] == 12345
    assert AuditEntry.objects.filter(action="entry.set_chips", reason="recount").exists()


def test_rebuy_addon_and_chips_bad_input_change_nothing(api, running):
    tournament = running(3, addon_allowed=True, late_registration_until_level=2)
    entry = entries_of(tournament)[0]
    api.post(f"/api/entries/{entry.pk}/addon/")
    before = state(tournament, entry)
    refused(api.post(f"/api/entries/{entry.pk}/rebuy/"), 422, "no rebuys")
    refused(api.post(f"/api/entries/{entry.pk}/addon/"), 422, "already been taken")
    refused(
        api.post(f"/api/entries/{entry.pk}/chips/", {"chips": -1, "reason": "x"}, format="json"), 400, "chips"
    )
    refused(
        api.post(f"/api/entries/{entry.pk}/chips/", {"chips": 10**13, "reason": "x"}, format="json"),
        400,
        "chips",
    )
    refused(api.post(f"/api/entries/{entry.pk}/chips/", {"chips": 5}, format="json"), 400, "reason")
    assert state(tournament, entry) == before


def test_undo_bust(api, running):
    tournament = running(4)
    out = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(out, 7000)])
    body = api.post(f"/api/entries/{out.pk}/undo-bust/", {"reason": "misread board"}, format="json").json()
    assert (body["status"], body["chips"], body["place"]) == ("active", 7000, None)


def test_undo_bust_bad_input_changes_nothing(api, running):
    tournament = running(4)
    out, still_in = zero(entries_of(tournament)[0]), entries_of(tournament)[1]
    services.bust_entries(tournament, [(out, 7000)])
    before = state(tournament, out)
    refused(api.post(f"/api/entries/{out.pk}/undo-bust/", {}, format="json"), 400, "reason")
    refused(
        api.post(f"/api/entries/{out.pk}/undo-bust/", {"reason": "x", "chips": 0}, format="json"),
        400,
        "chips",
    )
    refused(
        api.post(f"/api/entries/{still_in.pk}/undo-bust/", {"reason": "x"}, format="json"), 409, "not busted"
    )
    assert state(tournament, out) == before


def test_undo_bust_after_a_re_entry_is_refused_and_changes_nothing(api, running):
    tournament = running(4, max_reentries=1, late_registration_until_level=2)
    out = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(out, 7000)])
    again = api.post(f"/api/entries/{out.pk}/reenter/")
    assert again.status_code == 201, again.content
    before = state(tournament, out, Entry.objects.get(pk=again.json()["id"]))
    body = refused(
        api.post(f"/api/entries/{out.pk}/undo-bust/", {"reason": "misread"}, format="json"), 409, "re-entered"
    )
    assert body["code"] == "already_active"
    assert state(tournament, out, Entry.objects.get(pk=again.json()["id"])) == before


# ---------------------------------------------------------------- prizes and ICM


def test_payouts_table_and_finishers(api, running):
    tournament = running(20)  # 20 x 100: three places paid 50/30/20
    body = api.get(f"/api/tournaments/{tournament.pk}/payouts/").json()
    assert body["prize_pool"] == 2000 and body["places_paid"] == 3
    assert [row["amount"] for row in body["table"]] == [1000, 600, 400]
    assert sum(row["amount"] for row in body["table"]) == body["prize_pool"]


def test_tournament_icm_uses_the_players_left_and_the_prizes_to_win(api, running):
    tournament = running(20)
    for entry in entries_of(tournament)[:17]:
        services.bust_entries(tournament, [(zero(entry), 100)])
    left = entries_of(tournament)[17:]
    for entry, chips in zip(left, (200000, 120000, 80000)):
        Entry.objects.filter(pk=entry.pk).update(chips=chips)
    body = api.get(f"/api/tournaments/{tournament.pk}/icm/").json()
    assert body["payouts"] == [1000, 600, 400] and body["stacks"] == [200000, 120000, 80000]
    # Same shape as 50/30/20 with 5000/3000/2000: 38.392857% ... of 2,000.
    assert body["equities"] == pytest.approx([767.86, 655.0, 577.14], abs=0.01)


def test_icm_calculator(anon):
    response = anon.post("/api/icm/", {"stacks": [5000, 3000, 2000], "payouts": [50, 30, 20]}, format="json")
    assert response.status_code == 200
    assert response.json()["equities"] == [38.39, 32.75, 28.86]


@pytest.mark.parametrize(
    "data, status, words",
    [
        ({"stacks": [5000, 0], "payouts": [10]}, 400, ["stacks"]),
        ({"stacks": [5000, 3000], "payouts": [10, 20]}, 422, ["payouts", "higher"]),
        ({"stacks": [], "payouts": [10]}, 400, ["stacks"]),
        ({"stacks": [1] * 15, "payouts": [10]}, 400, ["stacks"]),
    ],
)
def test_icm_calculator_bad_input(anon, data, status, words):
    refused(anon.post("/api/icm/", data, format="json"), status, *words)


# ---------------------------------------------------------------- structures, levels, players


def test_structures_list_copy_and_edit_levels(api, template):
    listed = api.get("/api/structures/?templates=1").json()
    assert len(listed) == 9 and all(s["is_template"] for s in listed)
    copy = api.post(f"/api/structures/{template.pk}/copy/", {"name": "My regular"}, format="json").json()
    assert (
        copy["name"] == "My regular"
        and not copy["is_template"]
        and len(copy["levels"]) == template.levels.count()
    )
    first = copy["levels"][0]
    # In the template's chips (25 is the smallest, R5.7).
    edited = api.patch(f"/api/levels/{first['id']}/", {"small_blind": 50, "big_blind": 100}, format="json")
    assert edited.status_code == 200 and edited.json()["small_blind"] == 50
    added = api.post(
        f"/api/structures/{copy['id']}/levels/",
        {"order": 0, "duration_minutes": 15, "small_blind": 25, "big_blind": 50},
        format="json",
    )
    assert added.status_code == 201
    levels = api.get(f"/api/structures/{copy['id']}/").json()["levels"]
    assert [lv["big_blind"] for lv in levels[:2]] == [50, 100] and [lv["order"] for lv in levels] == list(
        range(len(levels))
    )
    assert api.delete(f"/api/levels/{added.json()['id']}/").status_code == 204
    assert BlindStructure.objects.get(pk=copy["id"]).levels.first().big_blind == 100


def test_structure_and_level_bad_input_change_nothing(api, template):
    copy = services.copy_structure(template)
    level = copy.levels.get(order=0)
    before = state(template, copy, level)
    refused(
        api.patch(f"/api/levels/{level.pk}/", {"small_blind": 300}, format="json"),
        422,
        "small_blind",
        "big blind",
    )
    refused(api.patch(f"/api/levels/{level.pk}/", {"big_blind": -100}, format="json"), 400, "big_blind")
    refused(api.patch(f"/api/levels/{level.pk}/", {"ante_kind": "big_blind"}, format="json"), 422, "ante")
    template_level = template.levels.get(order=0)
    refused(api.patch(f"/api/levels/{template_level.pk}/", {"big_blind": 200}, format="json"), 409, "copy")
    refused(
        api.post(
            f"/api/structures/{template.pk}/levels/",
            {"duration_minutes": 10, "big_blind": 200, "small_blind": 100},
            format="json",
        ),
        409,
        "copy",
    )
    refused(
        api.post(
            f"/api/structures/{copy.pk}/levels/", {"duration_minutes": 0, "big_blind": 200}, format="json"
        ),
        400,
        "duration_minutes",
    )
    refused(
        api.post(
            f"/api/structures/{copy.pk}/levels/",
            {"duration_minutes": 10, "is_break": True, "color_up": [10**30]},
            format="json",
        ),
        400,
        "color_up",
    )
    assert state(template, copy, level) == before


def test_create_fixed_limit_structure_checks_R3_3(api):
    good = {
        "name": "FL",
        "betting": "fixed_limit",
        "levels": [
            {"duration_minutes": 20, "small_blind": 10, "big_blind": 15, "small_bet": 15, "big_bet": 30},
            {"duration_minutes": 10, "is_break": True, "color_up": [5]},
        ],
    }
    response = api.post("/api/structures/", good, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["levels"][0]["small_blind"] == 10  # R3.2: 15/30 plays 10/15 blinds
    before = state()
    bad = {
        **good,
        "levels": [
            {"duration_minutes": 20, "small_blind": 10, "big_blind": 15, "small_bet": 20, "big_bet": 40}
        ],
    }
    refused(api.post("/api/structures/", bad, format="json"), 422, "small_bet", "R3.3")
    assert state() == before


def test_players_create_and_bad_input(api):
    assert api.post("/api/players/", {"name": "Zoé", "country": "FR"}).status_code == 201
    before = state()
    refused(api.post("/api/players/", {"name": ""}), 400, "name")
    assert state() == before


def test_audit_log_is_staff_only_and_lists_actions(api, running, staff):
    tournament = running(3)
    api.post(f"/api/tournaments/{tournament.pk}/clock/pause/")
    rows = api.get(f"/api/tournaments/{tournament.pk}/audit/").json()
    assert rows[0]["action"] == "clock.pause" and rows[0]["actor"] == staff.username


def test_schema_documents_error_responses(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    pause = schema["paths"]["/api/tournaments/{id}/clock/pause/"]["post"]["responses"]
    assert {"200", "403", "404", "409"} <= set(pause)
    bust = schema["paths"]["/api/tournaments/{id}/bust/"]["post"]["responses"]
    assert {"200", "400", "409", "422"} <= set(bust)


def test_tournament_icm_with_too_many_players_left_is_refused(api, running):
    tournament = running(15)
    body = refused(api.get(f"/api/tournaments/{tournament.pk}/icm/"), 422, "14")
    assert "ICM" in body["detail"]
