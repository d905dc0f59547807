"""The one way services tell the live screens that something changed.

Services call ``tournament_changed`` / ``table_changed`` inside their transaction; the message goes
out only after the commit (a rolled-back change is never shown). Messages carry no state of their
own: the consumers build a versioned snapshot, so a dropped or duplicated message never shows a wrong
state (channels-redis drops messages past a channel's capacity).
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def _send_after_commit(group: str, message: dict) -> None:
    def send():
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(group, message)

    transaction.on_commit(send)


def tournament_changed(tournament_id: int, what: str = "state") -> None:
    """Clock, entries, payouts or seating of a tournament changed."""
    _send_after_commit(tournament_group(tournament_id), {"type": "state.changed", "what": what})


def table_changed(table_id: int, what: str = "state") -> None:
    """A table's hand, seats or pending moves changed."""
    _send_after_commit(table_group(table_id), {"type": "state.changed", "what": what})
