"""Paired screens: clock displays and dealer tablets, their one-time pairing codes, the clock
screens' announcement banner and the tablets' floor calls.

These tables were made by the tournaments app before the screens app existed; they keep their names
(``db_table``) and moved here by state-only migrations.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DeviceKind(models.TextChoices):
    CLOCK = "clock", _("Clock screen")
    TABLET = "tablet", _("Dealer tablet")


class Device(models.Model):
    """A paired screen. A clock screen reads one tournament; a tablet runs one table."""

    secret_fields = ("token_hash",)  # never a lookup path in the admin (config.admin_guard)

    kind = models.CharField(_("kind"), max_length=10, choices=DeviceKind.choices)
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="devices")
    table = models.ForeignKey(
        "tables.Table", on_delete=models.CASCADE, null=True, blank=True, related_name="devices"
    )
    label = models.CharField(_("label"), max_length=100)
    # The language the screen speaks (one of settings.LANGUAGES), whatever the other screens and the
    # staff's browsers speak: a French room's clock in French while the tablets are in Italian.
    # Empty: the browser's language.
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
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
        db_table = "tournaments_device"  # created by the tournaments app before screens had its own
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

    def may_operate_table(self, table_id: int | None) -> bool:
        """A dealer tablet acts only at its own table; a clock screen never acts. Other apps ask
        ``request.auth.may_operate_table(...)`` without knowing what a device is."""
        return bool(
            self.is_active
            and self.kind == DeviceKind.TABLET
            and table_id is not None
            and self.table_id == int(table_id)
        )

    def screen_path(self) -> str:
        if self.kind == DeviceKind.TABLET:
            return f"/tablet/{self.table_id}/"
        return f"/clock/{self.tournament_id}/"


def device_cookie_name(kind: str, object_id: int) -> str:
    return f"dev_{'t' if kind == DeviceKind.TABLET else 'c'}{object_id}"


class PairingCode(models.Model):
    """A one-time code, valid a few minutes, that pairs one screen for one tournament or table."""

    # Never a lookup path in the admin (config.admin_guard): 8 characters of a 32-letter alphabet
    # are 40 bits, so a hash learnt by yes/no questions could be brute-forced within its minutes.
    secret_fields = ("code_hash",)

    kind = models.CharField(_("kind"), max_length=10, choices=DeviceKind.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="pairing_codes"
    )
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
        db_table = "tournaments_pairingcode"  # created by the tournaments app before screens had its own
        verbose_name = _("pairing code")
        verbose_name_plural = _("pairing codes")


class Announcement(models.Model):
    """The banner on the clock screen. The latest active one is shown."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("text"), max_length=300)
    active = models.BooleanField(_("shown"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_announcement"  # created by the tournaments app before screens had its own
        ordering = ["-created_at", "-id"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self):
        return self.text


class FloorCall(models.Model):
    """A dealer pressed "call the floor" on a tablet; open until a floor person answers it."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="floor_calls"
    )
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="floor_calls")
    device_label = models.CharField(_("device"), max_length=100, blank=True)
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        db_table = "tournaments_floorcall"  # created by the tournaments app before screens had its own
        ordering = ["-called_at", "-id"]
        verbose_name = _("floor call")
        verbose_name_plural = _("floor calls")


class StaffLanguage(models.Model):
    """The language a staff member's console speaks, kept on their account (one of settings.LANGUAGES):
    an Italian floor person reads the floor page in Italian whatever the browser says. No row: the
    browser's language."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="staff_language"
    )
    language = models.CharField(_("language"), max_length=10)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("staff language")
        verbose_name_plural = _("staff languages")

    def __str__(self):
        return f"{self.user_id}: {self.language}"
