"""Lifecycle, stored clock and ticker, entries, busts and prizes through tournaments.services."""

import hashlib
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from dealing.hand_for_hand import waiting_reason
from dealing.tasks import close_hand_for_hand_rounds
from tests.factories import entries_of, zero
from tournaments import selectors, services
from tournaments.audit import record_audit
from tournaments.errors import RuleError, StateError
from tournaments.models import AuditEntry, Entry, Player, Tournament
from tournaments.tasks import advance_clocks

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- lifecycle


def test_start_is_guarded_planned_then_no_players_seated(planned):
    tournament = planned()
    with pytest.raises(StateError, match="cannot start: the tournament is Planned"):
        services.start_tournament(tournament)
    services.open_registration(tournament)
    with pytest.raises(StateError, match="cannot start: no players seated"):
        services.start_tournament(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTERING and tournament.level_started_at is None


def test_start_runs_the_clock_and_the_templates_copy_is_the_tournaments_own(running, template):
    tournament = running(4)
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.structure_id != template.pk and not tournament.structure.is_template
    assert tournament.structure.levels.count() == template.levels.count()
    state = services.clock_state(tournament)
    assert state.running and state.level_index == 0 and 1190 < state.remaining <= 1200


def test_master_seed_is_32_bytes_with_its_sha256_commitment(planned):
    tournament = planned(seeding=Tournament.Seeding.MASTER)
    assert len(tournament.master_seed) == 32
    assert tournament.master_seed_commitment == hashlib.sha256(tournament.master_seed).hexdigest()
    assert services.master_seed_hex(tournament) is None  # hidden until finished
    assert planned(name="Fresh").master_seed is None


def test_finish_refused_while_players_have_chips(running):
    tournament = running(3)
    with pytest.raises(StateError, match="3 players still have chips"):
        services.finish_tournament(tournament)


# ---------------------------------------------------------------- the stored clock and the ticker


def _shift_start(tournament, minutes_ago):
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    tournament.refresh_from_db()
    return tournament.level_started_at


def test_tick_catches_up_after_downtime_and_a_second_tick_changes_nothing(running):
    """Down for 65 minutes with 20-minute levels: level 4 began 60 minutes after level 1."""
    tournament = running(4)
    started = _shift_start(tournament, 65)
    version = tournament.clock_version
    assert advance_clocks() == 1
    tournament.refresh_from_db()
    assert tournament.level_index == 3
    assert tournament.level_started_at == started + timedelta(minutes=60)
    assert tournament.clock_version == version + 1
    assert advance_clocks() == 0  # run twice: same result
    again = Tournament.objects.get(pk=tournament.pk)
    assert (again.level_index, again.level_started_at, again.clock_version) == (
        3,
        started + timedelta(minutes=60),
        version + 1,
    )


def test_downtime_across_a_break_catches_up_to_the_right_level_and_status(running):
    """Down for 100 minutes: levels 1-4 (80 min) and the 15-minute break went by while nobody ticked;
    the first tick after the restart is 5 minutes into level 5, running, with the break's time counted."""
    tournament = running(4)
    started = _shift_start(tournament, 100)
    assert advance_clocks() == 1
    tournament.refresh_from_db()
    assert (tournament.status, tournament.level_index) == (Tournament.Status.RUNNING, 5)
    assert tournament.level_started_at == started + timedelta(minutes=95)
    assert services.level_for_next_hand(tournament).order == 5
    assert 14 * 60 < services.clock_state(tournament).remaining <= 15 * 60


def test_entering_and_leaving_a_break_moves_the_status(running):
    tournament = running(4)
    _shift_start(tournament, 85)  # four 20-minute levels, then 5 minutes into the 15-minute break
    advance_clocks()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.ON_BREAK and tournament.level_index == 4
    assert services.level_for_next_hand(tournament).order == 5  # R8.2: the level after the break
    Tournament.objects.filter(pk=tournament.pk).update(
        level_started_at=tournament.level_started_at - timedelta(minutes=16)
    )
    advance_clocks()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.level_index == 5


def test_compare_and_set_refuses_a_stale_clock(running):
    """A tick that read the clock before a director's change does not overwrite it."""
    tournament = running(4)
    _shift_start(tournament, 25)
    stale = Tournament.objects.get(pk=tournament.pk)
    services.pause_clock(tournament)
    assert services.advance_clock(stale) is False
    tournament.refresh_from_db()
    assert tournament.paused_at is not None and tournament.level_index == 1


def test_level_for_next_hand_is_the_clocks_level_now_R8_2(running):
    tournament = running(4)
    level = services.level_for_next_hand(tournament)
    assert (level.order, level.small_blind, level.big_blind) == (0, 50, 100)
    _shift_start(tournament, 21)  # the level changed but no tick has run yet
    assert services.level_for_next_hand(tournament).order == 1


def test_clock_operations_bump_the_version_and_are_audited(running, staff):
    tournament = running(4)
    version = tournament.clock_version
    services.pause_clock(tournament, actor=staff)
    services.add_time(tournament, -60, actor=staff)
    services.resume_clock(tournament, actor=staff)
    services.jump_to_level(tournament, 3, actor=staff)
    tournament.refresh_from_db()
    assert tournament.clock_version == version + 4 and tournament.level_index == 3
    actions = list(
        AuditEntry.objects.filter(tournament=tournament, actor=staff).values_list("action", flat=True)
    )
    assert {"clock.pause", "clock.add_time", "clock.resume", "clock.jump"} <= set(actions)


def test_hand_for_hand_pauses_and_each_round_takes_at_most_two_minutes_R8_6(running):
    tournament = running(4)
    now = timezone.now()
    services.set_hand_for_hand(tournament, True, now=now)
    tournament.refresh_from_db()
    left = tournament.remaining_when_paused
    services.hand_for_hand_round_finished(tournament, now=now + timedelta(seconds=300))  # a slow round
    services.hand_for_hand_round_finished(tournament, now=now + timedelta(seconds=340))  # a 40-second round
    tournament.refresh_from_db()
    assert tournament.remaining_when_paused == pytest.approx(left - 120 - 40)
    with pytest.raises(StateError):
        services.pause_clock(tournament)
    services.set_hand_for_hand(tournament, False)
    tournament.refresh_from_db()
    assert tournament.paused_at is None and not tournament.hand_for_hand


def test_a_clock_paused_before_hand_for_hand_stays_paused_after_it_R8_6(running):
    """The director paused (a ruling, say), then played hand-for-hand: ending it must not restart the clock."""
    tournament = running(4)
    now = timezone.now()
    services.pause_clock(tournament, now=now)
    services.set_hand_for_hand(tournament, True, now=now + timedelta(seconds=10))
    services.set_hand_for_hand(tournament, False, now=now + timedelta(seconds=20))
    tournament.refresh_from_db()
    assert tournament.paused_at is not None and not tournament.hand_for_hand
    services.resume_clock(tournament, now=now + timedelta(seconds=30))
    services.set_hand_for_hand(tournament, True, now=now + timedelta(seconds=40))
    services.set_hand_for_hand(tournament, False, now=now + timedelta(seconds=50))
    tournament.refresh_from_db()
    assert tournament.paused_at is None  # it was running before this hand-for-hand: it runs again


# ---------------------------------------------------------------- busts and places


def test_several_busts_on_one_hand_ranked_by_starting_chips_R8_6_R8_8(running):
    """Ten left; three bust on one hand: 3,000 at the start finishes 8th, the two with 1,000 share 9th-10th."""
    tournament = running(10)
    a, b, c = (zero(e) for e in entries_of(tournament)[:3])
    services.bust_entries(tournament, [(a, 1000), (b, 3000), (c, 1000)], hand_label="T1 H12")
    a.refresh_from_db(), b.refresh_from_db(), c.refresh_from_db()
    assert (b.place, b.place_shared_to) == (8, None)
    assert (a.place, a.place_shared_to) == (9, 10) and (c.place, c.place_shared_to) == (9, 10)
    assert (
        a.status == Entry.Status.BUSTED
        and a.chips_at_start_of_bust_hand == 1000
        and a.bust_hand_label == "T1 H12"
    )


def test_single_bust_place_is_players_left_before_the_hand_R8_8(running):
    tournament = running(6)
    first = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(first, 500)])
    second = zero(entries_of(tournament)[1])
    services.bust_entries(tournament, [(second, 800)])
    first.refresh_from_db(), second.refresh_from_db()
    assert (first.place, second.place) == (6, 5)


def test_a_bust_reads_the_tournament_once_and_each_busted_player_once_R8_8(running):
    """A bust runs inside the dealer's hand-ending input, which the next inputs at the server wait
    for: the tournament is read (locked) once, not again for the audit and the seat release, and the
    players' names come with their entries, for three busts as for one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = running(10)
    busts = [(zero(e), chips) for e, chips in zip(entries_of(tournament)[:3], (1000, 3000, 2000))]
    with CaptureQueriesContext(connection) as queries:
        services.bust_entries(tournament, busts)
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len([sql for sql in selects if 'FROM "tournaments_tournament"' in sql]) == 1
    assert not [sql for sql in selects if 'FROM "tournaments_player"' in sql]
    assert sorted(Entry.objects.filter(pk__in=[e.pk for e, _c in busts]).values_list("place", flat=True)) == [
        8,
        9,
        10,
    ]
    # The audit still names each player (from the name read with the entry).
    assert sorted(AuditEntry.objects.filter(action="entry.bust").values_list("target", flat=True)) == sorted(
        f"entry:{e.pk} {e.player.name}" for e, _c in busts
    )


def test_equal_starting_chips_share_places_and_prizes_and_the_winner_finishes_it(running):
    """20 entries of 100: pool 2,000, three paid 50/30/20. Two bust together with equal chips when
    three are left: they share 2nd-3rd (600 + 400) at 500 each; the last player wins 1,000."""
    tournament = running(20)
    entries = entries_of(tournament)
    for e in entries[:17]:
        services.bust_entries(tournament, [(zero(e), 100)])
    b, c = zero(entries[17]), zero(entries[18])
    services.bust_entries(tournament, [(b, 2000), (c, 2000)])
    tournament.refresh_from_db()
    b.refresh_from_db(), c.refresh_from_db()
    winner = Entry.objects.get(pk=entries[19].pk)
    assert tournament.status == Tournament.Status.FINISHED
    assert (b.place, b.place_shared_to, b.prize) == (2, 3, 500) and c.prize == 500
    assert (winner.place, winner.prize) == (1, 1000)
    assert sum(tournament.entries.values_list("prize", flat=True)) == services.prize_pool(tournament) == 2000


def test_bust_of_a_player_with_chips_is_refused_and_changes_nothing(running):
    tournament = running(5)
    emptied, still_in = zero(entries_of(tournament)[0]), entries_of(tournament)[1]
    with pytest.raises(RuleError, match="still has 20000 chips"):
        services.bust_entries(tournament, [(emptied, 500), (still_in, 20000)])
    assert not tournament.entries.filter(status=Entry.Status.BUSTED).exists()
    assert not AuditEntry.objects.filter(action="entry.bust").exists()


def test_undo_bust_needs_a_reason_restores_the_entry_and_keeps_the_record(running, staff):
    tournament = running(5)
    entry = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(entry, 4000)], actor=staff)
    with pytest.raises(ValidationError):
        services.undo_bust(entry, reason="  ")
    services.undo_bust(entry, reason="wrong pot awarded", actor=staff)
    entry.refresh_from_db()
    assert (entry.status, entry.chips, entry.place) == (Entry.Status.ACTIVE, 4000, None)
    log = AuditEntry.objects.filter(target__startswith=f"entry:{entry.pk} ").order_by("id")
    assert [row.action for row in log] == ["entry.register", "entry.bust", "entry.undo_bust"]
    assert log.last().reason == "wrong pot awarded" and log.last().actor == staff
    assert log.last().data["place"] == 5


def _places(tournament):
    return sorted(
        tournament.entries.filter(place__isnull=False).values_list("pk", "place", "place_shared_to"),
        key=lambda row: row[1],
    )


def test_undo_bust_moves_the_later_busts_down_a_place_so_no_place_is_used_twice_R8_8(running):
    """20 entries, 3 paid. A busts 20th, then B and C bust on one hand with equal chips (18th-19th), then
    D 17th. A's bust is undone: everyone who went out after A was out with one more player left, so B
    and C share 19th-20th and D is 18th. When A busts again they take 17th, and in the end every place
    is used once and the prizes add up to the pool."""
    tournament = running(20)
    entries = entries_of(tournament)
    a, b, c, d = entries[:4]
    services.bust_entries(tournament, [(zero(a), 500)])
    services.bust_entries(tournament, [(zero(b), 800), (zero(c), 800)])
    services.bust_entries(tournament, [(zero(d), 900)])
    assert _places(tournament)[0] == (d.pk, 17, None)
    services.undo_bust(a, reason="the pot went to the wrong seat")
    assert sorted(_places(tournament)) == sorted([(d.pk, 18, None), (b.pk, 19, 20), (c.pk, 19, 20)])
    services.bust_entries(tournament, [(zero(a), 3000)])
    assert Entry.objects.get(pk=a.pk).place == 17
    for e in entries[4:19]:
        services.bust_entries(tournament, [(zero(e), 100)])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    places = [place for _pk, place, _to in _places(tournament)]
    assert sorted(places) == [*range(1, 19), 19, 19]  # 19th-20th shared by two
    assert sum(tournament.entries.values_list("prize", flat=True)) == services.prize_pool(tournament)


def test_undo_one_of_a_shared_bust_leaves_the_other_alone_in_the_last_place_R8_6(running):
    tournament = running(6)
    b, c = zero(entries_of(tournament)[0]), zero(entries_of(tournament)[1])
    services.bust_entries(tournament, [(b, 800), (c, 800)])
    assert Entry.objects.get(pk=c.pk).place_shared_to == 6
    services.undo_bust(b, reason="b won the low half")
    c.refresh_from_db()
    assert (c.place, c.place_shared_to) == (6, None)


def test_undo_bust_is_refused_once_the_player_has_re_entered(running):
    """Otherwise one player would have two stacks in play."""
    tournament = running(4, max_reentries=1, late_registration_until_level=2)
    first = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(first, 20000)])
    again = services.register(tournament, first.player)
    with pytest.raises(StateError, match="re-entered") as refused:
        services.undo_bust(first, reason="misdeal")
    assert refused.value.code == "already_active"
    assert list(tournament.entries.filter(player=first.player, status=Entry.Status.ACTIVE)) == [again]
    assert Entry.objects.get(pk=first.pk).status == Entry.Status.BUSTED


# ---------------------------------------------------------------- entries


def test_reentry_during_late_registration_up_to_the_limit(running):
    tournament = running(4, max_reentries=1, late_registration_until_level=2)
    first = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(first, 20000)])
    again = services.register(tournament, first.player)
    assert (again.number, again.chips, again.status) == (2, 20000, Entry.Status.ACTIVE)
    with pytest.raises(StateError, match="already has chips"):
        services.register(tournament, first.player)
    services.bust_entries(tournament, [(zero(again), 20000)])
    with pytest.raises(RuleError, match="used all 1 re-entries"):
        services.register(tournament, first.player)


def test_registration_closes_after_the_late_registration_level_and_its_break(running):
    tournament = running(4, late_registration_until_level=4, max_reentries=3)
    _shift_start(tournament, 90)  # on the break after level 4: still open
    advance_clocks()
    tournament.refresh_from_db()
    assert services.registration_open(tournament)
    services.jump_to_level(tournament, 5)  # level 5
    tournament.refresh_from_db()
    assert not services.registration_open(tournament)
    with pytest.raises(StateError, match="Registration is closed"):
        services.register(tournament, Player.objects.create(name="Late"))


# One rebuy and an add-on of 30,000, 100 each, during late registration (to the end of level 3).
REBUY_AND_ADDON = {
    "rebuys_allowed": 1,
    "rebuy_price": 100,
    "addon_allowed": True,
    "addon_stack": 30000,
    "addon_price": 100,
    "late_registration_until_level": 3,
}


def test_rebuy_and_addon_rules(running):
    tournament = running(4, **REBUY_AND_ADDON)
    entry = entries_of(tournament)[0]
    services.rebuy(entry)
    entry.refresh_from_db()
    assert (entry.chips, entry.rebuys) == (40000, 1)
    with pytest.raises(RuleError, match="rebuys are used"):
        services.rebuy(entry)
    services.addon(entry)
    entry.refresh_from_db()
    assert entry.chips == 70000 and entry.addon_taken
    with pytest.raises(RuleError, match="already been taken"):
        services.addon(entry)
    other = entries_of(tournament)[1]
    services.set_chips(other, 25000, reason="count")
    with pytest.raises(RuleError, match="at or below the starting stack"):
        services.rebuy(other)
    # Pool: four buy-ins, one rebuy, one add-on, 100 each.
    assert services.prize_pool(tournament) == 600


def test_the_entries_figures_count_each_kind_once_and_this_tournament_only(running):
    """``entry_totals``: one pass over the entries for the prize pool, the players left, the chips in
    play and the busts of late registration still to place (R8.8: placed when it closes)."""
    tournament = running(5, **REBUY_AND_ADDON, max_reentries=1)
    running(3)  # another tournament's entries are not this one's
    first, second, third, *_ = entries_of(tournament)
    services.rebuy(first)  # 40,000
    services.addon(second)  # 50,000
    services.set_chips(third, 0, reason="lost it all")
    services.bust_entries(tournament, [(third, 20000)])  # late registration is open: no place yet
    services.register(tournament, third.player)  # the re-entry, 20,000
    assert selectors.entry_totals(tournament) == {
        "entries": 6,
        "reentries": 1,
        "rebuys": 1,
        "addons": 1,
        "left": 5,
        "chips": 40000 + 50000 + 20000 + 20000 + 20000,
        "unplaced": 1,
    }
    assert services.prize_pool(tournament) == 800  # six buy-ins, a rebuy and an add-on, 100 each


def test_guarantee_is_the_pool_when_larger(planned):
    assert services.prize_pool(planned(guarantee=5000)) == 5000


def test_a_payout_table_longer_than_the_field_still_pays_out_the_whole_pool(running):
    """Six places set, four entries of 100: the four places share the 400 as 40:25:15:10."""
    tournament = running(4, payout_percentages=[40, 25, 15, 10, 5, 5])
    assert services.payout_table(tournament) == [178, 111, 67, 44]  # 400 x 40/90, 25/90, 15/90, 10/90
    entries = entries_of(tournament)
    for e in entries[:3]:
        services.bust_entries(tournament, [(zero(e), 100)])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert sorted(tournament.entries.values_list("prize", flat=True)) == [44, 67, 111, 178]
    assert sum(tournament.entries.values_list("prize", flat=True)) == services.prize_pool(tournament) == 400


# ---------------------------------------------------------------- with the tables app


def test_start_counts_seated_players_and_a_late_entry_gets_a_seat_R8_1(planned):
    tables_services = pytest.importorskip("tables.services")
    from tables.models import Seat

    tournament = planned(late_registration_until_level=2)
    services.open_registration(tournament)
    for i in range(9):
        services.register(tournament, Player.objects.create(name=f"P{i}"))
    with pytest.raises(StateError, match="no players seated"):
        services.start_tournament(tournament)  # registered is not seated
    tables_services.draw_seats(tournament)
    services.start_tournament(tournament)
    late = services.register(tournament, Player.objects.create(name="Late"))
    assert Seat.objects.filter(entry=late, table__tournament=tournament).exists()


# ---------------------------------------------------------------- editing a running tournament's levels


def test_levels_already_played_are_history_later_ones_can_change(running):
    tournament = running(3)
    services.jump_to_level(tournament, 2)
    tournament.refresh_from_db()
    levels = {level.order: level for level in tournament.structure.levels.all()}
    with pytest.raises(StateError, match="Only levels after the current one"):
        services.update_level(levels[2], big_blind=1000)
    version = tournament.clock_version
    services.update_level(levels[3], duration_minutes=25)
    tournament.refresh_from_db()
    assert tournament.clock_version == version + 1  # every screen recomputes the schedule
    assert tournament.structure.levels.get(order=3).duration_minutes == 25


def test_changing_the_starting_stack_before_the_start_updates_registered_entries(planned):
    tournament = planned()
    services.open_registration(tournament)
    entry = services.register(tournament, Player.objects.create(name="Early"))
    services.update_tournament(tournament, starting_stack=30000)
    entry.refresh_from_db()
    assert entry.chips == 30000
    change = AuditEntry.objects.get(action="tournament.update")
    assert change.data["starting_stack"] == {"before": 20000, "after": 30000}


def test_record_audit_names_a_user_or_a_device_and_never_an_anonymous_visitor(planned, staff):
    from django.contrib.auth.models import AnonymousUser

    tournament = planned()

    class Tablet:
        label = "Table 3 tablet"

    by_staff = record_audit(staff, "test.action", tournament, "why", {"k": 1})
    by_device = record_audit(Tablet(), "test.action", tournament)
    by_nobody = record_audit(AnonymousUser(), "test.action", tournament)
    assert (by_staff.actor, by_staff.tournament, by_staff.reason, by_staff.data) == (
        staff,
        tournament,
        "why",
        {"k": 1},
    )
    assert by_device.actor is None and by_device.device_label == "Table 3 tablet"
    assert by_nobody.actor is None and by_nobody.device_label == ""
    assert by_staff.target == f"tournament:{tournament.pk} Winter Cup"


# ---------------------------------------------------------------- hand-for-hand rounds from the hands dealt


def _h4h_with_two_tables(planned, seconds_ago):
    tables_services = pytest.importorskip("tables.services")
    pytest.importorskip("dealing.models")
    tournament = planned()
    services.open_registration(tournament)
    for i in range(10):
        services.register(tournament, Player.objects.create(name=f"P{i}"))
    tables_services.draw_seats(tournament)
    services.start_tournament(tournament)
    services.set_hand_for_hand(tournament, True, now=timezone.now() - timedelta(seconds=seconds_ago))
    tournament.refresh_from_db()
    return tournament, list(tournament.tables.order_by("number"))


def _hand(table, number, status, finished_at=None):
    from dealing.models import Hand

    return Hand.objects.create(table=table, number=number, config={}, status=status, finished_at=finished_at)


@pytest.mark.parametrize("round_seconds, lost", [(100, 100), (300, 120)])
def test_ticker_closes_a_hand_for_hand_round_when_every_table_finished_R8_6(planned, round_seconds, lost):
    tournament, (first, second) = _h4h_with_two_tables(planned, round_seconds)
    left = tournament.remaining_when_paused
    _hand(first, 1, "finished", timezone.now())
    running_hand = _hand(second, 1, "running")
    assert waiting_reason(first) is not None  # dealt its hand: waits for table 2
    assert close_hand_for_hand_rounds() == 0  # table 2 is still playing
    running_hand.status, running_hand.finished_at = "finished", timezone.now()
    running_hand.save()
    assert close_hand_for_hand_rounds() == 1
    assert close_hand_for_hand_rounds() == 0  # the same round is closed once
    tournament.refresh_from_db()
    assert tournament.remaining_when_paused == pytest.approx(left - lost, abs=3)
    assert waiting_reason(first) is None  # the next round may be dealt


def test_busts_during_late_registration_are_placed_when_it_closes_R8_8(running):
    """Ten start; A busts and re-enters, then B busts, all in level 1 (late registration): 11 entries.
    When registration closes they take the last places, the later bust higher: B 10th, A's first entry
    11th. The next bust is 9th: no place is given twice."""
    tournament = running(10, late_registration_until_level=1, max_reentries=1)
    entries = entries_of(tournament)
    a = zero(entries[0])
    services.bust_entries(tournament, [(a, 20000)])
    a.refresh_from_db()
    assert a.status == Entry.Status.BUSTED and a.place is None  # the field is not final yet
    services.register(tournament, a.player)
    b = zero(entries[1])
    services.bust_entries(tournament, [(b, 20000)])
    services.jump_to_level(tournament, 1)  # level 2: registration closed
    a.refresh_from_db(), b.refresh_from_db()
    assert (b.place, a.place) == (10, 11)
    c = zero(entries[2])
    services.bust_entries(tournament, [(c, 20000)])
    c.refresh_from_db()
    assert c.place == 9
    places = list(tournament.entries.exclude(place=None).values_list("place", flat=True))
    assert sorted(places) == [9, 10, 11]


def test_the_first_bust_after_late_registration_places_its_busts_before_its_own_R8_8(running):
    """Registration has closed by the clock but nothing has placed its busts yet (the ticker has not
    run): the next bust places them first, last places to them, and takes the place above."""
    tournament = running(5, late_registration_until_level=1, max_reentries=1)
    entries = entries_of(tournament)
    early = zero(entries[0])
    services.bust_entries(tournament, [(early, 20000)])
    _shift_start(tournament, 21)  # level 1 is over; no ticker
    early.refresh_from_db()
    assert early.place is None
    later = zero(entries[1])
    services.bust_entries(
        Tournament.objects.get(pk=tournament.pk), [(later.pk, 20000)]
    )  # by id, as a dealer's hand end
    early.refresh_from_db(), later.refresh_from_db()
    assert (early.place, later.place) == (5, 4)
    assert later.prize == 0 and later.status == Entry.Status.BUSTED


def test_late_registration_busts_are_placed_by_the_ticker_when_the_level_ends(running):
    tournament = running(5, late_registration_until_level=1, max_reentries=1)
    out = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(out, 20000)])
    _shift_start(tournament, 21)  # level 1 is over
    advance_clocks()
    out.refresh_from_db()
    assert out.place == 5
