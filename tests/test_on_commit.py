"""config.on_commit: a follow-up asked for by several services of one transaction runs once after the
commit, and what it held is freed as soon as it has run (no reference cycle waits for the collector:
at 250 inputs a second each transaction's follow-ups would otherwise pile up in the servers' heaps)."""

import gc
import weakref

import pytest
from django.db import connection, transaction

from config.on_commit import already_queued, once_after_commit, once_after_commit_for

pytestmark = pytest.mark.django_db(transaction=True)


class Announcement:
    def __init__(self, runs: list):
        self.runs = runs

    def __call__(self):
        self.runs.append(1)


def test_asked_twice_in_a_transaction_it_runs_once_after_the_commit_and_is_then_freed():
    runs: list = []
    was_enabled = gc.isenabled()
    gc.disable()  # only reference counting may free it here
    try:
        with transaction.atomic():
            first = Announcement(runs)
            freed = weakref.ref(first)
            assert once_after_commit(("live", "table-1"), first)
            assert not once_after_commit(("live", "table-1"), Announcement(runs))  # already queued
            assert already_queued(("live", "table-1"))
            del first
            assert runs == []  # not before the commit
        assert runs == [1]
        assert not already_queued(("live", "table-1"))
        assert ("live", "table-1") not in connection.__dict__.get("once_after_commit", {})
        assert freed() is None  # nothing kept it alive once it ran
    finally:
        if was_enabled:
            gc.enable()


def test_one_follow_up_for_many_keys_runs_once_and_a_rolled_back_one_never_runs():
    runs: list = []
    with transaction.atomic():
        once_after_commit_for([("live", "a"), ("live", "b")], Announcement(runs))
        assert not once_after_commit(("live", "b"), Announcement(runs))
    assert runs == [1]
    with pytest.raises(RuntimeError), transaction.atomic():
        once_after_commit(("live", "c"), Announcement(runs))
        raise RuntimeError("rolled back")
    assert runs == [1]
    with transaction.atomic():  # the rolled-back ask does not stand for a new transaction's
        assert once_after_commit(("live", "c"), Announcement(runs))
    assert runs == [1, 1]
