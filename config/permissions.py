"""The one staff check, and the API permission built on it (a leaf: it imports no app).

Staff are the tournament's people: director, floor, registration desk and dealers signed in with a
password. Paired devices act through service accounts that are never staff.
"""

from rest_framework.permissions import SAFE_METHODS, BasePermission


def is_staff(user) -> bool:
    """An active, signed-in member of the tournament staff."""
    return bool(user is not None and user.is_authenticated and user.is_active and user.is_staff)


class IsStaffOrReadOnly(BasePermission):
    """Anyone may read; only staff may change anything."""

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS or is_staff(request.user)
