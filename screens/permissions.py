"""Who may do what on the screens' pages, sockets and tablet API: the one place that decides it.

Staff whose role runs hands (``config.permissions.may(user, "hands")``: the director and the floor)
may do everything here; a paired dealer tablet acts only at its own table
(``Device.may_operate_table``); a clock screen only reads.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission

from config.permissions import is_staff, may, refusal
from tables.models import Table

from .auth import request_device
from .models import DeviceKind


class StaffOrTableDevicePermission(BasePermission):
    """Writes: staff, or the tablet paired to the table the request is about.

    The view names the table by ``get_permission_table_id(request)`` or a ``table_id``/``table``
    URL argument; object checks accept a Table or anything with ``table_id`` (a Hand).
    """

    message = _("Only tournament staff or this table's paired tablet may do that.")

    def _view_table_id(self, request, view):
        getter = getattr(view, "get_permission_table_id", None)
        if getter is not None:
            return getter(request)
        kwargs = getattr(view, "kwargs", {}) or {}
        return kwargs.get("table_id") or kwargs.get("table")

    def has_permission(self, request, view):
        if is_staff(request.user):
            if may(request.user, "hands"):
                return True
            # DRF makes the permission anew for each request: the message is this refusal's own.
            self.message = refusal(request.user, "hands")
            return False
        device = request_device(request)
        if device is None or device.kind != DeviceKind.TABLET:
            return False
        table_id = self._view_table_id(request, view)
        # Without a table in the URL the object check (has_object_permission) decides.
        return table_id is None or device.may_operate_table(table_id)

    def has_object_permission(self, request, view, obj):
        if is_staff(request.user):
            return may(request.user, "hands")
        device = request_device(request)
        table_id = obj.pk if isinstance(obj, Table) else getattr(obj, "table_id", None)
        return device is not None and device.may_operate_table(table_id)
