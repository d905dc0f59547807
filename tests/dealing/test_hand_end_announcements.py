"""The input that ends a hand with busts is announced once: one message per live group, one version
step per screen row, one rebalance queued (config.live, tables.services)."""

from collections import Counter

import pytest

from config import live
from dealing.models import Hand
from tables import tasks
from tables.models import Table
from tests.factories import make_table
from tournaments.models import Tournament

from .tablet import Tablet
from .test_busts import all_in


@pytest.mark.django_db
def test_a_hand_end_with_busts_sends_one_message_per_group_and_queues_one_rebalance_R8_3(
    api, monkeypatch, django_capture_on_commit_callbacks
):
    sent, balances = [], []
    # Every announcement goes through send_many (one or many groups at a time).
    monkeypatch.setattr(live, "send_many", lambda messages: sent.extend(group for group, _ in messages))
    monkeypatch.setattr(tasks.balance_tournament, "delay", lambda pk: balances.append(pk))
    tournament, table = make_table(stacks=(100, 150, 200, 1000), table_size=5, other_tables=(5, 5), plan={})
    # Every request runs in its own capture, as each runs in its own transaction in production
    # (the test itself runs inside one transaction that never commits).
    with django_capture_on_commit_callbacks(execute=True):
        hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    state = tablet.state()
    while True:
        before = (
            Tournament.objects.get(pk=tournament.pk).version,
            dict(Table.objects.filter(tournament=tournament).values_list("pk", "version")),
        )
        sent.clear()
        balances.clear()
        with django_capture_on_commit_callbacks(execute=True):
            response = tablet.send(all_in(state))
        assert response.status_code == 200, response.json()
        state = response.json()["hand"]["state"]
        if Hand.objects.get(pk=hand_id).status == Hand.Status.FINISHED:
            break
    assert state["result"]["busted"], "the master seed busts players on this hand"
    # One message per group that changed, never two.
    counts = Counter(sent)

    assert counts[live.table_group(table.pk)] == 1
    assert counts[live.tournament_group(tournament.pk)] == 1
    assert max(counts.values()) == 1, counts
    # Each screen row's version went up by exactly one: one write per row, not one per service.
    tournament_version, table_versions = before
    assert Tournament.objects.get(pk=tournament.pk).version == tournament_version + 1
    after = dict(Table.objects.filter(tournament=tournament).values_list("pk", "version"))
    for pk, version in after.items():
        changed = live.table_group(pk) in counts
        assert version == table_versions[pk] + (1 if changed else 0)
    assert balances == [tournament.pk]
