"""The one way services tell the live screens that something changed.

Services call ``tournament_changed`` / ``table_changed`` inside their transaction. That bumps the
group's version counter in the same transaction (so a snapshot's version and its state commit
together) and sends a message only after the commit (a rolled-back change is never shown).
Messages carry no state of their own: the consumers build a versioned snapshot, so a dropped,
duplicated or reordered message never shows a wrong state (channels-redis drops messages past a
channel's capacity).
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def tournament_group(tournament_id: int) -> str:
    """Clock screens and the director console of one tournament."""
    return f"tournament-{tournament_id}"


def table_group(table_id: int) -> str:
    """The tablet (and any staff view) of one table."""
    return f"table-{table_id}"


def device_group(device_id: int) -> str:
    """Every socket of one paired device, so revoking it can close them all."""
    return f"device-{device_id}"


def _send_after_commit(group: str, message: dict) -> None:
    def send():
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


def _bump(group: str) -> None:
    from tournaments.devices import bump_version

    bump_version(group)


def tournament_changed(tournament_id: int, what: str = "state") -> None:
    """Clock, entries, payouts or seating of a tournament changed."""
    group = tournament_group(tournament_id)
    _bump(group)
    _send_after_commit(group, {"type": "state.changed", "what": what})


def table_changed(table_id: int, what: str = "state") -> None:
    """A table's hand, seats or pending moves changed."""
    group = table_group(table_id)
    _bump(group)
    _send_after_commit(group, {"type": "state.changed", "what": what})


def device_revoked(device_id: int) -> None:
    """Close every open socket of a device whose token was just revoked."""
    _send_after_commit(device_group(device_id), {"type": "device.revoked"})
