"""Tournaments, blind structures, players and entries.

The clock lives in stored timestamps on the tournament (``level_started_at``, ``paused_at``,
``remaining_when_paused``) and a ``clock_version`` bumped by every change; ``tournaments.clock``
computes everything else from them.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connection, models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from config import live, text
from config.locks import bound_lock_waits
from config.prepared import PreparedQuery, increment
from config.validators import validate_line, validate_player_name


class Game(models.TextChoices):
    COURCHEVEL = "courchevel", _("Courchevel")
    COURCHEVEL_HILO = "courchevel_hilo", _("Courchevel Hi/Lo")


class Betting(models.TextChoices):
    FIXED_LIMIT = "fixed_limit", _("Fixed Limit")
    POT_LIMIT = "pot_limit", _("Pot Limit")
    NO_LIMIT = "no_limit", _("No Limit")


class AnteKind(models.TextChoices):
    NONE = "none", _("No ante")
    PER_PLAYER = "per_player", _("Ante from each player")
    BIG_BLIND = "big_blind", _("Big-blind ante")


class BlindStructure(models.Model):
    """A list of levels and breaks. Templates are copied into each tournament, then edited there."""

    name = models.CharField(_("name"), max_length=100)
    betting = models.CharField(_("betting structure"), max_length=20, choices=Betting.choices)
    is_template = models.BooleanField(_("template"), default=False)
    description = models.TextField(_("description"), blank=True)
    # The starting stack the template is designed for (0: none suggested).
    starting_stack = models.PositiveBigIntegerField(_("suggested starting stack"), default=0)
    # The chip set its levels are made for (and its breaks color up): a tournament created from the
    # structure gets it unless it names its own (R5.7, R6.5).
    chip_denominations = models.JSONField(_("chip set"), default=list, blank=True)

    class Meta:
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")

    def __str__(self):
        return self.name


class Level(models.Model):
    """One level of play or one break. ``order`` is the 0-based position in the structure."""

    structure = models.ForeignKey(BlindStructure, on_delete=models.CASCADE, related_name="levels")
    order = models.PositiveIntegerField(_("order"))
    is_break = models.BooleanField(_("break"), default=False)
    duration_minutes = models.PositiveIntegerField(
        _("minutes"), validators=[MinValueValidator(1), MaxValueValidator(600)]
    )
    small_blind = models.PositiveBigIntegerField(_("small blind"), default=0)
    big_blind = models.PositiveBigIntegerField(_("big blind"), default=0)
    ante = models.PositiveBigIntegerField(_("ante"), default=0)
    ante_kind = models.CharField(
        _("ante kind"), max_length=20, choices=AnteKind.choices, default=AnteKind.NONE
    )
    small_bet = models.PositiveBigIntegerField(_("small bet"), default=0)  # fixed limit only
    big_bet = models.PositiveBigIntegerField(_("big bet"), default=0)  # fixed limit only
    # At a break: chip denominations taken out of play (colored up and raced off, R8.7).
    color_up = models.JSONField(_("color-up"), default=list, blank=True)

    class Meta:
        ordering = ["structure", "order"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "order"], name="unique_level_order"),
        ]
        verbose_name = _("level")
        verbose_name_plural = _("levels")

    def __str__(self):
        if self.is_break:
            return _("Break (%(minutes)s min)") % {"minutes": self.duration_minutes}
        return f"{self.small_blind}/{self.big_blind}"


# The largest maximum field size a tournament may set (a 10,000-player festival fits well within it).
MAX_PLAYERS = 100_000


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        REGISTERING = "registering", _("Registering")
        RUNNING = "running", _("Running")
        ON_BREAK = "on_break", _("On break")
        FINISHED = "finished", _("Finished")

    class Seeding(models.TextChoices):
        FRESH = "fresh", _("Fresh seed every hand")
        MASTER = "master", _("Master seed (rehearsal, replayable)")

    # Never a lookup path in the admin (config.admin_guard): the master seed derives every hand's seed.
    secret_fields = ("master_seed", "floor_pin_hash")

    name = models.CharField(_("name"), max_length=200)
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    betting = models.CharField(_("betting structure"), max_length=20, choices=Betting.choices)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PLANNED)

    starting_stack = models.PositiveBigIntegerField(
        _("starting stack"), validators=[MinValueValidator(1), MaxValueValidator(10**9)]
    )
    seats_per_table = models.PositiveSmallIntegerField(
        _("seats per table"), default=8, validators=[MinValueValidator(2), MaxValueValidator(8)]
    )
    structure = models.ForeignKey(BlindStructure, on_delete=models.PROTECT, related_name="tournaments")

    late_registration_until_level = models.PositiveIntegerField(_("late registration until level"), default=0)
    max_reentries = models.PositiveIntegerField(_("re-entries allowed"), default=0)
    # The most players in at once (the seats the room has for it); when full, the desk keeps an
    # alternates list (``tournaments.services.alternates``). Empty: no limit.
    max_players = models.PositiveIntegerField(
        _("maximum players"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2), MaxValueValidator(MAX_PLAYERS)],
    )
    rebuys_allowed = models.PositiveIntegerField(_("rebuys allowed"), default=0)
    rebuy_stack = models.PositiveBigIntegerField(_("rebuy stack"), default=0)
    addon_allowed = models.BooleanField(_("add-on allowed"), default=False)
    addon_stack = models.PositiveBigIntegerField(_("add-on stack"), default=0)

    buy_in = models.PositiveBigIntegerField(_("buy-in"), default=0)
    fee = models.PositiveBigIntegerField(_("fee"), default=0)
    rebuy_price = models.PositiveBigIntegerField(_("rebuy price"), default=0)
    addon_price = models.PositiveBigIntegerField(_("add-on price"), default=0)
    guarantee = models.PositiveBigIntegerField(_("guarantee"), default=0)
    # Percent of prize pool by place, e.g. [50, 30, 20]; empty means the default curve by field size.
    payout_percentages = models.JSONField(_("payout percentages"), default=list, blank=True)

    seeding = models.CharField(_("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.FRESH)
    master_seed = models.BinaryField(_("master seed"), null=True, blank=True, editable=False)
    master_seed_commitment = models.CharField(_("master seed commitment"), max_length=64, blank=True)
    # The floor's PIN that approves an undo on a dealer tablet (tournaments.services.floor_pin), hashed.
    floor_pin_hash = models.CharField(_("floor PIN"), max_length=128, blank=True, editable=False)

    chip_denominations = models.JSONField(_("chip denominations"), default=list, blank=True)
    smallest_chip = models.PositiveBigIntegerField(_("smallest chip in play"), default=1)

    # The clock: stored timestamps only (R8.2).
    level_index = models.PositiveIntegerField(_("level index"), default=0)
    level_started_at = models.DateTimeField(_("level started at"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    remaining_when_paused = models.FloatField(_("seconds remaining when paused"), null=True, blank=True)
    clock_version = models.PositiveBigIntegerField(_("clock version"), default=0)
    # The live screens' version of everything a clock screen shows (``tournament_changed``).
    version = models.PositiveBigIntegerField(_("screen version"), default=0, editable=False)
    hand_for_hand = models.BooleanField(_("hand-for-hand"), default=False)
    # A clock the director had paused stays paused when hand-for-hand ends.
    paused_before_hand_for_hand = models.BooleanField(_("paused before hand-for-hand"), default=False)
    # Hand-for-hand keeps the clock paused; each finished round of hands takes at most two minutes
    # off it (R8.6), measured from this instant.
    hand_for_hand_round_started_at = models.DateTimeField(
        _("hand-for-hand round started at"), null=True, blank=True
    )

    percent_paid = models.PositiveSmallIntegerField(
        _("percent of the field paid"), default=15, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    # Prizes are rounded to this unit (0: chosen from the size of the pool).
    payout_unit = models.PositiveBigIntegerField(_("payout rounding unit"), default=0)
    # The director's own table, in amounts by place (empty: from the percentages). Made for the pool
    # of its day; if the pool changes after, the same proportions are paid out of the new pool.
    payout_amounts = models.JSONField(_("payout table (amounts by place)"), default=list, blank=True)

    # Deals (tournaments.services.deals): whether the clock keeps running while players talk, and
    # the deal talk under way (since when, and whether it paused a running clock, to resume it).
    clock_runs_during_deal = models.BooleanField(_("the clock runs during deal talk"), default=False)
    deal_talk_since = models.DateTimeField(_("deal talk since"), null=True, blank=True)
    deal_talk_paused_clock = models.BooleanField(_("deal talk paused the clock"), default=False)

    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    @property
    def is_hilo(self) -> bool:
        return self.game == Game.COURCHEVEL_HILO


class PlayerQuerySet(models.QuerySet):
    def matching(self, name: str):
        """Players whose name is this one, case, accents and spacing ignored ("ana lima" is "Ána Lima")."""
        return self.filter(name_key=text.name_key(name)).order_by("id")


class Player(models.Model):
    # Checked as typed (config.validators): 1 to 64 characters, no control, bidi or invisible ones.
    name = models.CharField(_("name"), max_length=200, validators=[validate_player_name])
    nickname = models.CharField(_("nickname"), max_length=100, blank=True, validators=[validate_line])
    country = models.CharField(_("country"), max_length=2, blank=True)
    # The name with case, accents and spacing ignored: two spellings of one player share it.
    name_key = models.CharField(_("name key"), max_length=200, db_index=True, editable=False, default="")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        # The console lists a field's first players by name: walked in this order, a big event's
        # first 60 cost 60 index steps, not a sort of its 10,000 entries (screens.snapshots).
        indexes = [models.Index(fields=["name"], name="player_name")]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.name_key = text.name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Entry(models.Model):
    """One buy-in into a tournament. A re-entry is a new Entry with the next ``number``."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        BUSTED = "busted", _("Busted")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField(_("entry number"), default=1)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    chips = models.PositiveBigIntegerField(_("chips"), default=0)
    rebuys = models.PositiveIntegerField(_("rebuys"), default=0)
    addon_taken = models.BooleanField(_("add-on taken"), default=False)
    place = models.PositiveIntegerField(_("finishing place"), null=True, blank=True)
    # Players busting on one hand with equal starting chips share places place..place_shared_to (R8.6).
    place_shared_to = models.PositiveIntegerField(_("shares places down to"), null=True, blank=True)
    chips_at_start_of_bust_hand = models.PositiveBigIntegerField(
        _("chips at the start of the bust hand"), null=True, blank=True
    )
    bust_hand_label = models.CharField(_("bust hand"), max_length=100, blank=True)
    prize = models.PositiveBigIntegerField(_("prize"), default=0)
    busted_at = models.DateTimeField(_("busted at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player", "number"], name="unique_entry_number"),
        ]
        indexes = [
            # Players left (every clock and console snapshot counts them) and the placed entries (every
            # registration and bust recomputes their prizes): read without scanning 10,000 entries.
            models.Index(fields=["tournament", "status"], name="entry_tournament_status"),
            models.Index(
                fields=["tournament", "place"], condition=Q(place__isnull=False), name="entry_placed"
            ),
            # Busts waiting for their places (late registration still open; every bust after it closes
            # asks): none or a few, found without reading the day's thousands of placed busts.
            models.Index(
                fields=["tournament"],
                condition=Q(status="busted", place__isnull=True),
                name="entry_unplaced_busts",
            ),
            # The chip leaders (every clock and console snapshot): the top of 10,000 stacks from the
            # index, not a sort of the field.
            models.Index(fields=["tournament", "status", "-chips", "id"], name="entry_chip_leaders"),
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self):
        suffix = f" #{self.number}" if self.number > 1 else ""
        return f"{self.player}{suffix}"


class Alternate(models.Model):
    """A player waiting for a seat while the field is full (``max_players``), first come, first seated."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        SEATED = "seated", _("Seated")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="alternates")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="alternates")
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="alternate",
        verbose_name=_("entry"),
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["added_at", "id"]
        constraints = [
            # One place on the list per player: a second "add" is refused, not queued twice.
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status="waiting"),
                name="one_waiting_alternate_per_player",
            ),
        ]
        verbose_name = _("alternate")
        verbose_name_plural = _("alternates")

    def __str__(self):
        return str(self.player)


class Deal(models.Model):
    """A deal at the final table: every player left agreed to share the prizes still to be won this
    way (``tournaments.deals``), less ``left_to_play_for``, which goes to the winner on top."""

    class Kind(models.TextChoices):
        ICM = "icm", _("ICM")
        CHIP_CHOP = "chip_chop", _("Chip chop")
        CUSTOM = "custom", _("Custom split")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="deal")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    players = models.PositiveSmallIntegerField(_("players in the deal"))
    prize_money = models.PositiveBigIntegerField(_("prizes still to be won"))
    left_to_play_for = models.PositiveBigIntegerField(_("left to play for"), default=0)
    # How the amounts were computed: "exact", "monte_carlo" (samples, standard error), "chip_chop", "custom".
    method = models.CharField(_("method"), max_length=20)
    samples = models.PositiveIntegerField(_("Monte Carlo samples"), default=0)
    standard_error = models.FloatField(_("largest standard error"), default=0.0)
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self):
        return f"{self.tournament}: {self.get_kind_display()}"


class DealShare(models.Model):
    """One player's part of a deal: their chips then, their deal amount, and that they agreed."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="shares")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="deal_share")
    chips = models.PositiveBigIntegerField(_("chips at the deal"))
    amount = models.PositiveBigIntegerField(_("deal amount"))
    # What the player's chips were worth without a deal (ICM of the prizes as they stood).
    without_deal = models.PositiveBigIntegerField(_("value without a deal"), default=0)
    agreed = models.BooleanField(_("agreed"), default=False)

    class Meta:
        ordering = ["deal", "-chips", "id"]
        verbose_name = _("deal share")
        verbose_name_plural = _("deal shares")

    def __str__(self):
        return f"{self.entry}: {self.amount}"


class ChipRace(models.Model):
    """One color-up's chip race (R8.7), kept so anyone can check it: the seed every table's deck was
    shuffled from (``hand_seed(seed, table, 0)``, RULES section 7) and every card dealt."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_races")
    level_order = models.PositiveIntegerField(_("break"))
    old_chip = models.PositiveBigIntegerField(_("smallest chip before"))
    new_chip = models.PositiveBigIntegerField(_("smallest chip after"))
    colored_up = models.JSONField(_("chips colored up"), default=list)
    seed = models.BinaryField(_("race seed"), max_length=32)
    # [{"table": 3, "players": [{"seat", "entry", "name", "odd_chips", "cards", "best", "won", "saved"}]}]
    tables = models.JSONField(_("cards dealt"), default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("chip race")
        verbose_name_plural = _("chip races")

    def table_rows(self, table_number: int) -> list[dict]:
        return next((t["players"] for t in self.tables if t["table"] == table_number), [])


class AuditEntry(models.Model):
    """Who did what, when, and why. Nothing in the tournament is deleted; corrections add rows here."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    device_label = models.CharField(_("device"), max_length=100, blank=True)
    action = models.CharField(_("action"), max_length=100)
    target = models.CharField(_("target"), max_length=200, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self):
        who = self.actor or self.device_label or "-"
        return f"{self.at:%Y-%m-%d %H:%M:%S} {who} {self.action} {self.target}"


def tournament_changed(tournament_id: int) -> None:
    """Clock, entries, payouts or seating of a tournament changed in this transaction: its screen
    version goes up once and its screens hear of it once, after the commit."""
    live.changed(
        live.tournament_group(tournament_id),
        bump=lambda: increment(Tournament, tournament_id),
    )


def console_changed(tournament_id: int) -> None:
    """Something only the director console shows changed in this transaction (the all-ins panel): its
    console version goes up once and its consoles hear of it once, after the commit. The clock
    screens, the players' pages and the halt checks, which follow the tournament's version, are left
    alone: at a big event the run-outs came about once a second, and each made every server rebuild
    its clock screens' snapshot and read the field's figures again.

    Nothing is sent when the tournament itself changed in this transaction: the console rebuilds for
    that, and its version (the sum) has gone up with it."""
    if live.changed_in_this_transaction(live.tournament_group(tournament_id)):
        return
    live.changed(
        live.tournament_group(tournament_id),
        scope=live.CONSOLE_ONLY,
        bump=lambda: ConsoleVersion.bump(tournament_id),
    )


class ConsoleVersion(models.Model):
    """How often what only the director console shows moved on (an all-in's run-out, street by
    street): the console's version is the tournament's plus this (``console_changed``).

    A row of its own, not a column of the tournament's: the dealer's input that deals a run-out holds
    its table, and balancing holds the tournament and then waits for tables. Bumping a column of the
    tournament row there took the locks in the reverse order: a deadlock at a big event's run-outs
    (about one a second), with the balance holding every input of that dealer's server behind it
    until one of them gave way. Nothing but this bump locks this row."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="console_counter"
    )
    version = models.PositiveBigIntegerField(_("console version"), default=0)

    class Meta:
        verbose_name = _("console version")
        verbose_name_plural = _("console versions")

    @classmethod
    def bump(cls, tournament_id: int) -> None:
        """One more, in the current transaction; the row is made at the first run-out (one statement
        either way, and two inputs making it at once cannot both insert it)."""
        table = connection.ops.quote_name(cls._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (tournament_id, version) VALUES (%s, 1) "
                f"ON CONFLICT (tournament_id) DO UPDATE SET version = {table}.version + 1",
                [tournament_id],
            )


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament read under its lock, the first lock of every change to its field (then its
    tables, their seats and entries). FOR NO KEY UPDATE: a transaction that only refers to the
    tournament (an audit entry: Django checks foreign keys at the commit) is not kept waiting; a plain
    FOR UPDATE made such a commit at a table wait for balancing, which waited for that table.

    From then on this transaction waits only briefly for any other lock (``config.locks``): a dealer
    holding a table may be waiting for this one."""
    tournament = _locked_tournament.first(tournament_id)
    if tournament is None:
        raise Tournament.DoesNotExist(f"tournament {tournament_id}")
    bound_lock_waits()
    return tournament


# The first read of every change to a tournament's field (a bust, a registration, a level): its SQL
# built once (config.prepared).
_locked_tournament = PreparedQuery(
    lambda pk: Tournament.objects.select_for_update(no_key=True).filter(pk=pk).order_by()[:1]
)


def clock_changed(tournament_id: int, *, every_table: bool = False) -> None:
    """What every tablet shows of the tournament changed too (its clock, level, hand-for-hand, status
    or chips in play): the tournament's screens and its tablets hear of it, once each, after commit.

    The tablets share one build of their tournament part (a level change at 1,250 tables is one build
    per server, not 1,250); ``every_table``: each table's own part changed with it (hand-for-hand
    waits, a chip race's cards), so each tablet rebuilds its table too."""
    tournament_changed(tournament_id)
    live.changed(live.tournament_tables_group(tournament_id), scope=live.TABLETS_TOURNAMENT)
    if every_table:
        live.changed(live.tournament_tables_group(tournament_id), scope=live.TABLETS_EVERY_TABLE)


# ---------------------------------------------------------------- multi-day events (docs/festivals.md)


class Event(models.Model):
    """One event played over several days: starting flights (Day 1A, 1B ...), each a tournament of
    its own, whose survivors bag their chips and play a later day together. One prize pool and one
    payout table for the whole event, built from every flight's entries."""

    class StackRule(models.TextChoices):
        BEST = "best", _("Keep the best stack")
        ALL = "all", _("Keep every stack (added together)")

    name = models.CharField(_("name"), max_length=200)
    buy_in = models.PositiveBigIntegerField(_("buy-in"), default=0)
    fee = models.PositiveBigIntegerField(_("fee"), default=0)
    guarantee = models.PositiveBigIntegerField(_("guarantee"), default=0)
    payout_percentages = models.JSONField(_("payout percentages"), default=list, blank=True)
    percent_paid = models.PositiveSmallIntegerField(
        _("percent of the field paid"), default=15, validators=[MinValueValidator(1), MaxValueValidator(100)]
    )
    payout_unit = models.PositiveBigIntegerField(_("payout rounding unit"), default=0)
    stack_rule = models.CharField(
        _("survived more than one flight"), max_length=10, choices=StackRule.choices, default=StackRule.BEST
    )
    # A day other than the last stops at the end of this level (its number as players say it) ...
    stop_after_level = models.PositiveIntegerField(_("play stops after level"), default=0)
    # ... or when this many players are left in the flight (0: not used).
    stop_at_players = models.PositiveIntegerField(_("play stops at players left"), default=0)
    # Players busting before the last day have an event place only when this is set.
    pays_day1_finishers = models.BooleanField(_("pays players out before the last day"), default=False)
    # Late registration into a later day at this stack (0: only the survivors play it) ...
    late_stack = models.PositiveBigIntegerField(_("late entry stack on a later day"), default=0)
    # ... until the end of this level (its number in the structure, as players say it).
    late_until_level = models.PositiveIntegerField(_("later-day registration until level"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("multi-day event")
        verbose_name_plural = _("multi-day events")

    def __str__(self):
        return self.name


class Flight(models.Model):
    """A tournament's place in an event: a starting flight of day 1 ("Day 1A") or a later day."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="flights")
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="flight")
    day = models.PositiveSmallIntegerField(_("day"), validators=[MinValueValidator(1)])
    label = models.CharField(_("label"), max_length=40)
    # When the floor stopped play, and the clock's period then (the later day resumes from it).
    play_stopped_at = models.DateTimeField(_("play stopped at"), null=True, blank=True)
    resume_level_index = models.PositiveIntegerField(_("next day resumes at period"), null=True, blank=True)
    # Every survivor bagged: the flight is over.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # A later day: drawn (survivors seated) at.
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    # A later day that also bags (an event of three days or more) stops where it says: its own
    # level and number of players (0: not used); the starting flights use the event's.
    stop_after_level = models.PositiveIntegerField(_("play stops after level"), default=0)
    stop_at_players = models.PositiveIntegerField(_("play stops at players left"), default=0)

    class Meta:
        ordering = ["event", "day", "label"]
        constraints = [
            models.UniqueConstraint(fields=["event", "label"], name="unique_flight_label"),
            models.UniqueConstraint(
                fields=["event", "day"], condition=models.Q(day__gt=1), name="one_tournament_per_later_day"
            ),
        ]
        verbose_name = _("flight")
        verbose_name_plural = _("flights")

    def __str__(self):
        return f"{self.event} · {self.label}"

    @property
    def stops(self) -> tuple[int, int]:
        """Where this day's play stops: (after level, at players left); 0 means not used."""
        if self.day == 1:
            return self.event.stop_after_level, self.event.stop_at_players
        return self.stop_after_level, self.stop_at_players


class Bag(models.Model):
    """A survivor's chips at the end of a flight, counted by the floor and sealed in a numbered bag."""

    class Status(models.TextChoices):
        BAGGED = "bagged", _("Bagged")
        CARRIED = "carried", _("Carried to the next day")
        SET_ASIDE = "set_aside", _("Set aside (a bigger stack from another flight counts)")

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="bags")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="bag")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="bags")
    chips = models.PositiveBigIntegerField(_("chips"))
    bag_number = models.CharField(_("bag number"), max_length=20)
    table_number = models.PositiveIntegerField(_("table"))
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.BAGGED)
    carried_to = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="bags_carried_in"
    )
    bagged_at = models.DateTimeField(_("bagged at"), auto_now_add=True)
    bagged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["flight", "table_number", "seat_number"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "bag_number"], name="unique_bag_number"),
        ]
        verbose_name = _("bag")
        verbose_name_plural = _("bags")

    def __str__(self):
        return f"{self.bag_number}: {self.player} {self.chips}"
