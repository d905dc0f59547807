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


def test_kept_announcements_lists_what_this_thread_sent_after_its_commit_and_still_sends_it(monkeypatch):
    """The tablet's server shows its own input from this list (screens.tablet_inputs): every message
    the transaction sent, after the commit, each still handed to the layer; a rolled-back change is
    in neither; an outer keeper sees what an inner one kept; another thread's messages are not kept."""
    import threading

    handed = []
    monkeypatch.setattr(live, "_serving_loop", lambda: None)
    monkeypatch.setattr(live, "async_to_sync", lambda func: lambda layer, messages: handed.extend(messages))
    with live.kept_announcements() as outer:
        with pytest.raises(RuntimeError), transaction.atomic():
            live.changed("table-9", bump=lambda: 7)
            raise RuntimeError
        with live.kept_announcements() as inner:
            with transaction.atomic():
                live.changed("table-1", bump=lambda: 42, patch=lambda version: {"v": version})
                live.changed("tournament-3")
                assert inner == []  # nothing before the commit
            other = threading.Thread(target=live.send_now, args=("table-2", {"type": "state.changed"}))
            other.start()
            other.join()
    assert [group for group, _message in inner] == ["table-1", "tournament-3"]
    assert inner[0][1]["patch"] == {"v": 42}
    assert outer == inner
    assert sorted(group for group, _message in handed) == ["table-1", "table-2", "tournament-3"]
