"""config.live: a change may carry the part it changed, only when it is all that changed."""

import pytest
from django.db import transaction

from config import live

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch):
    messages = []
    monkeypatch.setattr(live, "send_now", lambda group, message: messages.append((group, message)))
    return messages


def test_a_patch_goes_out_after_the_commit_with_the_version_the_bump_gave(sent):
    with transaction.atomic():
        live.changed("table-1", bump=lambda: 42, patch=lambda version: {"version_seen": version})
        assert sent == []  # nothing before the commit
    [(group, message)] = sent
    assert group == "table-1" and message["patch"] == {"version_seen": 42}


def test_a_second_change_of_the_group_in_the_transaction_drops_the_patch(sent):
    with transaction.atomic():
        live.changed("table-1", bump=lambda: 42, patch=lambda version: {"hand": "new"})
        live.changed("table-1")  # e.g. the same transaction also moved a player
    [(_group, message)] = sent
    assert "patch" not in message and message["type"] == "state.changed"


def test_a_rolled_back_change_is_not_announced_and_leaves_no_patch_for_the_next(sent):
    with pytest.raises(RuntimeError), transaction.atomic():
        live.changed("table-1", bump=lambda: 42, patch=lambda version: {"hand": "rolled back"})
        raise RuntimeError
    with transaction.atomic():
        live.changed("table-1", bump=lambda: 43)
    [(_group, message)] = sent
    assert "patch" not in message


def test_a_patch_that_fails_to_build_still_announces_the_change(sent):
    with transaction.atomic():
        live.changed("table-1", bump=lambda: 42, patch=lambda version: 1 / 0)
    [(_group, message)] = sent
    assert "patch" not in message and "id" in message
