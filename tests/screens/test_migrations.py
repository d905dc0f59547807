"""A database made by the version before the screens app migrates forward without loss: devices,
pairing codes, announcements and floor calls keep their rows (state-only moves), and the screen
versions move from the old counter table onto the rows they version."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# The last migrations of the version before the screens app (screens had none).
BEFORE = [
    ("tournaments", "0007_paused_before_hand_for_hand"),
    ("tables", "0001_initial"),
    ("dealing", "0001_initial"),
]


def _migrate(targets, *, unapply_screens=False):
    executor = MigrationExecutor(connection)
    executor.migrate(targets + ([("screens", None)] if unapply_screens else []))
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def back_to_latest():
    """Whatever the test does, later tests find the schema at the latest migration."""
    yield
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_latest")
def test_devices_and_screen_versions_survive_the_move_to_the_screens_app():
    old = _migrate(BEFORE, unapply_screens=True)
    Structure = old.get_model("tournaments", "BlindStructure")
    Tournament = old.get_model("tournaments", "Tournament")
    Table = old.get_model("tables", "Table")
    Device = old.get_model("tournaments", "Device")
    Announcement = old.get_model("tournaments", "Announcement")
    FloorCall = old.get_model("tournaments", "FloorCall")
    ScreenVersion = old.get_model("tournaments", "ScreenVersion")
    structure = Structure.objects.create(name="Old", betting="no_limit")
    tournament = Tournament.objects.create(
        name="Old cup", game="courchevel", betting="no_limit", structure=structure, starting_stack=1000
    )
    table = Table.objects.create(tournament=tournament, number=1, seats=8, version=3)
    device = Device.objects.create(
        kind="tablet", tournament=tournament, table=table, label="Table 1 tablet", token_hash="a" * 64
    )
    Announcement.objects.create(tournament=tournament, text="Dinner at 8")
    FloorCall.objects.create(tournament=tournament, table=table, device_label="Table 1 tablet")
    ScreenVersion.objects.create(group=f"tournament-{tournament.pk}", version=41)
    ScreenVersion.objects.create(group=f"table-{table.pk}", version=17)

    new = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    moved = new.get_model("screens", "Device").objects.get(pk=device.pk)
    assert (moved.label, moved.table_id, moved.tournament_id) == ("Table 1 tablet", table.pk, tournament.pk)
    assert new.get_model("screens", "Announcement").objects.get().text == "Dinner at 8"
    assert new.get_model("screens", "FloorCall").objects.get().table_id == table.pk
    # A screen showing the old version (41 + 17) never sees a lower one after the upgrade.
    assert new.get_model("tournaments", "Tournament").objects.get(pk=tournament.pk).version == 41
    assert new.get_model("tables", "Table").objects.get(pk=table.pk).version == 17
