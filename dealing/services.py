"""Every write of the dealing app: start a hand, apply a tablet's input, end, void or correct a hand.

Each is one transaction that locks the hand (or the table) first; on SQLite the IMMEDIATE
transaction mode serialises writers instead of ``select_for_update``. The one exception: on PostgreSQL
an ordinary input on a hand this process keeps is one statement that checks the hand has not moved on
(``dealing.kept_writes``), and anything else falls back to the transaction. The engine
(``dealing.engine``) decides every rule; this module reads the real state into an engine config,
stores the engine's events, and writes the result back to the tournament and the tables.

Errors are ``DealingError``: ``HandConflict`` (409: the hand or table is not in a state for the
request) or ``HandRuleError`` (422: the request breaks a rule), each with a translated message, a
``code``, the ``rule`` number and, for a stale request, the current state.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config import live
from config.errors import ServiceError
from config.prepared import PreparedQuery, WriteGuard, insert_rows, update_row, update_rows
from dealing.engine import positions as engine_positions
from dealing.engine import seed_commitment, shuffled_deck
from dealing.engine.errors import RuleError as EngineRuleError
from dealing.engine.hand import Hand as EngineHand
from dealing.engine.hand import HandConfig
from tables.models import Seat, Table, table_changed
from tables.services import dealt_in_next_hand, halted_reason, hand_finished, hand_started
from tournaments.audit import AuditAction, record_audit
from tournaments.models import Betting, Entry, Tournament, console_changed, tournament_changed
from tournaments.services import bust_entries, level_for_next_hand

from . import deal_write, eventlog, hand_cache, hand_for_hand, kept_writes, vault
from .messages import engine_message
from .models import Hand, HandEvent
from .seeds import draw_seed

# Engine error codes that mean "not now" (409) rather than "not allowed" (422).
CONFLICT_CODES = {"not_your_turn", "not_waiting", "hand_over"}


class DealingError(ServiceError):
    """A dealer's request that is not possible now (409) or breaks a rule (422)."""


class HandConflict(DealingError):
    status = 409


class HandRuleError(DealingError):
    status = 422


def _user(actor):
    """The user to record, or None for a device or nobody (the device label is kept separately)."""
    return actor if isinstance(actor, AbstractBaseUser) and actor.is_authenticated else None


def _from_engine(error: EngineRuleError) -> DealingError:

    cls = HandConflict if error.code in CONFLICT_CODES else HandRuleError
    return cls(engine_message(error), code=error.code, rule=error.rule, params=error.params)


# ---------------------------------------------------------------- reading a hand


# Read on every input and every table snapshot: their SQL is built once (config.prepared).
_events_of_hand = PreparedQuery(
    lambda hand_id: HandEvent.objects.filter(hand_id=hand_id).select_related("actor").order_by("seq")
)
_locked_hand = PreparedQuery(
    # Lock the hand row only: on PostgreSQL a plain FOR UPDATE would also lock the joined table row.
    lambda pk: (
        Hand.objects.select_for_update(of=("self",)).select_related("table").filter(pk=pk).order_by()[:1]
    )
)
# The running hand of a table with its table row, as the input's lock reads it (without the lock).
_running_hand_of_table = PreparedQuery(
    lambda table_id: (
        Hand.objects.select_related("table")
        .filter(table_id=table_id, status=Hand.Status.RUNNING)
        .order_by("-number")[:1]
    )
)
_EVENTS = connection.ops.quote_name(HandEvent._meta.db_table)
# Read on every deal (a tenth of a big event's inputs): their SQL is built once too.
_tournament_for_deal = PreparedQuery(
    lambda pk: Tournament.objects.select_related("structure").filter(pk=pk).order_by()[:1]
)


def _table_with_tournament(pk):
    """A deal's table under its lock, read with its tournament in the same statement (only the table's
    row locked: a plain FOR UPDATE would lock the tournament's too, which balancing locks first)."""
    return (
        Table.objects.select_for_update(no_key=True, of=("self",))
        .select_related("tournament", "tournament__structure")
        .filter(pk=pk)
        .order_by()
    )


_table_to_deal_at = PreparedQuery(lambda pk: _table_with_tournament(pk)[:1])


_deal_by_action_id = PreparedQuery(
    lambda table_id, client_action_id: (
        HandEvent.objects.filter(hand__table_id=table_id, seq=0, client_action_id=client_action_id)
        .select_related("hand")
        .order_by()[:1]
    )
)
_hand_with_seed = PreparedQuery(
    lambda commitment: Hand.objects.filter(seed_commitment=commitment).only("pk").order_by()[:1]
)
_hand_with_seed_in = PreparedQuery(
    lambda commitment, tournament_id: (
        Hand.objects.filter(seed_commitment=commitment, table__tournament_id=tournament_id)
        .only("pk")
        .order_by()[:1]
    )
)
_last_hand_at = PreparedQuery(lambda table_id: Hand.objects.filter(table_id=table_id).order_by("-number")[:1])
_seated = PreparedQuery(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id, entry__isnull=False)
        .select_related("entry", "entry__player")
        .order_by("number")
    )
)


def event_rows(hand: Hand) -> list[HandEvent]:
    rows = _events_of_hand(hand.pk)
    for row in rows:
        row.hand = hand  # what the related manager would have set: no read of the hand again
    return rows


def _log_figures(hand_id: int, client_action_id: str | None = None) -> tuple[int | None, int]:
    """The hand's last event and how many of its events carry ``client_action_id``: one small read
    of the (hand, seq) index."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MAX(seq), COUNT(CASE WHEN client_action_id = %s THEN 1 END) FROM {_EVENTS} "
            "WHERE hand_id = %s",
            [client_action_id or "", hand_id],
        )
        last, used = cursor.fetchone()
    return last, (used if client_action_id else 0)


def last_seq(hand: Hand) -> int:
    return _log_figures(hand.pk)[0]


def engine_hand(hand: Hand, rows: list[HandEvent] | None = None) -> EngineHand:
    """The engine's hand rebuilt from the stored events (the truth) and the hand's secrets (its seed
    and the dealt cards the log keeps blank). A log that does not replay (an event changed outside
    the service) is refused rather than guessed at."""
    rows = rows if rows is not None else event_rows(hand)
    try:
        return eventlog.rebuild(rows, vault.seed_of(hand), vault.dealt_events(hand))
    except EngineRuleError as error:
        raise HandConflict(
            _("The event log of this hand does not replay (%(error)s): check it with verify_hand %(id)s.")
            % {"error": error, "id": hand.pk},
            code="log_mismatch",
        ) from None


def _is_view(state) -> bool:
    return isinstance(state, dict) and isinstance(state.get("players"), list) and "phase" in state


def public_view(hand: Hand, *, seq: int | None = None) -> dict:
    """The public view of the hand (no seed, deck, burn or unshown hole card), from the cache on the
    hand row; a missing, stale or unreadable cache is rebuilt from the events and stored again.

    ``seq``: the log's last event, when the caller knows it (it just wrote it): no read to check."""
    seq = last_seq(hand) if seq is None else seq
    if _is_view(hand.state) and hand.state_seq == seq:
        return hand.state
    return _refresh_views(hand, seq)["public"]


def public_hand(hand: Hand, *, seq: int | None = None) -> dict:
    """A hand as any screen may see it: the public view (no unshown hole cards, no seed, no deck, no
    burns), its last event number (the tablet's ``expected_seq``) and commitment."""
    view = public_view(hand, seq=seq)
    return {
        "id": hand.pk,
        "number": hand.number,
        "status": hand.status,
        "deal_mode": hand.deal_mode,
        "seq": hand.state_seq,
        "seed_commitment": hand.seed_commitment,
        # Who was dealt in at each seat: a tablet shows a seat's hand data only while the same player
        # sits there (after a move between hands the seat is someone else's).
        "entries": {seat: data["entry"] for seat, data in (hand.seats or {}).items()},
        "state": view,
        # Hand-for-hand: the all-in's run-out waits for the floor's release (R8.6, TDA RP-8F).
        "hold": runout_hold(hand, view=view),
    }


def full_view(hand: Hand) -> dict:
    """The full view (seed, burns, every hole card): for the deck-prep role and finished hands only.
    Callers check who may see it (``dealing.serializers.sees_secrets``)."""
    seq = last_seq(hand)
    state = vault.full_view(hand, seq)
    if _is_view(state):
        return state
    return _refresh_views(hand, seq)["full"]


def snapshot(hand: Hand) -> dict:
    """Both views, ``{"full": ..., "public": ...}`` (the full one holds the secrets)."""
    return {"full": full_view(hand), "public": public_view(hand)}


def _refresh_views(hand: Hand, seq: int) -> dict:
    views = eventlog.snapshot(engine_hand(hand))
    _save_views(hand, views, seq)
    return views


def _save_views(hand: Hand, views: dict, seq: int) -> None:
    update_row(Hand, hand.pk, state=views["public"], state_seq=seq)
    vault.store_full_view(hand, views["full"], seq)
    hand.state, hand.state_seq = views["public"], seq


def deck_of(hand: Hand) -> list[str] | None:
    seed = vault.seed_of(hand)
    return shuffled_deck(seed) if seed is not None else None


# ---------------------------------------------------------------- starting a hand


def _lock_hand(hand_id: int, guard: WriteGuard | None = None) -> Hand:
    """The hand under its lock, with its table; ``guard`` checked in the same read (``GuardFailed``).
    The tournament is read only when it is needed (a run-out under hand-for-hand, a hand's end)."""
    hand = _locked_hand.first_guarded(guard, hand_id)
    if hand is None:
        raise Hand.DoesNotExist(f"hand {hand_id}")
    return hand


def _check_can_deal(tournament, table, last: Hand | None, seated: int | None = None) -> None:
    """``table``: read under its lock just now; ``last``: its last hand (the only one that can run);
    ``seated``: the players seated at it, as just read."""

    status = tournament.status
    if status == Tournament.Status.ON_BREAK:
        raise HandConflict(
            _("The tournament is on a break: no hands until play resumes."), code="on_break", rule="R8.7"
        )
    if status != Tournament.Status.RUNNING:
        raise HandConflict(
            _("The tournament is not running (it is %(status)s).")
            % {"status": tournament.get_status_display()},
            code="not_running",
        )
    # Hand-for-hand pauses the clock but the hands are still dealt (R8.6).
    if tournament.paused_at is not None and not tournament.hand_for_hand:
        raise HandConflict(
            _("The clock is paused: no new hand until it runs again."), code="paused", rule="R8.2"
        )
    if (last is not None and last.status == Hand.Status.RUNNING) or table.hand_in_progress:
        raise HandConflict(
            _("A hand is still running at this table: finish or void it first."), code="hand_running"
        )
    reason = halted_reason(table, current=True, seated_here=seated)
    if reason:
        raise HandConflict(reason, code="table_halted")
    reason = hand_for_hand.waiting_reason(table)
    if reason:
        raise HandConflict(reason, code="hand_for_hand_wait", rule="R8.6")


def _dealt_in(table, seats=None) -> list:
    """The seats dealt into the next hand, in seat order, with their entries. ``seats``: the table's
    seats as the caller read them, in seat order, with their entries (a table snapshot has them)."""

    if seats is None:
        seats = _seated(table.pk)
    return [
        seat
        for seat in seats
        if seat.entry_id is not None
        and seat.entry.status == Entry.Status.ACTIVE
        and seat.entry.chips > 0
        and dealt_in_next_hand(table, seat)
    ]


def _last_hand(table) -> Hand | None:
    return _last_hand_at.first(table.pk)


_UNREAD = object()


def _positions(table, seat_numbers: list[int], last=_UNREAD) -> engine_positions.Positions:
    """Button and blinds by the dead-button rule (R3.5, R3.6), from the table's last hand (``last``,
    when the caller has read it)."""
    last_voided = _last_hand(table) if last is _UNREAD else last
    if last_voided is not None and last_voided.status == Hand.Status.VOIDED:
        # A misdeal is redealt with the same positions when the same players are in.
        config = last_voided.config
        if sorted(s["seat"] for s in config["seats"]) == seat_numbers:
            return engine_positions.Positions(
                config["button_seat"], config["small_blind_seat"], config["big_blind_seat"]
            )
    if table.big_blind_seat is None:
        button = table.button_seat
        if button not in seat_numbers:
            button = secrets.choice(seat_numbers)  # no drawn button: draw one among the players
        return engine_positions.first_hand(seat_numbers, button)
    if last_voided is not None and last_voided.status == Hand.Status.FINISHED:
        previous = last_voided
    else:
        previous = Hand.objects.filter(table=table, status=Hand.Status.FINISHED).order_by("-number").first()
    if previous is not None and previous.config.get("big_blind_seat") == table.big_blind_seat:
        small_blind = previous.config.get("small_blind_seat")
    else:
        # Positions set without a hand here (e.g. by the tables app): the small blind was the player
        # just before the big blind.
        small_blind = engine_positions.previous_seat(seat_numbers, table.big_blind_seat)
    return engine_positions.next_hand(
        seat_numbers,
        button=table.button_seat or table.big_blind_seat,
        big_blind=table.big_blind_seat,
        small_blind=small_blind,
        table_size=table.seats,
    )


def next_hand_positions(table, *, seats=None, last=_UNREAD) -> dict | None:
    """The button and blinds of the next hand at this table (R3.5, R3.6), as the dealer is shown them
    between hands; None when they are not known before the deal (no button drawn yet) or fewer than
    two players would be dealt in. ``seats`` and ``last`` (the table's last hand): what the caller
    has read already (``_dealt_in``, ``_positions``)."""
    seats = [s.number for s in _dealt_in(table, seats)]
    if len(seats) < 2:
        return None
    if table.big_blind_seat is None and table.button_seat not in seats:
        return None  # the first hand's button is drawn when it is dealt
    return _positions(table, seats, last).to_dict()


def _player_labels(seats) -> dict[int, str]:
    labels = {seat.number: str(seat.entry) for seat in seats}
    if len(set(labels.values())) != len(labels):  # two players with one name: add the entry number
        labels = {seat.number: f"{seat.entry} [{seat.entry_id}]" for seat in seats}
    return labels


def build_config(tournament, table, seats, *, deal_mode: str, last=_UNREAD) -> dict:
    """The engine config for the next hand at ``table`` from the real state."""

    level = level_for_next_hand(tournament)  # R8.2
    numbers = [seat.number for seat in seats]
    positions = _positions(table, numbers, last)
    labels = _player_labels(seats)
    fixed = tournament.betting == Betting.FIXED_LIMIT
    # R5.1: the fixed-limit cap is lifted only once the whole tournament is down to two players.
    # Counted only in fixed limit, the one betting it changes.
    players_left = tournament.entries.filter(status=Entry.Status.ACTIVE).count() if fixed else None
    return {
        "game": tournament.game,
        "betting": tournament.betting,
        "seats": [{"seat": s.number, "player": labels[s.number], "stack": s.entry.chips} for s in seats],
        "button_seat": positions.button,
        "small_blind_seat": positions.small_blind,
        "big_blind_seat": positions.big_blind,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante if level.ante_kind != "none" else 0,
        "ante_kind": level.ante_kind,
        "small_bet": level.small_bet if fixed else None,
        "big_bet": level.big_bet if fixed else None,
        "smallest_chip": tournament.smallest_chip or 1,
        "cap_raises": not (fixed and players_left <= 2),
        "deal_mode": deal_mode,
        # An all-in: the dealer turns the hands face up and deals each street on a tap (R6.2).
        "dealer_runout": True,
    }


def _next_number(last: Hand | None) -> int:
    """Hand numbers go on per table within the tournament (``last``: the table's last hand, the one with
    the highest number), so a master-seeded tournament never derives the same seed twice (RULES 7.5).
    A table number is one table's in its tournament (``unique_table_number``), and a table with hands
    is never deleted: its last hand is the last of its number."""
    return (last.number if last is not None else 0) + 1


def _seed_used(commitment: str, tournament_id: int | None = None) -> bool:
    """Whether a hand was ever dealt with this seed commitment (of ``tournament_id`` only, if given)."""
    if tournament_id is None:
        return _hand_with_seed.first(commitment) is not None
    return _hand_with_seed_in.first(commitment, tournament_id) is not None


def _event_rows(
    hand: Hand,
    events: list[dict],
    *,
    start_seq: int,
    actor=None,
    device: str = "",
    client_action_id: str | None = None,
    digest: str = "",
) -> tuple[list[HandEvent], dict[int, dict]]:
    """The log's rows for new events (secrets blanked) and the dealt form of those that hide some
    (their seq -> the event as dealt), for the vault."""
    user = _user(actor)
    rows = []
    dealt = {}
    for offset, event in enumerate(events):
        first = offset == 0
        stored, secret = eventlog.blank(event)
        if secret is not None:
            dealt[start_seq + offset] = secret
        rows.append(
            HandEvent(
                hand=hand,
                seq=start_seq + offset,
                type=event["type"],
                payload=stored,
                actor=user,
                device=device[:100],
                client_action_id=client_action_id if first else None,
                request_digest=digest if first else "",
            )
        )
    return rows, dealt


def _append(hand: Hand, events: list[dict], *, start_seq: int, **recorded) -> list[HandEvent]:
    """Write new events of a running hand: the rows to its log, their dealt secrets to the vault."""
    rows, dealt = _event_rows(hand, events, start_seq=start_seq, **recorded)
    insert_rows(rows)
    vault.add_events(hand, dealt)
    return rows


BLIND_FIELDS = ("small_blind", "big_blind", "ante")


def _check_blinds(config: dict, expected: dict | None) -> None:
    """The blinds a tablet says it shows must be the level's for this hand (R8.2), else 422."""
    if not expected:
        return
    level = {name: config[name] for name in BLIND_FIELDS}
    wrong = {name: value for name, value in expected.items() if level.get(name) != value}
    if wrong:
        raise HandRuleError(
            _(
                "The blinds for this hand are %(small_blind)s/%(big_blind)s, ante %(ante)s (R8.2): "
                "the level has changed since the tablet showed it."
            )
            % level,
            code="blinds_mismatch",
            rule="R8.2",
            params={**level, "sent": dict(expected)},
        )


def start_next_hand(
    table,
    *,
    actor=None,
    device: str = "",
    deal_mode: str | None = None,
    client_action_id: str | None = None,
    expected_blinds: dict | None = None,
    guard: WriteGuard | None = None,
) -> Hand:
    """Deal the next hand at ``table`` from the real state of the tournament and the table.

    With a ``client_action_id`` already used to start a hand at this table, that hand is returned
    and nothing is dealt (a double tap or a retry after a lost response); ``hand.replayed`` says which.
    ``expected_blinds`` (small_blind, big_blind, ante, any of them): the hand is dealt only if they
    are the level's (R8.2), else 422 ``blinds_mismatch``. ``guard`` (the caller's permission, as SQL:
    the tablet's device still paired): checked in the read that locks the table, else ``GuardFailed``
    and nothing dealt."""

    with transaction.atomic():
        pk = table.pk
        table = _table_to_deal_at.first_guarded(guard, pk)  # GuardFailed: nothing dealt
        if table is None:
            raise Table.DoesNotExist(f"table {pk}")
        if client_action_id:
            started = _deal_by_action_id.first(table.pk, client_action_id)
            if started is not None:
                if deal_mode is not None and deal_mode != started.hand.deal_mode:
                    raise HandRuleError(
                        _("client_action_id %(id)s already dealt a hand with another deal mode.")
                        % {"id": client_action_id},
                        code="client_action_id_reused",
                        params={"client_action_id": client_action_id},
                    )
                _check_blinds(started.hand.config, expected_blinds)
                started.hand.replayed = True
                return started.hand
        tournament = table.tournament
        last = _last_hand(table)
        seated = _seated(table.pk)
        _check_can_deal(tournament, table, last, len(seated))
        seats = _dealt_in(table, seated)
        if len(seats) < 2:
            raise HandConflict(
                _("A hand needs at least two players with chips at the table (R2.7)."),
                code="too_few_players",
                rule="R2.7",
                params={"players": len(seats)},
            )
        if deal_mode is None:
            deal_mode = last.deal_mode if last is not None else Hand.DealMode.SEEDED
        if deal_mode not in Hand.DealMode.values:
            raise HandRuleError(_("deal_mode must be 'seeded' or 'entered'."), code="bad_deal_mode")
        config = build_config(tournament, table, seats, deal_mode=deal_mode, last=last)
        _check_blinds(config, expected_blinds)
        number = _next_number(last)
        seed = None
        commitment = ""
        if deal_mode == Hand.DealMode.SEEDED:
            seed = draw_seed(tournament, table.number, number)
            commitment = seed_commitment(seed)
            # Seeds are never reused (RULES 7.5). A master seed derives one seed per table and hand
            # number (a rehearsal replayed in a new tournament deals the same hands, on purpose);
            # a fresh seed that ever collides is drawn again.
            if tournament.seeding == Tournament.Seeding.MASTER:
                if _seed_used(commitment, tournament.pk):
                    raise HandConflict(_("This hand's seed was already used."), code="seed_reused")
            else:
                while _seed_used(commitment):
                    seed = secrets.token_bytes(32)
                    commitment = seed_commitment(seed)
        try:
            engine = EngineHand.start(HandConfig.from_dict(config), seed)
        except EngineRuleError as error:
            raise _from_engine(error) from None
        user = _user(actor)
        seq = len(engine.events) - 1
        views = eventlog.snapshot(engine)
        # The commitment is stored with the hand, before any card is shown to anyone (RULES 7.6); the
        # hand is written once with its public view, its secrets once with their full view.
        hand = Hand(
            table=table,
            number=number,
            config=config,
            deal_mode=deal_mode,
            seed_commitment=commitment,
            status=Hand.Status.RUNNING,
            started_by=user,
            seats={str(s.number): {"entry": s.entry_id, "chips": s.entry.chips} for s in seats},
            state=views["public"],
            state_seq=seq,
        )
        rows, dealt = _event_rows(
            hand,
            engine.events,
            start_seq=0,
            actor=actor,
            device=device,
            digest="start",
            client_action_id=client_action_id or None,
        )
        # The seed, the dealt cards and the full view: the deck-prep role only (RULES 7.6).
        if deal_write.usable():  # the same writes in one statement (one round trip)
            secret = vault.new_secret(seed, dealt=dealt, full_view=views["full"], seq=seq)
            bumped = not live.changed_in_this_transaction(live.table_group(table.pk))
            version = deal_write.deal(hand, secret, rows, bump=bumped)
            table.hand_in_progress = True
            table_changed(table.pk, version=version if bumped else None)
        else:
            insert_rows([hand])
            vault.create(hand, seed, dealt=dealt, full_view=views["full"], seq=seq)
            for row in rows:
                row.hand_id = hand.pk
            insert_rows(rows)
            hand_started(table, halt_checked=True, locked=True, savepoint=False)
            table_changed(table.pk)
        if engine.done:  # everybody all-in on the blinds: the hand plays itself out
            _finish(hand, engine, actor=actor)
        else:
            hand_cache.keep_after_commit(
                hand.pk,
                seq,
                engine,
                hand.table_id,
                {client_action_id} if client_action_id else set(),
                copy.copy(hand),
            )
        hand.replayed = False
        return hand


def _store_snapshot(hand: Hand, engine: EngineHand, seq: int) -> None:
    _save_views(hand, eventlog.snapshot(engine), seq)


def _store_public_view(hand: Hand, engine: EngineHand, seq: int) -> None:
    """After an input in the middle of a hand: only the public view, which every screen reads. The
    full one (the deck-prep role's, rare) is left behind and rebuilt from the events when asked for
    (``full_view``): an input then computes, encodes and writes one view, not two."""
    public = engine.view(public=True)
    update_row(Hand, hand.pk, state=public, state_seq=seq)
    hand.state, hand.state_seq = public, seq


# ---------------------------------------------------------------- inputs from the tablet


INPUT_FIELDS = ("type", "seat", "action", "amount", "cards")
# Inputs that deal or enter the run-out's board cards: under hand-for-hand they wait for the floor.
RUNOUT_DEALS = ("deal", "board")


def runout_hold(hand: Hand, rows: list[HandEvent] | None = None, view: dict | None = None) -> str:
    """Hand-for-hand (R8.6, TDA RP-8F): why the board of this hand's all-in run-out waits, or "".

    It waits from the moment betting closes with an all-in until the floor releases it from the
    console (a ``release`` event in the hand's log)."""
    if hand.status != Hand.Status.RUNNING:
        return ""
    view = view if view is not None else public_view(hand)
    if not view.get("runout") or view.get("phase") not in ("board", "face_up", "show"):
        return ""
    # Only now the tournament (not read with each input: most inputs are no all-in's run-out).
    if not hand.table.tournament.hand_for_hand:
        return ""
    rows = rows if rows is not None else event_rows(hand)
    if eventlog.released(rows):
        return ""
    return str(_("Hand-for-hand: waiting for the floor to release the run-out (R8.6)."))


def request_digest(body: dict) -> str:
    """What a retried request must repeat exactly: the input itself (not the expected_seq)."""
    canonical = {name: body.get(name) for name in INPUT_FIELDS if body.get(name) is not None}
    canonical.setdefault("type", "action")
    return hashlib.sha256(json.dumps(canonical, sort_keys=True).encode()).hexdigest()


@dataclass
class ActionResult:
    hand: Hand
    first_seq: int
    last_seq: int
    replayed: bool = False  # True: a retry answered from the log, nothing new happened
    events: list = field(default_factory=list)


def _group_end(rows: list[HandEvent], first_seq: int) -> int:
    """The last seq of the event group that starts at ``first_seq``."""
    end = first_seq
    for row in rows:
        if row.seq <= first_seq:
            continue
        if row.request_digest:
            break
        end = row.seq
    return end


def apply_input(
    hand: Hand,
    body: dict,
    *,
    expected_seq: int,
    client_action_id: str | None = None,
    actor=None,
    device: str = "",
    guard: WriteGuard | None = None,
) -> ActionResult:
    """Apply one tablet input (a betting action, entered board cards, a hand shown or mucked).

    A retry with a known ``client_action_id`` gets the original result and writes nothing; the same
    id with another input is refused (422). A stale ``expected_seq`` is refused (409) with the state.
    With a ``guard`` (the caller's permission, as SQL: the tablet's device still paired), the input is
    decided only while it holds, checked in the write's own statement or under the hand's lock; else
    ``GuardFailed`` and nothing written.
    """
    digest = request_digest(body)
    recorded = dict(actor=actor, device=device, client_action_id=client_action_id or None, digest=digest)
    if kept_writes.usable():
        result = _apply_to_kept_hand(hand.pk, body, expected_seq, recorded, guard)
        if result is not None:
            return result
    with transaction.atomic():
        hand = _lock_hand(hand.pk, guard)
        # A running hand's last event is its row's state_seq (every writer of its log stores the view in
        # the same transaction, read here under the lock). Kept at that event, with this id not among
        # its inputs': current, and no retry. Else the log's last event and whether the id was used.
        kept = hand_cache.take(hand.pk, hand.state_seq) if hand.status == Hand.Status.RUNNING else None
        if kept is not None and client_action_id not in kept.action_ids:
            current, used = kept.seq, 0
        else:
            current, used = _log_figures(hand.pk, client_action_id)
        if used:
            original = HandEvent.objects.filter(hand=hand, client_action_id=client_action_id).first()
            if original is not None:
                if original.request_digest != digest:
                    raise HandRuleError(
                        _("client_action_id %(id)s was already used for a different action.")
                        % {"id": client_action_id},
                        code="client_action_id_reused",
                        params={"client_action_id": client_action_id},
                    )
                rows = event_rows(hand)
                end = _group_end(rows, original.seq)
                return ActionResult(
                    hand,
                    original.seq,
                    end,
                    replayed=True,
                    events=[r for r in rows if original.seq <= r.seq <= end],
                )
        if hand.status != Hand.Status.RUNNING:
            raise HandConflict(
                _("This hand is %(status)s: nothing more can be done in it.")
                % {"status": hand.get_status_display()},
                code="hand_over",
            )
        if expected_seq != current:
            raise HandConflict(
                _(
                    "The hand has moved on: you expected event %(expected)s but the last is %(current)s. "
                    "Reload and try again."
                )
                % {"expected": expected_seq, "current": current},
                code="stale",
                params={"expected_seq": expected_seq, "seq": current},
                extra={"seq": current},
            )
        if kept is not None and kept.seq == current:
            engine, action_ids = kept.engine, kept.action_ids
        else:
            rows = event_rows(hand)
            engine = engine_hand(hand, rows)
            action_ids = {row.client_action_id for row in rows if row.client_action_id}
        if body.get("type") in RUNOUT_DEALS and engine.runout:
            hold = runout_hold(hand, view=engine.view(public=True))
            if hold:
                raise HandConflict(hold, code="awaiting_floor", rule="R8.6")
        before = len(engine.events)
        try:
            engine.apply_input(body)
        except EngineRuleError as error:
            raise _from_engine(error) from None
        return _record_input(hand, engine, before, current, action_ids, recorded)


def _apply_to_kept_hand(
    hand_id: int, body: dict, expected_seq: int, recorded: dict, guard: WriteGuard | None = None
) -> ActionResult | None:
    """An input on a hand this process keeps at the very event the tablet expects, without the hand's
    lock: written in one statement that checks the hand has not moved on (``dealing.kept_writes``),
    or, when the input ends the hand or starts a run-out, in a transaction under the lock.

    None, with nothing written, whenever ``apply_input``'s transaction must decide instead, on the
    hand as stored: no hand kept at that event, a retry of a known input, a run-out's deal (the
    floor may hold it, R8.6), an input the engine refuses (the hand kept may be behind the stored one:
    the answer could be 409 rather than 422), or a hand another writer has moved on, or a ``guard``
    that no longer holds (the transaction checks it again and says so)."""
    kept = hand_cache.take_current(hand_id, expected_seq, recorded["client_action_id"])
    if kept is None:
        return None
    engine, hand = kept.engine, kept.hand
    if body.get("type") in RUNOUT_DEALS and engine.runout:
        hand_cache.put_back(hand_id, kept)
        return None
    before = len(engine.events)
    try:
        engine.apply_input(body)
    except EngineRuleError:
        return None  # the engine may be half changed: dropped, and the hand rebuilt from its log
    if engine.done or engine.runout:
        with transaction.atomic():
            locked = _lock_hand(hand_id, guard)
            if locked.status != Hand.Status.RUNNING or locked.state_seq != expected_seq:
                return None
            return _record_input(locked, engine, before, expected_seq, kept.action_ids, recorded)
    rows, dealt = _event_rows(hand, engine.events[before:], start_seq=expected_seq + 1, **recorded)
    public = engine.view(public=True)
    version = kept_writes.append(hand, rows, dealt, state=public, kept_seq=expected_seq, guard=guard)
    if version is None:
        return None
    end = expected_seq + len(rows)
    hand.state, hand.state_seq = public, end
    table_changed(hand.table_id, patch=lambda v: _hand_patch(hand, end, v), version=version)
    _keep(hand, engine, end, kept.action_ids, recorded["client_action_id"])
    return ActionResult(hand, expected_seq + 1, end, events=rows)


def keep_running_hand(table_id: int) -> bool:
    """Keep the running hand of ``table_id`` in this process (``dealing.hand_cache``), rebuilt from its
    log, unless one is kept already. A tablet's socket asks this as it connects: after a server
    restarts, every table's next input would otherwise rebuild its hand on the dealers' thread, and
    a full room's first inputs queue behind each other: at 1,250 tables and 250 inputs a second
    from the moment the sockets are open (tests/bench/load_event.py --rates 250,500), answer p99
    1.4-1.8 s without this and 58-85 ms with it.

    Reads only, no lock: the events up to the hand row's ``state_seq`` never change, and an input uses
    the kept hand only while the row is still at that event. True if the hand is kept."""
    hand = _running_hand_of_table.first(table_id)
    if hand is None:
        return False
    if hand_cache.table_of(hand.pk) is not None:
        return True  # an input of this server keeps it (at its own event)
    rows = [row for row in event_rows(hand) if row.seq <= hand.state_seq]
    if not rows or rows[-1].seq != hand.state_seq:
        return False  # a log that does not end at its view's event: the input's transaction decides
    try:
        engine = engine_hand(hand, rows)
    except HandConflict:  # a log that does not replay: the input says so
        return False
    action_ids = {row.client_action_id for row in rows if row.client_action_id}
    return hand_cache.keep_unless_kept(hand.pk, hand.state_seq, engine, hand.table_id, action_ids, hand)


def _keep(hand: Hand, engine: EngineHand, end: int, action_ids: set[str], client_action_id) -> None:
    """Keep the hand after this input (its engine, its inputs' ids, its row). The row is kept as a
    copy: the caller's is answered from, while the next input may already change the kept one."""
    if client_action_id:
        action_ids.add(client_action_id)
    hand_cache.keep_after_commit(hand.pk, end, engine, hand.table_id, action_ids, copy.copy(hand))


def _record_input(
    hand: Hand, engine: EngineHand, before: int, current: int, action_ids: set[str], recorded: dict
) -> ActionResult:
    """Store what an input added to ``engine`` (its events from index ``before``, after event
    ``current``) on ``hand``, locked in this transaction, and what follows from it."""
    new_rows = _append(hand, engine.events[before:], start_seq=current + 1, **recorded)
    end = current + len(new_rows)
    if not engine.done:  # a finished hand's views are stored with its end (_finish)
        _store_public_view(hand, engine, end)
    if not engine.done:
        # Only the hand moved on: its tablet's servers patch the table's last snapshot with it.
        # (A hand's end announces its table in _finish, after the tournament's lock: bumping the
        # table's version first would lock the table row before the tournament, the reverse of
        # balancing's order, and the two deadlock.)
        table_changed(hand.table_id, patch=lambda version: _hand_patch(hand, end, version))
    if engine.done:
        _finish(hand, engine, actor=recorded["actor"], seq=end)
    else:
        _keep(hand, engine, end, action_ids, recorded["client_action_id"])
    if engine.runout:
        # The director console shows the all-ins and their equity street by street (nothing else
        # does). After the hand's end: a bust's change of the tournament rebuilds the console already.
        console_changed(hand.table.tournament_id)
    return ActionResult(hand, current + 1, end, events=new_rows)


def _hand_patch(hand: Hand, seq: int, table_version: int) -> dict:
    """What a table's snapshot changes to after an input in the middle of a hand (``config.live``)."""
    return {"table_version": table_version, "hand": public_hand(hand, seq=seq)}


# ---------------------------------------------------------------- the end of a hand


def _finish(hand: Hand, engine: EngineHand, *, actor=None, seq: int | None = None) -> None:
    """Stacks back to the entries, busts with places, the table's positions and moves, the seed
    revealed. Runs inside the transaction of the input that ended the hand. ``seq``: the hand's last
    event, when its views (a finished hand's full view is everyone's) are stored with its end, in
    the same write of its row."""

    table = hand.table
    if not Table.tournament.is_cached(table):
        table.tournament = _tournament_for_deal.first(table.tournament_id)
    stacks = engine.stacks()
    entry_ids = {int(seat): data["entry"] for seat, data in hand.seats.items()}
    # One statement, which also locks the entries' rows; the busted ones are read by the bust.
    update_rows(Entry, "chips", {entry_id: stacks[seat] for seat, entry_id in entry_ids.items()})
    busts = [
        (entry_id, hand.seats[str(seat)]["chips"])
        for seat, entry_id in sorted(entry_ids.items())
        if stacks[seat] == 0
    ]
    hand.status = Hand.Status.FINISHED
    hand.finished_at = timezone.now()
    hand.result = engine.result()
    ended = {"status": hand.status, "finished_at": hand.finished_at, "result": hand.result}
    if seq is not None:
        views = eventlog.snapshot(engine)
        vault.store_full_view(hand, views["full"], seq)
        hand.state, hand.state_seq = views["public"], seq
        ended.update(state=hand.state, state_seq=seq)
    update_row(Hand, hand.pk, **ended)
    if busts:  # R8.8 places, R8.6 ranking by chips at the start of the hand
        bust_entries(table.tournament, busts, actor=actor, hand_label=hand.label, savepoint=False)
    config = hand.config
    hand_finished(
        table,
        button_seat=config["button_seat"],
        big_blind_seat=config["big_blind_seat"],
        busted=bool(busts),
        actor=actor,
        savepoint=False,
        balance_after_commit=True,
    )
    table_changed(table.pk)
    tournament = table.tournament
    if tournament.hand_for_hand:
        transaction.on_commit(lambda: hand_for_hand.close_round_after_commit(tournament.pk))


# ---------------------------------------------------------------- corrections by the floor


def release_runout(hand: Hand, *, actor, device: str = "") -> Hand:
    """Hand-for-hand (R8.6, TDA RP-8F): the floor lets the table deal its all-in's run-out.

    Appends a ``release`` event (the floor's, not the engine's); releasing twice writes nothing more.
    A hand with no all-in run-out is 409."""
    with transaction.atomic():
        hand = _lock_hand(hand.pk)
        if hand.status != Hand.Status.RUNNING:
            raise HandConflict(_("This hand is over: there is no run-out to release."), code="hand_over")
        rows = event_rows(hand)
        engine = engine_hand(hand, rows)
        if not engine.runout:
            raise HandConflict(
                _("This hand has no all-in run-out to release: betting is still open."),
                code="no_runout",
                rule="R8.6",
            )
        if eventlog.released(rows):
            return hand
        current = rows[-1].seq
        HandEvent.objects.create(
            hand=hand,
            seq=current + 1,
            type=eventlog.RELEASE,
            payload={"street": engine.deal_next or engine.view()["street"]},
            actor=_user(actor),
            device=device[:100],
            request_digest="release",
        )
        _store_snapshot(hand, engine, current + 1)
        table_changed(hand.table_id)
        tournament_changed(hand.table.tournament_id)
        return hand


def _record_audit(actor, action: AuditAction, hand: Hand, reason: str, data: dict) -> None:
    record_audit(actor, action, hand, reason, data, tournament=hand.table.tournament)


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise HandRuleError(
            _("Give the reason for the correction."), code="reason_required", params={"field": "reason"}
        )
    return reason


def void_hand(hand: Hand, *, actor, reason: str, device: str = "", expected_seq: int | None = None) -> Hand:
    """A misdeal: the hand in progress is voided and every chip goes back where it was at the start
    (the entries' chips were never changed while it ran). The table keeps its positions, so the
    redeal has the same button and blinds. With ``expected_seq`` (the console's floor page), a hand
    that has moved on since the page was shown is not voided (409)."""

    reason = _require_reason(reason)
    with transaction.atomic():
        hand = _lock_hand(hand.pk)
        if hand.status != Hand.Status.RUNNING:
            raise HandConflict(_("Only a hand in progress can be voided."), code="hand_over")
        current = last_seq(hand)
        if expected_seq is not None and expected_seq != current:
            raise HandConflict(
                _("The hand has moved on: reload before voiding it."),
                code="stale",
                params={"expected_seq": expected_seq, "seq": current},
                extra={"seq": current},
            )
        seq = current + 1
        user = _user(actor)
        HandEvent.objects.create(
            hand=hand,
            seq=seq,
            type=eventlog.VOID,
            payload={"reason": reason},
            actor=user,
            device=device[:100],
            request_digest="void",
        )
        hand.status = Hand.Status.VOIDED
        hand.finished_at = timezone.now()
        hand.save(update_fields=["status", "finished_at"])
        table = hand.table
        hand_finished(
            table,
            button_seat=table.button_seat,
            big_blind_seat=table.big_blind_seat,
            actor=actor,
            savepoint=False,
        )
        _record_audit(actor, AuditAction.HAND_VOID, hand, reason, {"hand": hand.label, "seq": seq})
        table_changed(table.pk)
        return hand


def last_input(hand: Hand, rows: list[HandEvent] | None = None) -> HandEvent | None:
    """The input a correction would take back: the last one of the hand not already taken back."""
    rows = rows if rows is not None else event_rows(hand)
    retracted = eventlog.retracted_seqs(rows)
    inputs = [
        r for r in rows if r.request_digest and r.type in eventlog.INPUT_TYPES and r.seq not in retracted
    ]
    return inputs[-1] if inputs else None


def correct_last_action(hand: Hand, *, actor, reason: str, expected_seq: int, device: str = "") -> Hand:
    """Take back the last input of a hand in progress (a mistaken action or card entry) before any
    further action: its events are retracted by a correction event and the hand continues from the
    state before it."""
    reason = _require_reason(reason)
    with transaction.atomic():
        hand = _lock_hand(hand.pk)
        if hand.status != Hand.Status.RUNNING:
            raise HandConflict(_("Only a hand in progress can be corrected."), code="hand_over")
        current = last_seq(hand)
        if expected_seq != current:
            raise HandConflict(
                _("The hand has moved on: reload before correcting."),
                code="stale",
                params={"expected_seq": expected_seq, "seq": current},
                extra={"seq": current},
            )
        rows = event_rows(hand)
        retracted = eventlog.retracted_seqs(rows)
        first = last_input(hand, rows)
        if first is None:
            raise HandConflict(_("There is no action to correct in this hand."), code="nothing_to_correct")
        end = _group_end(rows, first.seq)
        retracts = [r.seq for r in rows if first.seq <= r.seq <= end and r.seq not in retracted]
        user = _user(actor)
        HandEvent.objects.create(
            hand=hand,
            seq=current + 1,
            type=eventlog.CORRECTION,
            payload={"retracts": retracts, "reason": reason, "input": eventlog.input_of(first.payload)},
            actor=user,
            device=device[:100],
            request_digest="correction",
        )
        rows = event_rows(hand)
        engine = engine_hand(hand, rows)
        _store_snapshot(hand, engine, current + 1)
        _record_audit(
            actor,
            AuditAction.HAND_CORRECT,
            hand,
            reason,
            {"hand": hand.label, "retracted": retracts, "input": eventlog.input_of(first.payload)},
        )
        table_changed(hand.table_id)
        return hand
