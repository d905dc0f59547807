"""Deals at the final table through the services: who agreed, the state, the clock, the payouts as
players bust to the winner, the audit; and the director's payout table in amounts."""

import pytest
from django.core.exceptions import ValidationError

from tests import factories
from tournaments import services
from tournaments.audit import AuditAction
from tournaments.errors import RuleError, StateError
from tournaments.models import AuditEntry, Deal, Entry


@pytest.fixture
def final_three(db):
    """Five entries of 1,000 paying 2,500/1,500/1,000; two busted (places 5 and 4, R8.8); three left
    with 2,500, 1,500 and 1,000 chips."""
    t = factories.make_tournament(players=5, buy_in=1000, payout_percentages=[50, 30, 20])
    entries = sorted(factories.entries_of(t), key=lambda e: e.pk)
    for e in entries[3:]:
        services.bust_entries(t, [(factories.zero(e), 1000)])
    for e, chips in zip(entries[:3], [2500, 1500, 1000]):
        services.set_chips(e, chips, reason="count")
    t.refresh_from_db()
    return t, entries[:3]


def everyone(entries):
    return [e.pk for e in entries]


def test_a_chip_chop_with_money_left_is_paid_and_the_winner_takes_the_rest(final_three):
    t, (big, middle, small) = final_three
    deal = services.record_deal(t, "chip_chop", agreed=everyone([big, middle, small]), left_to_play_for=500)
    assert {s.entry_id: s.amount for s in deal.shares.all()} == {
        big.pk: 1750,
        middle.pk: 1450,
        small.pk: 1300,
    }
    assert all(s.agreed for s in deal.shares.all())
    # Their deal amounts are theirs at once, still in or not.
    assert [Entry.objects.get(pk=e.pk).prize for e in (big, middle, small)] == [1750, 1450, 1300]
    # The big stack busts third, the small one wins: the 500 goes to the winner, once.
    services.bust_entries(t, [(factories.zero(big), 2500)])
    services.bust_entries(t, [(factories.zero(middle), 4000)])
    t.refresh_from_db()
    assert t.status == "finished"
    rows = {e.pk: (e.place, e.prize) for e in t.entries.all()}
    assert rows[big.pk] == (3, 1750) and rows[middle.pk] == (2, 1450) and rows[small.pk] == (1, 1800)
    assert sum(prize for _place, prize in rows.values()) == services.prize_pool(t) == 5000


def test_every_player_left_must_agree_else_422_naming_who_has_not(final_three):
    t, (big, middle, small) = final_three
    with pytest.raises(RuleError) as error:
        services.record_deal(t, "icm", agreed=[big.pk, middle.pk])
    assert error.value.code == "not_everyone_agreed" and str(small) in str(error.value.message)
    assert not Deal.objects.exists()


def test_a_deal_is_made_once_and_only_while_the_tournament_runs(final_three):
    t, entries = final_three
    services.record_deal(t, "icm", agreed=everyone(entries))
    with pytest.raises(StateError) as error:
        services.propose_deal(t, "icm")
    assert error.value.code == "already_a_deal"
    planned = factories.make_tournament(players=3, stage="registering")
    with pytest.raises(StateError) as error:
        services.propose_deal(planned, "icm")
    assert error.value.code == "not_running"


def test_no_deal_while_late_registration_can_still_grow_the_pool(db):
    t = factories.make_tournament(players=4, late_registration_until_level=2)
    with pytest.raises(StateError) as error:
        services.propose_deal(t, "chip_chop")
    assert error.value.code == "registration_open"


def test_a_custom_split_that_does_not_add_up_is_refused_with_the_difference(final_three):
    t, (big, middle, small) = final_three
    custom = {big.pk: 2000, middle.pk: 1500, small.pk: 1400}
    with pytest.raises(RuleError) as error:
        services.record_deal(t, "custom", agreed=everyone([big, middle, small]), custom=custom)
    assert error.value.code == "custom_total" and error.value.params["difference"] == -100
    custom[small.pk] = 1500
    deal = services.record_deal(t, "custom", agreed=everyone([big, middle, small]), custom=custom)
    assert sorted(s.amount for s in deal.shares.all()) == [1500, 1500, 2000]


def test_amounts_shown_before_the_chips_changed_are_not_recorded(final_three):
    t, (_big, _middle, small) = final_three
    proposal, entries = services.propose_deal(t, "chip_chop")
    shown = {e.pk: a for e, a in zip(entries, proposal.amounts)}
    services.set_chips(small, 900, reason="recount")
    with pytest.raises(StateError) as error:
        services.record_deal(t, "chip_chop", agreed=everyone(entries), expected=shown)
    assert error.value.code == "changed"


def test_deal_talk_pauses_the_clock_and_recording_resumes_it(final_three):
    t, entries = final_three
    services.start_deal_talk(t)
    t.refresh_from_db()
    assert t.paused_at is not None and t.deal_talk_since is not None
    services.record_deal(t, "icm", agreed=everyone(entries))
    t.refresh_from_db()
    assert t.paused_at is None and t.deal_talk_since is None


def test_a_clock_the_director_had_paused_stays_paused_after_the_talk(final_three):
    t, _entries = final_three
    services.pause_clock(t)
    services.start_deal_talk(t)
    services.end_deal_talk(t)
    t.refresh_from_db()
    assert t.paused_at is not None


def test_the_clock_runs_through_deal_talk_when_the_tournament_says_so(final_three):
    t, _entries = final_three
    services.update_tournament(t, clock_runs_during_deal=True)
    services.start_deal_talk(t)
    t.refresh_from_db()
    assert t.paused_at is None and t.deal_talk_since is not None


def test_the_deal_is_audited_with_who_agreed_and_the_amounts(final_three):
    t, entries = final_three
    services.record_deal(t, "chip_chop", agreed=everyone(entries), left_to_play_for=500)
    audit = AuditEntry.objects.get(tournament=t, action=AuditAction.DEAL_RECORD)
    assert audit.data["left_to_play_for"] == 500
    assert [(s["name"], s["amount"], s["agreed"]) for s in audit.data["shares"]] == [
        (str(entries[0]), 1750, True),
        (str(entries[1]), 1450, True),
        (str(entries[2]), 1300, True),
    ]


def test_after_a_deal_the_prizes_and_the_payout_table_stay_put(final_three):
    t, entries = final_three
    services.record_deal(t, "icm", agreed=everyone(entries))
    with pytest.raises(StateError):
        services.update_tournament(t, guarantee=100000)
    with pytest.raises(StateError):
        services.set_payout_table(t, [3000, 1500, 500])
    busted = t.entries.filter(place=5).get()
    with pytest.raises(StateError) as error:
        services.undo_bust(busted, reason="mistake")
    assert error.value.code == "deal_made"


# ---------------------------------------------------------------- the payout table in amounts


def test_the_director_sets_the_payout_table_in_amounts_that_add_up_to_the_pool(db):
    t = factories.make_tournament(players=5, buy_in=1000)
    services.set_payout_table(t, [3000, 1300, 700])
    t.refresh_from_db()
    assert services.payout_table(t) == [3000, 1300, 700]
    with pytest.raises(RuleError) as error:
        services.set_payout_table(t, [3000, 1300, 600])
    assert error.value.code == "not_the_pool" and error.value.params["difference"] == -100
    with pytest.raises(RuleError):
        services.set_payout_table(t, [2000, 2500, 500])
    with pytest.raises(ValidationError):
        services.set_payout_table(t, [3000, "x"])
    services.set_payout_table(t, [])  # back to the percentages
    t.refresh_from_db()
    assert t.payout_amounts == [] and sum(services.payout_table(t)) == 5000


def test_a_finished_place_keeps_its_prize_when_the_table_is_edited(db):
    t = factories.make_tournament(players=5, buy_in=1000, payout_percentages=[40, 25, 15, 12, 8])
    entries = factories.entries_of(t)
    services.bust_entries(t, [(factories.zero(entries[-1]), 1000)])  # 5th: 400
    with pytest.raises(StateError) as error:
        services.set_payout_table(t, [2100, 1300, 700, 600, 300])
    assert error.value.code == "place_paid"
    services.set_payout_table(t, [2200, 1200, 700, 500, 400])
    assert Entry.objects.get(pk=entries[-1].pk).prize == 400


def test_a_table_made_for_a_smaller_pool_pays_the_same_proportions_of_the_new_one(db):
    t = factories.make_tournament(players=4, buy_in=1000, late_registration_until_level=2)
    services.set_payout_table(t, [2500, 1500])
    factories.register_players(t, 1, prefix="Late")
    t.refresh_from_db()
    assert services.payout_table(t) == [3125, 1875]
