"""``manage.py staff_role <username> <role>`` gives an account exactly one role (docs/directors-guide.md)."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from screens import roles

pytestmark = pytest.mark.django_db


def test_a_director_becomes_the_desk_and_opens_only_the_desks_areas(capsys):
    user = get_user_model().objects.create_user("ana", is_staff=True)
    other = Group.objects.create(name="Night shift")
    user.groups.add(other)
    call_command("staff_role", "ana", "floor")
    call_command("staff_role", "ana", "desk")
    user = get_user_model().objects.get(username="ana")
    assert set(user.groups.values_list("name", flat=True)) == {roles.DESK, "Night shift"}
    assert roles.may(user, "entries") and not roles.may(user, "busts")
    assert "ana is now registration desk." in capsys.readouterr().out


def test_deck_prep_is_not_staff_and_an_unknown_account_is_refused():
    user = get_user_model().objects.create_user("deck", is_staff=True)
    call_command("staff_role", "deck", "deckprep")
    user.refresh_from_db()
    assert not user.is_staff and not any(roles.capabilities_of(user).values())
    with pytest.raises(CommandError, match="No account named nobody"):
        call_command("staff_role", "nobody", "floor")
