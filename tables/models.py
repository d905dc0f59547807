"""Tables, seats, moves and seat draws (RULES section 8).

The database itself refuses double-booking: one row per (table, seat number), one seat per entry, seat
numbers 1..8 (R2.7). Who sits where changes only through ``tables.services``.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Count, F, Q
from django.utils.translation import gettext_lazy as _

from config import live
from config.prepared import increment

# R2.7: five hole cards each, five board cards and four burns fit a 52-card deck for at most 8 players.
MAX_SEATS = 8
MIN_SEATS = 2


class SeatingPlan(models.Model):
    """How a tournament's tables are balanced (R8.3) and when its final table is drawn (R8.5)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="seating_plan"
    )
    allowed_difference = models.PositiveSmallIntegerField(
        _("allowed difference"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
        help_text=_("Tables are kept within this many players of each other."),
    )
    relaxed_difference = models.PositiveSmallIntegerField(
        _("relaxed difference"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(4)],
        help_text=_("Difference allowed while more than 'relaxed above tables' tables play."),
    )
    relaxed_above_tables = models.PositiveIntegerField(_("relaxed above tables"), default=0)
    final_table_seats = models.PositiveSmallIntegerField(
        _("final table seats"),
        null=True,
        blank=True,
        validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)],
    )
    # The redraw plan (R8.5, TDA RP-9): the last two tables seat at most this many each (empty: the
    # table size), e.g. two tables of 5 before a final table of 8; they are always kept level.
    two_table_seats = models.PositiveSmallIntegerField(
        _("seats at each of the last two tables"),
        null=True,
        blank=True,
        validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)],
        help_text=_("The third-last table breaks only when its players fit at two tables of this size."),
    )
    # The last final-table redraw (R8.5): a field that grows onto a second table is redrawn again.
    final_redraw_at = models.DateTimeField(_("final table drawn at"), null=True, blank=True)
    # The director reviews balancing moves before they are made (the automatic task only suggests).
    review_moves = models.BooleanField(_("director reviews moves"), default=False)
    # Every clock screen of the tournament shows the seating chart instead of the clock until the
    # director turns it off (the chart itself is served apart: screens.seating_chart).
    chart_on_clock = models.BooleanField(_("seating chart on the clock screens"), default=False)

    class Meta:
        verbose_name = _("seating plan")
        verbose_name_plural = _("seating plans")
        constraints = [
            models.CheckConstraint(
                condition=Q(allowed_difference__gte=1), name="seating_plan_difference_at_least_one"
            ),
        ]

    def __str__(self):
        return str(self.tournament)


class Table(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        BROKEN = "broken", _("Broken")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table number"))
    seats = models.PositiveSmallIntegerField(
        _("seats"), default=MAX_SEATS, validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)]
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    # Positions of the last hand dealt (set by the dealing service through hand_started/hand_finished).
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(_("big blind seat"), null=True, blank=True)
    hand_in_progress = models.BooleanField(_("hand in progress"), default=False)
    # Tables break highest break_order first (R8.4); by default that is the highest table number.
    break_order = models.PositiveIntegerField(_("break order"), default=0)
    broken_at = models.DateTimeField(_("broken at"), null=True, blank=True)
    version = models.PositiveBigIntegerField(_("version"), default=0)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_table_number"),
            models.CheckConstraint(
                condition=Q(seats__gte=MIN_SEATS) & Q(seats__lte=MAX_SEATS), name="table_seats_2_to_8"
            ),
            models.CheckConstraint(
                condition=Q(button_seat__isnull=True)
                | (Q(button_seat__gte=1) & Q(button_seat__lte=F("seats"))),
                name="table_button_seat_in_range",
            ),
            models.CheckConstraint(
                condition=Q(big_blind_seat__isnull=True)
                | (Q(big_blind_seat__gte=1) & Q(big_blind_seat__lte=F("seats"))),
                name="table_big_blind_seat_in_range",
            ),
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField(
        _("seat number"), validators=[MinValueValidator(1), MaxValueValidator(MAX_SEATS)]
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    # R8.1: a player seated between the small blind and the button is not dealt in until the big
    # blind reaches them; the dealing service reads this (see services.dealt_in_next_hand).
    waits_for_big_blind = models.BooleanField(_("waits for the big blind"), default=False)
    # A director's lock: the player here is not moved by balancing; an empty locked seat stays empty.
    locked = models.BooleanField(_("locked"), default=False)
    lock_reason = models.CharField(_("lock reason"), max_length=200, blank=True)
    # A reserved seat is a locked empty seat kept for one named player (a late registrant, a player
    # coming back): their next seating takes it. Matched on the name key (config.text.name_key), so
    # the player need not be registered yet.
    reserved_for = models.CharField(_("reserved for"), max_length=200, blank=True)
    reserved_key = models.CharField(_("reserved for (name key)"), max_length=200, blank=True, editable=False)
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["entry"], condition=Q(entry__isnull=False), name="one_seat_per_entry"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=MAX_SEATS), name="seat_number_1_to_8"
            ),
        ]

    def __str__(self):
        return _("Table %(table)s seat %(seat)s") % {"table": self.table.number, "seat": self.number}


class SeatDraw(models.Model):
    """One random draw of seats, with the OS-random seed that decided it (R8.1, R8.4, R8.5).

    ``tables.balancing.DrawRandom(seed)`` replays the draw, so anyone can check it afterwards.
    """

    class Kind(models.TextChoices):
        START = "start", _("Seat draw at the start")
        LATE = "late", _("Late entry or re-entry")
        BREAK = "break", _("Table break")
        FINAL = "final", _("Final table redraw")
        BALANCE = "balance", _("Balancing")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="seat_draws"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    seed = models.BinaryField(_("seed"))
    # [{"entry": id, "table": number, "seat": number}, ...] in the order drawn.
    assignment = models.JSONField(_("assignment"), default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("seat draw")
        verbose_name_plural = _("seat draws")

    def __str__(self):
        return f"{self.get_kind_display()} ({self.created_at:%Y-%m-%d %H:%M})"


class Move(models.Model):
    class Reason(models.TextChoices):
        BALANCE = "balance", _("Balancing")
        BREAK = "break", _("Table break")
        REDRAW = "redraw", _("Final table redraw")
        MANUAL = "manual", _("Moved by the director")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the hand to end")
        DONE = "done", _("Done")
        ACKNOWLEDGED = "acknowledged", _("Acknowledged by the dealer")
        CANCELLED = "cancelled", _("Cancelled")

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="moves")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="moves")
    from_table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="moves_out"
    )
    from_seat = models.PositiveSmallIntegerField(_("from seat"), null=True, blank=True)
    to_table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves_in")
    to_seat = models.PositiveSmallIntegerField(_("to seat"))
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    status = models.CharField(_("status"), max_length=15, choices=Status.choices, default=Status.PENDING)
    draw = models.ForeignKey(SeatDraw, on_delete=models.SET_NULL, null=True, blank=True, related_name="moves")
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        constraints = [
            # A player has at most one move waiting; a seat is promised to at most one player.
            models.UniqueConstraint(
                fields=["entry"], condition=Q(status="pending"), name="one_pending_move_per_entry"
            ),
            models.UniqueConstraint(
                fields=["to_table", "to_seat"],
                condition=Q(status="pending"),
                name="one_pending_move_per_seat",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self):
        return f"{self.entry} -> {self.to_table.number}/{self.to_seat} ({self.reason})"


def seated_players() -> Count:
    """The players seated at each table, as an annotation of a Table query (``players=...``): the
    console's table lines, the halt check's field figures and the balance task's counts."""
    return Count("seat_set", filter=Q(seat_set__entry__isnull=False))


def table_changed(table_id: int, *, patch=None, version: int | None = None) -> None:
    """A table's hand, seats or moves changed in this transaction: its version goes up once and its
    tablet hears of it once, after the commit.

    ``patch(version)``: only the running hand changed, and this gives the snapshot's new hand part
    (``config.live``: the tablets' servers apply it instead of rebuilding the table).
    ``version``: the caller's own statement bumped the version already, to this one."""
    bump = (lambda: version) if version is not None else (lambda: increment(Table, table_id))
    live.changed(live.table_group(table_id), bump=bump, patch=patch)


def tables_changed(table_ids) -> None:
    """``table_changed`` for many tables in one write (the seat draw, a final-table redraw)."""
    ids = {live.table_group(pk): pk for pk in table_ids}
    live.changed_many(
        list(ids),
        bump=lambda groups: Table.objects.filter(pk__in=[ids[g] for g in groups]).update(
            version=F("version") + 1
        ),
    )
