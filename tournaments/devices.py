"""Paired screens: clock displays and dealer tablets, and the tokens they act with.

A director makes a one-time pairing code (shown as text and as a QR code) for one tournament's clock
or one table's tablet. The screen that redeems it gets a device token, kept in a cookie named for
what it shows (so one browser can hold a clock and several tablets, as the demo does). Only a hash
of each code and token is stored. Revoking a device refuses its token at once and closes its open
sockets (each device has its own channel group).

Each device acts through a service account (no password, never staff), so hand events and the
audit record name it; revoking deactivates it.

Also here: the DRF authentication class and permissions that let a dealer tablet use the dealing
API for its own table only; the clock screens'
``Announcement`` banner and the tablets' ``FloorCall``; and ``demo_links`` for ``serve --demo``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import BasePermission

from config import live

from .audit import AuditAction, record_audit
from .models import Tournament, tournament_changed

PAIRING_CODE_MINUTES = 5
# Letters and digits that cannot be confused with each other when read off a screen.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
TOKEN_HEADER_KEYWORD = "Device"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def normalize_code(code: str) -> str:
    """Codes are read aloud and typed on tablets: ignore case, spaces and dashes."""
    return "".join(ch for ch in (code or "").upper() if ch.isalnum())


def format_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


class DeviceKind(models.TextChoices):
    CLOCK = "clock", _("Clock screen")
    TABLET = "tablet", _("Dealer tablet")


class Device(models.Model):
    """A paired screen. A clock screen reads one tournament; a tablet runs one table."""

    kind = models.CharField(_("kind"), max_length=10, choices=DeviceKind.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="devices")
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="devices"
    )
    label = models.CharField(_("label"), max_length=100)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    # A service account, so whatever records "who did it" (hand events, audit) can name the device.
    # It has no password and no staff rights; it is deactivated when the device is revoked.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="device",
        editable=False,
    )
    # Demo devices may be opened straight from a printed link (``manage.py serve --demo``).
    is_demo = models.BooleanField(_("demo device"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("paired at"), auto_now_add=True)
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "kind", "id"]
        verbose_name = _("device")
        verbose_name_plural = _("devices")

    def __str__(self):
        return self.label

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def cookie_name(self) -> str:
        return device_cookie_name(
            self.kind, self.table_id if self.kind == DeviceKind.TABLET else self.tournament_id
        )

    def screen_path(self) -> str:
        if self.kind == DeviceKind.TABLET:
            return f"/tablet/{self.table_id}/"
        return f"/clock/{self.tournament_id}/"


def device_cookie_name(kind: str, object_id: int) -> str:
    return f"dev_{'t' if kind == DeviceKind.TABLET else 'c'}{object_id}"


class PairingCode(models.Model):
    """A one-time code, valid a few minutes, that pairs one screen for one tournament or table."""

    kind = models.CharField(_("kind"), max_length=10, choices=DeviceKind.choices)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairing_codes")
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="pairing_codes"
    )
    code_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    device = models.OneToOneField(
        Device, on_delete=models.SET_NULL, null=True, blank=True, related_name="pairing_code"
    )

    class Meta:
        verbose_name = _("pairing code")
        verbose_name_plural = _("pairing codes")


class Announcement(models.Model):
    """The banner on the clock screen. The latest active one is shown."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(_("text"), max_length=300)
    active = models.BooleanField(_("shown"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self):
        return self.text


class FloorCall(models.Model):
    """A dealer pressed "call the floor" on a tablet; open until a floor person answers it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="floor_calls")
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="floor_calls")
    device_label = models.CharField(_("device"), max_length=100, blank=True)
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-called_at", "-id"]
        verbose_name = _("floor call")
        verbose_name_plural = _("floor calls")


# --- pairing --------------------------------------------------------------------------------------


class PairingError(Exception):
    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


@dataclass
class NewCode:
    pairing: PairingCode
    code: str  # the plain code, shown once

    @property
    def display(self) -> str:
        return format_code(self.code)


def _label_for(kind: str, tournament, table) -> str:
    if kind == DeviceKind.TABLET:
        return str(_("Table %(number)s tablet") % {"number": table.number})
    return str(_("Clock screen"))


def create_pairing_code(
    *, tournament: Tournament, kind: str, table=None, actor=None, minutes: int = PAIRING_CODE_MINUTES
) -> NewCode:
    """A fresh one-time code for a clock screen of ``tournament`` or the tablet of ``table``."""
    if kind not in DeviceKind.values:
        raise PairingError("bad_kind", _("A device is either a clock screen or a dealer tablet."))
    if kind == DeviceKind.TABLET:
        if table is None or table.tournament_id != tournament.pk:
            raise PairingError("bad_table", _("A tablet is paired to one table of this tournament."))
    else:
        table = None
    code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
    pairing = PairingCode.objects.create(
        kind=kind,
        tournament=tournament,
        table=table,
        code_hash=_digest(code),
        created_by=actor if getattr(actor, "pk", None) else None,
        expires_at=timezone.now() + timedelta(minutes=minutes),
    )
    return NewCode(pairing=pairing, code=code)


def _service_user(label: str):
    from django.contrib.auth import get_user_model
    from django.utils.text import slugify

    user = get_user_model()(username=f"device.{slugify(label)[:80]}.{secrets.token_hex(4)}", is_staff=False)
    user.set_unusable_password()
    user.save()
    return user


def _new_device(*, kind, tournament, table, label, actor=None, is_demo=False) -> tuple[Device, str]:
    token = secrets.token_urlsafe(32)
    device = Device.objects.create(
        user=_service_user(label),
        kind=kind,
        tournament=tournament,
        table=table,
        label=label,
        token_hash=_digest(token),
        is_demo=is_demo,
        created_by=actor if getattr(actor, "pk", None) else None,
    )
    return device, token


def redeem_pairing_code(code: str, *, label: str = "") -> tuple[Device, str]:
    """Turn a valid code into a new device and its token (returned once, stored only as a hash)."""
    normalized = normalize_code(code)
    if len(normalized) != CODE_LENGTH:
        raise PairingError("bad_code", _("A pairing code has 8 letters and digits."))
    with transaction.atomic():
        pairing = (
            # Lock only the code's row: PostgreSQL refuses FOR UPDATE on the nullable side of a join.
            PairingCode.objects.select_for_update(of=("self",))
            .select_related("tournament", "table")
            .filter(code_hash=_digest(normalized))
            .first()
        )
        if pairing is None:
            raise PairingError("unknown_code", _("This pairing code is not known. Check it and try again."))
        if pairing.used_at is not None:
            raise PairingError("used_code", _("This pairing code has already been used. Ask for a new one."))
        if pairing.expires_at <= timezone.now():
            raise PairingError("expired_code", _("This pairing code has expired. Ask for a new one."))
        device, token = _new_device(
            kind=pairing.kind,
            tournament=pairing.tournament,
            table=pairing.table,
            label=label.strip()[:100] or _label_for(pairing.kind, pairing.tournament, pairing.table),
            actor=pairing.created_by,
        )
        pairing.used_at = timezone.now()
        pairing.device = device
        pairing.save(update_fields=["used_at", "device"])
        _audit(pairing.created_by, AuditAction.DEVICE_PAIRED, device, data={"kind": device.kind})
        _devices_changed(device)
    return device, token


def revoke_device(device: Device, *, actor=None, reason: str = "") -> Device:
    """Refuse the device's token from now on and close its open sockets (after commit)."""
    with transaction.atomic():
        device = Device.objects.select_for_update().get(pk=device.pk)
        if device.revoked_at is None:
            device.revoked_at = timezone.now()
            device.save(update_fields=["revoked_at"])
            if device.user_id:
                type(device.user).objects.filter(pk=device.user_id).update(is_active=False)
            _audit(actor, AuditAction.DEVICE_REVOKED, device, reason=reason)
            live.device_revoked(device.pk)
            _devices_changed(device)
    return device


def _audit(actor, action: str, device: Device, reason: str = "", data: dict | None = None) -> None:
    record_audit(
        actor if getattr(actor, "pk", None) else None,
        action,
        device.label,
        reason=reason,
        data={"device": device.pk, **(data or {})},
        tournament=device.tournament,
    )


def _devices_changed(device: Device) -> None:
    tournament_changed(device.tournament_id)


def device_for_token(token: str | None, *, touch: bool = False) -> Device | None:
    """The active device holding ``token``, or None."""
    if not token or len(token) > 200:
        return None
    device = (
        Device.objects.select_related("tournament", "table", "user")
        .filter(token_hash=_digest(token), revoked_at__isnull=True)
        .first()
    )
    if device is not None and touch:
        now = timezone.now()
        if device.last_seen_at is None or now - device.last_seen_at > timedelta(minutes=1):
            Device.objects.filter(pk=device.pk).update(last_seen_at=now)
    return device


def device_from_cookies(cookies: dict, kind: str, object_id: int) -> Device | None:
    """The device a screen's cookie names, if it is active and paired to exactly this object."""
    device = device_for_token(cookies.get(device_cookie_name(kind, object_id)), touch=True)
    if device is None or device.kind != kind:
        return None
    owner = device.table_id if kind == DeviceKind.TABLET else device.tournament_id
    return device if owner == object_id else None


# --- the floor ----------------------------------------------------------------------------------


def call_floor(table, *, actor=None, device_label: str = "") -> FloorCall:
    """A table asks for a floor person. A second press while one is open changes nothing."""
    with transaction.atomic():
        open_call = (
            FloorCall.objects.select_for_update().filter(table=table, answered_at__isnull=True).first()
        )
        if open_call is not None:
            return open_call
        call = FloorCall.objects.create(
            tournament_id=table.tournament_id, table=table, device_label=device_label
        )
        record_audit(
            actor if getattr(actor, "pk", None) else None,
            AuditAction.FLOOR_CALLED,
            table,
            device_label=device_label,
        )
        tournament_changed(table.tournament_id)
        from tables.models import table_changed

        table_changed(table.pk)
    return call


def answer_floor_call(call: FloorCall, *, actor=None) -> FloorCall:
    with transaction.atomic():
        call = FloorCall.objects.select_for_update().get(pk=call.pk)
        if call.answered_at is None:
            call.answered_at = timezone.now()
            call.answered_by = actor if getattr(actor, "pk", None) else None
            call.save(update_fields=["answered_at", "answered_by"])
            record_audit(call.answered_by, AuditAction.FLOOR_ANSWERED, call.table)
            tournament_changed(call.tournament_id)
            from tables.models import table_changed

            table_changed(call.table_id)
    return call


# --- demo -----------------------------------------------------------------------------------------


def demo_links(tournament: Tournament, base_url: str) -> list[tuple[str, str]]:
    """Demo only: pair a clock screen and every table's tablet, and return labelled links that open
    them already paired. Each link carries its device token, so it is never offered outside a demo."""
    from tables.models import Table

    base = base_url.rstrip("/")
    links = []
    with transaction.atomic():
        device, token = _new_device(
            kind=DeviceKind.CLOCK, tournament=tournament, table=None, label=str(_("Demo clock")), is_demo=True
        )
        links.append((str(_("Clock screen")), f"{base}/screen/{token}/"))
        tables = Table.objects.filter(tournament=tournament).order_by("number")
        for table in tables:
            if getattr(table, "status", "") in ("broken", "closed"):
                continue
            device, token = _new_device(
                kind=DeviceKind.TABLET,
                tournament=tournament,
                table=table,
                label=str(_("Demo tablet, table %(number)s") % {"number": table.number}),
                is_demo=True,
            )
            links.append(
                (str(_("Table %(number)s tablet") % {"number": table.number}), f"{base}/screen/{token}/")
            )
        _devices_changed(device)
    links.append((str(_("Director console")), f"{base}/console/{tournament.pk}/"))
    return links


# --- the API: device tokens for the dealing endpoints -------------------------------------------


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Device <token>``. A revoked or unknown token is refused (401)."""

    keyword = TOKEN_HEADER_KEYWORD

    def authenticate(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("The device token header needs exactly one token."))
        device = device_for_token(parts[1].decode(errors="ignore"), touch=True)
        if device is None or device.user is None or not device.user.is_active:
            raise exceptions.AuthenticationFailed(
                _("This device is not paired or has been revoked. Pair it again.")
            )
        # request.user is the device's service account (never staff); request.auth is the Device.
        return device.user, device

    def authenticate_header(self, request):
        return self.keyword


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    """Documents the device token in the OpenAPI schema."""

    target_class = "tournaments.devices.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": str(_('A paired dealer tablet: "Device <token>". Revoked tokens are refused.')),
        }


def request_device(request) -> Device | None:
    device = getattr(request, "auth", None)
    return device if isinstance(device, Device) else None


def actor_and_device(request) -> tuple[object | None, str]:
    """(the user, or None, and the device label or "") to record who acted."""
    device = request_device(request)
    user = getattr(request, "user", None)
    return (user if getattr(user, "is_authenticated", False) else None), (device.label if device else "")


def device_may_operate_table(request, table_id: int | None) -> bool:
    """A dealer tablet acts only on its own table; a clock screen never acts."""
    device = request_device(request)
    return bool(
        device is not None
        and device.kind == DeviceKind.TABLET
        and table_id is not None
        and device.table_id == int(table_id)
    )


def dealing_request_table_id(request, view) -> int | None:
    """The table a dealing API request is about: the hand in the URL (``pk``), a ``table_id`` in the
    URL, or ``table`` in the body (start the next hand)."""
    kwargs = getattr(view, "kwargs", {}) or {}
    if "table_id" in kwargs:
        return int(kwargs["table_id"])
    if "pk" in kwargs:
        from dealing.models import Hand

        return Hand.objects.filter(pk=kwargs["pk"]).values_list("table_id", flat=True).first()
    table = request.data.get("table") if hasattr(request, "data") and isinstance(request.data, dict) else None
    try:
        return int(table) if table is not None else None
    except (TypeError, ValueError):
        return None


class TabletOnItsTablePermission(BasePermission):
    """For the dealing API: the request comes from the tablet paired to the table it acts on.

    Use it beside the staff check: ``can_operate(request.user) or
    TabletOnItsTablePermission().has_permission(request, view)``.
    """

    message = _("A dealer tablet may only run hands at its own table.")

    def has_permission(self, request, view):
        device = request_device(request)
        if device is None or device.kind != DeviceKind.TABLET:
            return False
        return device_may_operate_table(request, dealing_request_table_id(request, view))


class StaffOrTableDevicePermission(BasePermission):
    """Writes: staff, or the tablet paired to the table the request is about.

    The view names the table by ``get_permission_table_id(request)`` or a ``table_id``/``table``
    URL argument; object checks accept a Table or anything with ``table_id`` (a Hand).
    """

    message = _("Only tournament staff or this table's paired tablet may do that.")

    def _is_staff(self, request) -> bool:
        user = getattr(request, "user", None)
        return bool(user and user.is_authenticated and user.is_staff)

    def _view_table_id(self, request, view):
        getter = getattr(view, "get_permission_table_id", None)
        if getter is not None:
            return getter(request)
        kwargs = getattr(view, "kwargs", {}) or {}
        return kwargs.get("table_id") or kwargs.get("table")

    def has_permission(self, request, view):
        if self._is_staff(request):
            return True
        device = request_device(request)
        if device is None or device.kind != DeviceKind.TABLET:
            return False
        table_id = self._view_table_id(request, view)
        # Without a table in the URL the object check (has_object_permission) decides.
        return table_id is None or device_may_operate_table(request, table_id)

    def has_object_permission(self, request, view, obj):
        if self._is_staff(request):
            return True
        table_id = obj.pk if obj.__class__.__name__ == "Table" else getattr(obj, "table_id", None)
        return device_may_operate_table(request, table_id)
