"""Which console areas each staff role opens (screens.roles.CAPABILITIES), the one place that decides it."""

import pytest
from django.contrib.auth import get_user_model

from screens import roles

pytestmark = pytest.mark.django_db


def _user(name, role=None, *, staff=True, superuser=False):
    user = get_user_model().objects.create_user(name, password="x", is_staff=staff, is_superuser=superuser)
    if role:
        user.groups.set([roles.ensure_roles()[role]])
    return user


def test_the_desk_registers_but_never_seats_busts_corrects_or_runs_the_clock():
    desk = _user("desk", roles.DESK)
    assert roles.may(desk, "entries") and roles.may(desk, "view")
    for area in ("clock", "setup", "payouts", "devices", "seating", "busts", "chip_counts", "corrections"):
        assert not roles.may(desk, area), area


def test_the_floor_seats_busts_counts_and_corrects_but_does_not_run_the_clock_or_the_money():
    floor = _user("floor", roles.FLOOR)
    for area in ("seating", "busts", "chip_counts", "corrections", "view"):
        assert roles.may(floor, area), area
    for area in ("clock", "setup", "payouts", "devices", "entries"):
        assert not roles.may(floor, area), area


def test_the_director_and_a_staff_account_without_a_role_may_do_everything():
    for user in (_user("director", roles.DIRECTOR), _user("old-staff"), _user("root", superuser=True)):
        assert all(roles.capabilities_of(user).values()), user.username


def test_deck_prep_and_anyone_not_staff_open_no_console_area():
    assert not any(roles.capabilities_of(_user("deck", roles.DECK_PREP, staff=False)).values())
    assert not any(roles.capabilities_of(_user("player", staff=False)).values())
