"""The maximum field size and the alternates list (tournaments.services.alternates)."""

import pytest
from django.core.exceptions import ValidationError

from tables.models import Seat
from tests.factories import entries_of, zero
from tournaments import services
from tournaments.audit import AuditAction
from tournaments.errors import RuleError, StateError
from tournaments.models import Alternate, AuditEntry, Entry, Player

pytestmark = pytest.mark.django_db


def _full(running, players=4, **fields):
    """A running tournament in late registration whose field is full."""
    return running(players, max_players=players, late_registration_until_level=2, max_reentries=1, **fields)


def _snapshot(tournament):
    tournament.refresh_from_db()
    return (
        tournament.entries.count(),
        Alternate.objects.filter(tournament=tournament).count(),
        services.prize_pool(tournament),
        AuditEntry.objects.filter(tournament=tournament).count(),
    )


def test_register_is_refused_when_the_field_is_full_and_changes_nothing(running):
    tournament = _full(running)
    before = _snapshot(tournament)
    with pytest.raises(StateError, match="field is full: 4 players") as refused:
        services.register(tournament, Player.objects.create(name="Ninth"))
    assert (refused.value.code, refused.value.status) == ("field_full", 409)
    assert _snapshot(tournament) == before


def test_no_limit_when_max_players_is_blank(running):
    tournament = running(4, late_registration_until_level=2)
    entry = services.register(tournament, Player.objects.create(name="Late"))
    assert entry.status == Entry.Status.ACTIVE


def test_alternates_wait_in_the_order_they_came(running, staff):
    tournament = _full(running)
    names = ["Ana", "Bo", "Cy"]
    for name in names:
        services.add_alternate(tournament, Player.objects.create(name=name), actor=staff)
    waiting = list(services.waiting_alternates(tournament))
    assert [str(a) for a in waiting] == names
    assert all(a.added_by == staff for a in waiting)
    assert AuditEntry.objects.filter(action=AuditAction.ALTERNATE_ADD).count() == 3


def test_add_alternate_refusals_change_nothing(running):
    tournament = _full(running)
    ana = Player.objects.create(name="Ana")
    services.add_alternate(tournament, ana)
    in_already = entries_of(tournament)[0].player
    before = _snapshot(tournament)
    for player, code in ((ana, "already_waiting"), (in_already, "already_active")):
        with pytest.raises(StateError) as refused:
            services.add_alternate(tournament, player)
        assert refused.value.code == code
    assert _snapshot(tournament) == before

    roomy = running(4, max_players=6, late_registration_until_level=2)
    with pytest.raises(StateError, match="not full: register") as refused:
        services.add_alternate(roomy, Player.objects.create(name="Early"))
    assert refused.value.code == "field_not_full"
    assert not Alternate.objects.filter(tournament=roomy).exists()


def test_seat_next_after_a_bust_gives_the_first_alternate_a_seat_and_a_stack_R8_1(running):
    tournament = _full(running)
    first = services.add_alternate(tournament, Player.objects.create(name="Ana"))
    second = services.add_alternate(tournament, Player.objects.create(name="Bo"))
    pool = services.prize_pool(tournament)
    with pytest.raises(StateError) as refused:  # no seat free yet
        services.seat_next_alternate(tournament)
    assert refused.value.code == "field_full"
    assert list(services.waiting_alternates(tournament)) == [first, second]

    out = zero(entries_of(tournament)[0])
    services.bust_entries(tournament, [(out, 20000)])
    seated = services.seat_next_alternate(tournament)

    assert seated == first and seated.status == Alternate.Status.SEATED
    entry = seated.entry
    assert (entry.player.name, entry.chips, entry.status) == ("Ana", 20000, Entry.Status.ACTIVE)
    seat = Seat.objects.get(entry=entry)  # R8.1: a late entry's random open seat, at once
    assert seat.table.tournament_id == tournament.pk
    assert services.prize_pool(tournament) > pool
    assert list(services.waiting_alternates(tournament)) == [second]
    with pytest.raises(StateError, match="field is full"):  # full again: Bo keeps waiting
        services.seat_next_alternate(tournament)


def test_seat_next_refused_when_nobody_waits(running):
    tournament = _full(running)
    services.bust_entries(tournament, [(zero(entries_of(tournament)[0]), 20000)])
    with pytest.raises(StateError, match="Nobody is on the alternates list") as refused:
        services.seat_next_alternate(tournament)
    assert refused.value.code == "no_alternates"


def test_alternates_need_registration_open(running):
    tournament = running(4, max_players=4)  # late registration closed at the start
    with pytest.raises(StateError, match="Registration is closed"):
        services.add_alternate(tournament, Player.objects.create(name="Ana"))
    with pytest.raises(StateError, match="Registration is closed"):
        services.seat_next_alternate(tournament)


def test_withdraw_takes_the_alternate_off_the_list_once(running):
    tournament = _full(running)
    ana = services.add_alternate(tournament, Player.objects.create(name="Ana"))
    bo = services.add_alternate(tournament, Player.objects.create(name="Bo"))
    services.withdraw_alternate(ana)
    assert list(services.waiting_alternates(tournament)) == [bo]
    with pytest.raises(StateError) as refused:
        services.withdraw_alternate(ana)
    assert refused.value.code == "not_waiting"
    # Withdrawn, Ana may come back at the end of the list.
    again = services.add_alternate(tournament, ana.player)
    assert list(services.waiting_alternates(tournament)) == [bo, again]


def test_max_players_at_least_two_and_not_below_the_players_in(planned):
    tournament = planned()
    services.open_registration(tournament)
    for i in range(3):
        services.register(tournament, Player.objects.create(name=f"P{i}"))
    with pytest.raises(ValidationError) as small:
        services.update_tournament(tournament, max_players=1)
    assert "max_players" in small.value.message_dict
    with pytest.raises(RuleError, match="at least 3") as below:
        services.update_tournament(tournament, max_players=2)
    assert (below.value.status, below.value.field, below.value.params["min"]) == (422, "max_players", 3)
    tournament.refresh_from_db()
    assert tournament.max_players is None
    services.update_tournament(tournament, max_players=3)
    tournament.refresh_from_db()
    assert tournament.max_players == 3
    services.update_tournament(tournament, max_players=None)  # back to no limit
    tournament.refresh_from_db()
    assert tournament.max_players is None
