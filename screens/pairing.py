"""Pairing: a director's one-time code (shown as text and as a QR code) for one tournament's clock or
one table's tablet becomes a device token on the screen that redeems it.

The token is kept in a cookie named for what the screen shows (so one browser can hold a clock and
several tablets, as the demo does). Only a hash of each code and token is stored. Revoking a device
refuses its token at once and closes its open sockets (each device has its own channel group).

Each device acts through a service account (no password, never staff), so hand events and the audit
record name it; revoking deactivates it.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from config import live, text
from config.prepared import PreparedQuery, WriteGuard
from config.validators import problem_message
from tables.models import Table
from tournaments.audit import AuditAction, record_audit
from tournaments.models import Tournament, tournament_changed

from .models import Device, DeviceKind, PairingCode, device_cookie_name

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


# A printed sheet is handed out while the room is set up: its codes stay valid for the evening.
SHEET_MINUTES = 12 * 60


@dataclass
class SheetLine:
    table: Table
    new: NewCode


def create_table_pairing_codes(
    *, tournament: Tournament, actor=None, minutes: int = SHEET_MINUTES, only_unpaired: bool = True
) -> list[SheetLine]:
    """One code for every open table's tablet in one go (the printable pairing sheet): a single bulk
    write, so a room of 1,250 tables gets its sheet in about a second. ``only_unpaired`` leaves out the
    tables whose tablet is paired already. Each code still pairs one tablet, once."""
    tables = Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).order_by("number")
    if only_unpaired:
        paired = Device.objects.filter(
            tournament=tournament, kind=DeviceKind.TABLET, revoked_at__isnull=True
        ).values("table_id")
        tables = tables.exclude(pk__in=paired)
    tables = list(tables)
    expires_at = timezone.now() + timedelta(minutes=minutes)
    created_by = actor if getattr(actor, "pk", None) else None
    lines, rows = [], []
    for table in tables:
        code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
        pairing = PairingCode(
            kind=DeviceKind.TABLET,
            tournament=tournament,
            table=table,
            code_hash=_digest(code),
            created_by=created_by,
            expires_at=expires_at,
        )
        rows.append(pairing)
        lines.append(SheetLine(table=table, new=NewCode(pairing=pairing, code=code)))
    with transaction.atomic():
        PairingCode.objects.bulk_create(rows, batch_size=500)
        record_audit(
            created_by,
            AuditAction.DEVICE_PAIRING_SHEET,
            tournament,
            data={"tables": [line.table.number for line in lines], "minutes": minutes},
            tournament=tournament,
        )
    return lines


def _service_user(label: str):
    user = get_user_model()(username=f"device.{slugify(label)[:80]}.{secrets.token_hex(4)}", is_staff=False)
    user.set_unusable_password()
    user.save()
    return user


def new_device(*, kind, tournament, table, label, actor=None, is_demo=False) -> tuple[Device, str]:
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


# An audit action of the screens app (AuditEntry.action is free text; the tournaments' own actions
# are ``AuditAction``).
DEVICE_LANGUAGE_SET = "device.language"


def check_language(language: str) -> str:
    """A screen's language: one of settings.LANGUAGES, or "" (the browser's)."""
    language = (language or "").strip()
    if language and language not in {code for code, _name in settings.LANGUAGES}:
        raise PairingError("bad_language", _("This language is not offered: choose one from the list."))
    return language


def redeem_pairing_code(code: str, *, label: str = "", language: str = "") -> tuple[Device, str]:
    """Turn a valid code into a new device and its token (returned once, stored only as a hash)."""
    normalized = normalize_code(code)
    if len(normalized) != CODE_LENGTH:
        raise PairingError("bad_code", _("A pairing code has 8 letters and digits."))
    language = check_language(language)
    try:
        label = text.clean_line(label or "", max_length=100)
    except text.TextProblem as problem:
        raise PairingError("bad_label", problem_message(problem)) from None
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
        device, token = new_device(
            kind=pairing.kind,
            tournament=pairing.tournament,
            table=pairing.table,
            label=label or _label_for(pairing.kind, pairing.tournament, pairing.table),
            actor=pairing.created_by,
        )
        if language:
            device.language = language
            device.save(update_fields=["language"])
        pairing.used_at = timezone.now()
        pairing.device = device
        pairing.save(update_fields=["used_at", "device"])
        _audit(pairing.created_by, AuditAction.DEVICE_PAIRED, device, data={"kind": device.kind})
        devices_changed(device)
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
            devices_changed(device)
    return device


def set_device_language(device: Device, language: str, *, actor=None) -> Device:
    """The director picks the language a paired screen speaks (the console); the screen shows it
    at its next load (its labels are rendered with the page)."""
    language = check_language(language)
    with transaction.atomic():
        device = Device.objects.select_for_update().get(pk=device.pk)
        if device.revoked_at is not None:
            raise PairingError("revoked", _("This screen was unpaired: pair it again first."))
        if device.language != language:
            device.language = language
            device.save(update_fields=["language"])
            _audit(actor, DEVICE_LANGUAGE_SET, device, data={"language": language})
            devices_changed(device)
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


def devices_changed(device: Device) -> None:
    tournament_changed(device.tournament_id)


# Asked on every request of a tablet: the device and its service account in one small query (its
# tournament and table are read only where a caller needs more than their ids), unordered (a token
# hash is unique), its SQL built once (config.prepared).
_device_by_token = PreparedQuery(
    lambda token_hash: (
        Device.objects.select_related("user")
        .filter(token_hash=token_hash, revoked_at__isnull=True)
        .order_by()[:1]
    )
)


_USER_TO_DEVICE = Device._meta.get_field("user").remote_field.cache_name


def device_for_token(token: str | None, *, touch: bool = False) -> Device | None:
    """The active device holding ``token``, or None."""
    if not token or len(token) > 200:
        return None
    device = _device_by_token.first(_digest(token))
    if device is not None and device.user is not None:
        # select_related also caches the device on its user: a reference cycle, which a tablet's socket
        # keeps for a minute (screens.tablet_inputs) and the collector then frees only at its hourly
        # thaw (config.gc_pauses). The user needs no way back.
        device.user._state.fields_cache.pop(_USER_TO_DEVICE, None)
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


@functools.cache
def _tablet_guard_sql() -> str:
    quote = connection.ops.quote_name
    device, user = Device._meta, get_user_model()._meta

    def column(meta, name):
        return quote(meta.get_field(name).column)

    return (
        f"EXISTS (SELECT 1 FROM {quote(device.db_table)} d JOIN {quote(user.db_table)} u "
        f"ON u.{quote(user.pk.column)} = d.{column(device, 'user')} "
        f"WHERE d.{column(device, 'token_hash')} = %s AND d.{column(device, 'revoked_at')} IS NULL "
        f"AND d.{column(device, 'kind')} = %s AND d.{column(device, 'table')} = %s "
        f"AND u.{column(user, 'is_active')})"
    )


def tablet_guard(cookies: dict, table_id: int) -> WriteGuard:
    """``device_from_cookies`` for the tablet of ``table_id`` with a working service account, as an
    SQL condition that a dealer input's write is made under (``config.prepared.WriteGuard``): the
    token still held by an active tablet of that table. A revocation committed before the write is
    seen by it, without reading the device at every input (``screens.tablet_inputs``)."""
    token = cookies.get(device_cookie_name(DeviceKind.TABLET, table_id)) or ""
    return WriteGuard(_tablet_guard_sql(), (_digest(token), DeviceKind.TABLET.value, table_id))
