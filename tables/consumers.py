"""The dealer tablet's socket: one table's snapshot, for its paired tablet or staff.

The tablet listens to its table's group and its tournament's group (a level change or hand-for-hand
changes what the tablet shows). Actions go through the dealing HTTP API, not this socket.
"""

from config import live
from tournaments.consumers import CLOSE_UNAUTHENTICATED, LiveConsumer, is_staff
from tournaments.devices import DeviceKind, device_from_cookies


class TableConsumer(LiveConsumer):
    def authorize(self):
        from tables.models import Table

        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        device = None
        if not is_staff(self.scope):
            # Checked first, so a stranger learns nothing about which tables exist.
            device = device_from_cookies(self.scope.get("cookies", {}), DeviceKind.TABLET, self.table_id)
            if device is None:
                return CLOSE_UNAUTHENTICATED
        table = Table.objects.only("pk", "tournament_id").get(pk=self.table_id)
        self.groups_joined = [live.table_group(table.pk), live.tournament_group(table.tournament_id)]
        if device is not None:
            self.groups_joined.append(live.device_group(device.pk))
        return None

    def build_snapshot(self):
        from tournaments.snapshots import table_snapshot

        return table_snapshot(self.table_id)
