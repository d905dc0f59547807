"""Multi-day events (docs/festivals.md): starting flights, each a tournament of its own; the end of a
flight (play stops, the survivors' chips are counted per table and bagged, R6.7); the next day drawn
from every flight's survivors with their bagged chips (R8.1); a floor's elimination ("out, chips to
the winner") for flights run from the console.

Plain functions, one transaction each, audited. The event's prize pool, payout table and places are
reads (``tournaments.flight_selectors``): nothing here stores a prize.
"""

from __future__ import annotations

from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config import text
from config.validators import problem_message
from tables import services as tables_services
from tables.models import Seat, Table

from .. import clock as clockmath
from .. import flight_selectors as fs
from .. import payouts as payoutmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..models import (
    Bag,
    BlindStructure,
    Entry,
    Event,
    Flight,
    Tournament,
    clock_changed,
    lock_tournament,
    tournament_changed,
)
from ..selectors import clock_of, periods_of, registration_open
from .common import MAX_CHIPS, Status, locked
from .entries import bust_entries
from .lifecycle import create_tournament, open_registration
from .prizes import recompute_prizes

MAX_FLIGHTS = 26
MAX_DAYS = 5
ACTIVE = Entry.Status.ACTIVE


def _event_changed(event: Event) -> None:
    """Every screen of the event shows its totals: each of its tournaments hears of the change."""
    for tournament_id in event.flights.values_list("tournament_id", flat=True):
        tournament_changed(tournament_id)


def _whole(value, field: str, minimum: int = 0, maximum: int = MAX_CHIPS) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ValidationError(
            {field: _("Give a whole number from %(min)s to %(max)s.") % {"min": minimum, "max": maximum}}
        )
    return value


def _labels(flights) -> list[str]:
    if not isinstance(flights, (list, tuple)) or not 1 <= len(flights) <= MAX_FLIGHTS:
        raise ValidationError({"flights": _("Name 1 to %(max)s starting flights.") % {"max": MAX_FLIGHTS}})
    labels, seen = [], set()
    for label in flights:
        try:
            label = text.clean_line(str(label), max_length=40)
        except text.TextProblem as exc:
            raise ValidationError({"flights": problem_message(exc)}) from exc
        if not label:
            raise ValidationError({"flights": _("A flight needs a label, e.g. Day 1A.")})
        if label.casefold() in seen:
            raise ValidationError({"flights": _("Two flights are called %(label)s.") % {"label": label}})
        seen.add(label.casefold())
        labels.append(label)
    return labels


def _day_stops(day_stops, days: int, play_levels: int, day_one: tuple[int, int], late_until: int) -> dict:
    """Where each later day that bags (all but the last) stops: ``[{"day", "stop_after_level",
    "stop_at_players"}]``, each later than the day before (a higher level, fewer players)."""
    given = {}
    for item in day_stops or []:
        day = item.get("day") if isinstance(item, dict) else None
        if isinstance(day, bool) or not isinstance(day, int) or not 2 <= day < days:
            raise ValidationError(
                {
                    "day_stops": _("Only days 2 to %(last)s stop and bag; the last day plays to a winner.")
                    % {"last": days - 1}
                }
            )
        given[day] = (
            _whole(item.get("stop_after_level", 0), "day_stops", 0, 500),
            _whole(item.get("stop_at_players", 0), "day_stops", 0, 10_000),
        )
    # A starting flight's number of players is its own, not the day's: only the level compares.
    stops, before = {}, (day_one[0], 0)
    for day in range(2, days):
        after_level, at_players = given.get(day, (0, 0))
        label = _("Day %(day)s") % {"day": day}
        if not after_level and not at_players:
            raise ValidationError(
                {
                    "day_stops": _(
                        "Say where play stops on %(day)s: after a level, or at a number of players."
                    )
                    % {"day": label}
                }
            )
        if after_level and (after_level >= play_levels or (before[0] and after_level <= before[0])):
            raise ValidationError(
                {
                    "day_stops": _(
                        "%(day)s stops after a later level than the day before, and before the last."
                    )
                    % {"day": label}
                }
            )
        if at_players and (at_players < 2 or (before[1] and at_players >= before[1])):
            raise ValidationError(
                {
                    "day_stops": _("%(day)s stops with fewer players than the day before (2 or more).")
                    % {"day": label}
                }
            )
        if day == 2 and late_until and after_level and late_until > after_level:
            raise ValidationError(
                {
                    "late_until_level": _(
                        "Late entries into day 2 must close by the end of level %(level)s, where it stops."
                    )
                    % {"level": after_level}
                }
            )
        stops[day] = (after_level, at_players)
        before = (after_level or before[0], at_players or before[1])
    return stops


@transaction.atomic
def create_event(
    *,
    name: str,
    structure: BlindStructure,
    flights: list[str],
    game: str,
    starting_stack: int,
    betting: str | None = None,
    seats_per_table: int = 8,
    late_registration_until_level: int = 0,
    max_reentries: int = 0,
    buy_in: int = 0,
    fee: int = 0,
    guarantee: int = 0,
    payout_percentages: list | None = None,
    percent_paid: int = 15,
    payout_unit: int = 0,
    stack_rule: str = Event.StackRule.BEST,
    stop_after_level: int = 0,
    stop_at_players: int = 0,
    pays_day1_finishers: bool = False,
    days: int = 2,
    day_stops: list[dict] | None = None,
    late_stack: int = 0,
    late_until_level: int = 0,
    seeding: str = Tournament.Seeding.FRESH,
    actor=None,
) -> Event:
    """An event with its starting flights (registration open in each) and its later days (planned).

    Every flight and day is a tournament with its own copy of ``structure``; they share the
    structure's levels, so a later day resumes the clock at the level the flights stopped at."""
    labels = _labels(flights)
    _whole(days, "days", 2, MAX_DAYS)
    play_levels = structure.levels.filter(is_break=False).count()
    errors = {}
    if not stop_after_level and not stop_at_players:
        errors["stop_after_level"] = _(
            "Say where a flight's play stops: after a level, or at a number of players."
        )
    if stop_after_level and not 1 <= stop_after_level < play_levels:
        errors["stop_after_level"] = _(
            "Play can stop after level 1 to %(max)s: the structure has %(levels)s levels and the next day needs one."
        ) % {"max": play_levels - 1, "levels": play_levels}
    if stop_after_level and late_registration_until_level > stop_after_level:
        errors["late_registration_until_level"] = _(
            "Late registration must close by the end of level %(level)s, where play stops."
        ) % {"level": stop_after_level}
    if stop_at_players and not 2 <= stop_at_players <= 10_000:
        errors["stop_at_players"] = _("Play can stop at 2 to 10,000 players left.")
    if late_stack and not late_until_level:
        errors["late_until_level"] = _("Say until which level the later day takes late entries.")
    if late_until_level and not late_stack:
        errors["late_stack"] = _("Give the stack a late entry on the later day gets.")
    if late_until_level and stop_after_level and late_until_level <= stop_after_level:
        errors["late_until_level"] = _(
            "The later day starts after level %(level)s: its late registration must run past it."
        ) % {"level": stop_after_level}
    if late_until_level and late_until_level > play_levels:
        errors["late_until_level"] = _("The structure has %(levels)s levels.") % {"levels": play_levels}
    stops = _day_stops(day_stops, days, play_levels, (stop_after_level, stop_at_players), late_until_level)
    if stack_rule not in Event.StackRule.values:
        errors["stack_rule"] = _("Choose best or all.")
    if payout_percentages:
        try:
            payoutmath.check_percentages(payout_percentages)
        except payoutmath.PayoutError as exc:
            errors["payout_percentages"] = exc.message
    if errors:
        raise ValidationError(errors)
    event = Event(
        name=name,
        buy_in=buy_in,
        fee=fee,
        guarantee=guarantee,
        payout_percentages=list(payout_percentages or []),
        percent_paid=percent_paid,
        payout_unit=payout_unit,
        stack_rule=stack_rule,
        stop_after_level=stop_after_level,
        stop_at_players=stop_at_players,
        pays_day1_finishers=pays_day1_finishers,
        late_stack=late_stack,
        late_until_level=late_until_level,
    )
    event.full_clean()
    event.save()
    # The flights and days carry no buy-in of their own: the event has the one prize pool.
    common = dict(
        game=game,
        betting=betting or structure.betting,
        seats_per_table=seats_per_table,
        seeding=seeding,
        actor=actor,
    )
    for label in labels:
        tournament = create_tournament(
            structure=structure,
            name=f"{name} · {label}"[:200],
            starting_stack=starting_stack,
            late_registration_until_level=late_registration_until_level,
            max_reentries=max_reentries,
            **common,
        )
        Flight.objects.create(event=event, tournament=tournament, day=1, label=label)
        open_registration(tournament, actor=actor)
    for day in range(2, days + 1):
        label = str(_("Day %(day)s") % {"day": day})
        tournament = create_tournament(
            structure=structure,
            name=f"{name} · {label}"[:200],
            starting_stack=late_stack if day == 2 and late_stack else starting_stack,
            late_registration_until_level=late_until_level if day == 2 else 0,
            **common,
        )
        after_level, at_players = stops.get(day, (0, 0))
        Flight.objects.create(
            event=event,
            tournament=tournament,
            day=day,
            label=label,
            stop_after_level=after_level,
            stop_at_players=at_players,
        )
    record_audit(
        actor,
        AuditAction.EVENT_CREATE,
        f"event:{event.pk} {event.name}",
        data={"flights": labels, "days": days, "stack_rule": stack_rule},
    )
    return event


def _flight(tournament: Tournament) -> Flight:
    flight = Flight.objects.select_related("event", "tournament").filter(tournament_id=tournament.pk).first()
    if flight is None:
        raise StateError(
            _("%(name)s is not part of a multi-day event.") % {"name": tournament}, code="not_a_flight"
        )
    return flight


def _not_mid_hand(tournament: Tournament) -> None:
    busy = Table.objects.filter(tournament=tournament, hand_in_progress=True).order_by("number").first()
    if busy is not None:
        raise StateError(
            _("Table %(table)s is in a hand: wait until it is over.") % {"table": busy.number},
            code="in_a_hand",
        )


@transaction.atomic
def eliminate(entry: Entry, *, by: Entry, actor=None, now: datetime | None = None) -> Entry:
    """The floor's record of a bust played without a tablet: ``entry`` is out and their chips go to
    ``by``, the player who won them at the same table (chips are never lost, R6.7), then the bust is
    placed as any other (R8.8)."""
    tournament = locked(entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    winner = Entry.objects.select_for_update().select_related("player").filter(pk=by.pk).first()
    if winner is None or winner.tournament_id != tournament.pk:
        raise ValidationError({"by": _("The winner must be a player of this tournament.")})
    if winner.pk == entry.pk:
        raise ValidationError({"by": _("A player cannot win their own chips.")})
    for who in (entry, winner):
        if who.status != ACTIVE:
            raise StateError(_("%(entry)s is already out.") % {"entry": who}, code="already_busted")
    flight = Flight.objects.select_related("event").filter(tournament_id=tournament.pk).first()
    if flight is not None and flight.play_stopped_at is not None:
        raise StateError(_("Play has stopped for the day: bag the chips."), code="play_stopped")
    if flight is not None and not fs.is_last_day(flight):
        left = tournament.entries.filter(status=ACTIVE).count()
        target = flight.stops[1]
        if target and left <= target and not registration_open(tournament, now):
            raise StateError(
                _("Play stops at %(count)s players left: stop play and bag the chips.") % {"count": target},
                code="stop_reached",
            )
    seats = {s.entry_id: s for s in Seat.objects.select_related("table").filter(entry__in=[entry, winner])}
    if entry.pk in seats and winner.pk in seats and seats[entry.pk].table_id != seats[winner.pk].table_id:
        raise RuleError(
            _("%(winner)s plays at table %(their)s, not at table %(table)s with %(entry)s.")
            % {
                "winner": winner,
                "their": seats[winner.pk].table.number,
                "table": seats[entry.pk].table.number,
                "entry": entry,
            },
            code="not_same_table",
            field="by",
        )
    for seat in seats.values():
        if seat.table.hand_in_progress:
            raise StateError(
                _("Table %(table)s is in a hand: the hand itself busts the player.")
                % {"table": seat.table.number},
                code="in_a_hand",
            )
    chips = entry.chips
    winner.chips += chips
    entry.chips = 0
    Entry.objects.bulk_update([winner, entry], ["chips"])
    record_audit(
        actor,
        AuditAction.FLIGHT_ELIMINATE,
        entry,
        data={"winner": winner.pk, "chips": chips, "winner_chips": winner.chips},
    )
    bust_entries(tournament, [(entry, max(chips, 1))], actor=actor, hand_label=str(_("console")), now=now)
    if flight is not None:
        _event_changed(flight.event)
    entry.refresh_from_db()
    return entry


@transaction.atomic
def stop_play(tournament: Tournament, *, actor=None, now: datetime | None = None) -> Flight:
    """The end of a day that is not the last: once its stop point is reached (the stop level is over,
    or no more than the event's number of players is left), the clock stops and the floor bags."""
    now = now or timezone.now()
    tournament = locked(tournament)
    flight = _flight(tournament)
    if fs.is_last_day(flight):
        raise StateError(_("The last day plays to a winner: it does not bag."), code="last_day")
    if flight.play_stopped_at is not None:
        raise StateError(_("Play has already stopped for the day."), code="already_stopped")
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(
            _("Play stops only while the flight runs (it is %(status)s).")
            % {"status": tournament.get_status_display()},
            code="wrong_status",
        )
    if registration_open(tournament, now):
        raise StateError(
            _("Late registration is still open: play stops after it closes."), code="registration_open"
        )
    point = fs.stop_point(flight, now)
    if not point["reached"]:
        parts = []
        if point["after_level"]:
            parts.append(str(_("after level %(level)s") % {"level": point["after_level"]}))
        if point["at_players"]:
            parts.append(str(_("at %(count)s players left") % {"count": point["at_players"]}))
        raise StateError(
            _("Play stops %(where)s; now level %(level)s with %(players)s players left.")
            % {
                "where": str(_(" or ")).join(parts),
                "level": point["level"],
                "players": point["players_left"],
            },
            code="stop_not_reached",
            params={k: point[k] for k in ("after_level", "at_players", "level", "players_left")},
        )
    _not_mid_hand(tournament)
    flight.resume_level_index = fs.resume_index(flight, now)
    periods = periods_of(tournament)
    clock = clock_of(tournament)
    if clock.running:
        paused = clockmath.pause(periods, clock, now)
        tournament.level_index = paused.level_index
        tournament.level_started_at = paused.level_started_at
        tournament.paused_at = paused.paused_at
        tournament.remaining_when_paused = paused.remaining_when_paused
    tournament.clock_version += 1
    tournament.save()
    flight.play_stopped_at = now
    flight.save(update_fields=["play_stopped_at", "resume_level_index"])
    record_audit(
        actor,
        AuditAction.FLIGHT_STOP,
        tournament,
        data={
            "players_left": point["players_left"],
            "level": point["level"],
            "resume": flight.resume_level_index,
        },
    )
    clock_changed(tournament.pk)
    _event_changed(flight.event)
    return flight


def _bag_rows(counts) -> list[tuple[int, int, str]]:
    if not isinstance(counts, (list, tuple)) or not counts:
        raise ValidationError({"bags": _("Give every survivor's chips and bag number.")})
    rows = []
    for item in counts:
        entry_id = item.get("entry") if isinstance(item, dict) else None
        if isinstance(entry_id, bool) or not isinstance(entry_id, int):
            raise ValidationError({"bags": _("Each bag names its entry.")})
        chips = item.get("chips")
        if isinstance(chips, bool) or not isinstance(chips, int) or not 1 <= chips <= MAX_CHIPS:
            raise ValidationError(
                {"bags": _("A survivor's count is a whole number from 1 to %(max)s.") % {"max": MAX_CHIPS}}
            )
        try:
            bag = text.clean_line(str(item.get("bag") or ""), max_length=20)
        except text.TextProblem as exc:
            raise ValidationError({"bags": problem_message(exc)}) from exc
        if not bag:
            raise ValidationError({"bags": _("Each survivor's chips go in a numbered bag: give its number.")})
        rows.append((entry_id, chips, bag))
    return rows


@transaction.atomic
def bag_table(
    tournament: Tournament, table_number: int, counts: list[dict], *, actor=None, now: datetime | None = None
) -> list[Bag]:
    """One table's survivors counted and bagged: ``counts`` gives each seated survivor's ``entry``,
    ``chips`` and ``bag`` number. The counts must add up to the chips in play at the table (R6.7: a
    difference means a miscount, and nothing is saved). When the last table is bagged the flight is
    over (its tournament is finished, nobody placed)."""
    now = now or timezone.now()
    tournament = locked(tournament)
    flight = _flight(tournament)
    if flight.play_stopped_at is None:
        raise StateError(_("Stop play before bagging."), code="play_not_stopped")
    if flight.closed_at is not None:
        raise StateError(_("Every table of %(flight)s is bagged.") % {"flight": flight.label}, code="closed")
    rows = _bag_rows(counts)
    table = Table.objects.filter(
        tournament=tournament, number=table_number, status=Table.Status.ACTIVE
    ).first()
    if table is None:
        raise ValidationError(
            {"table": _("No table %(number)s plays in this flight.") % {"number": table_number}}
        )
    seats = {
        s.entry_id: s
        for s in Seat.objects.select_related("entry__player").filter(
            table=table, entry__isnull=False, entry__status=ACTIVE, entry__bag__isnull=True
        )
    }
    if not seats:
        raise StateError(
            _("Table %(number)s is already bagged.") % {"number": table_number}, code="table_bagged"
        )
    given = [entry_id for entry_id, _c, _b in rows]
    if len(set(given)) != len(given):
        raise ValidationError({"bags": _("A survivor is listed twice.")})
    missing = [seats[e].entry for e in seats if e not in given]
    if missing:
        raise ValidationError({"bags": _("%(entry)s at this table has no count.") % {"entry": missing[0]}})
    stray = [e for e in given if e not in seats]
    if stray:
        raise ValidationError(
            {
                "bags": _("Entry %(id)s does not play at table %(table)s.")
                % {"id": stray[0], "table": table_number}
            }
        )
    numbers = [bag for _e, _c, bag in rows]
    if len({n.casefold() for n in numbers}) != len(numbers):
        raise ValidationError({"bags": _("Two survivors cannot share a bag number.")})
    taken = set(flight.bags.values_list("bag_number", flat=True))
    reused = [n for n in numbers if n in taken]
    if reused:
        raise StateError(
            _("Bag %(bag)s is already used in %(flight)s.") % {"bag": reused[0], "flight": flight.label},
            code="bag_number_used",
            field="bags",
        )
    expected = sum(seat.entry.chips for seat in seats.values())
    counted = sum(chips for _e, chips, _b in rows)
    if counted != expected:
        raise RuleError(
            _(
                "The counts at table %(table)s add up to %(counted)s, but %(expected)s chips are in play "
                "there (%(difference)+d): count again (R6.7)."
            )
            % {
                "table": table_number,
                "counted": counted,
                "expected": expected,
                "difference": counted - expected,
            },
            code="count_mismatch",
            field="bags",
            rule="R6.7",
            params={"counted": counted, "expected": expected, "difference": counted - expected},
        )
    bags, changed = [], []
    for entry_id, chips, number in rows:
        seat = seats[entry_id]
        entry = seat.entry
        if entry.chips != chips:
            changed.append({"entry": entry.pk, "before": entry.chips, "after": chips})
            entry.chips = chips
            entry.save(update_fields=["chips"])
        bags.append(
            Bag(
                flight=flight,
                entry=entry,
                player=entry.player,
                chips=chips,
                bag_number=number,
                table_number=table_number,
                seat_number=seat.number,
                bagged_by=actor if getattr(actor, "is_authenticated", False) else None,
            )
        )
    Bag.objects.bulk_create(bags)
    record_audit(
        actor,
        AuditAction.FLIGHT_BAG,
        table,
        data={"table": table_number, "chips": counted, "bags": len(bags), "recounted": changed},
    )
    if not tournament.entries.filter(status=ACTIVE, bag__isnull=True).exists():
        _close(flight, tournament, now, actor)
    tournament_changed(tournament.pk)
    _event_changed(flight.event)
    return bags


def _close(flight: Flight, tournament: Tournament, now: datetime, actor) -> None:
    tournament.status = Status.FINISHED
    tournament.finished_at = now
    tournament.clock_version += 1
    tournament.save(update_fields=["status", "finished_at", "clock_version"])
    flight.closed_at = now
    flight.save(update_fields=["closed_at"])
    record_audit(actor, AuditAction.FLIGHT_CLOSE, tournament, data={"survivors": flight.bags.count()})
    clock_changed(tournament.pk)


@transaction.atomic
def draw_next_day(event: Event, *, actor=None, rng=None, now: datetime | None = None) -> Flight:
    """The next day: every survivor of the day before, with their bagged chips (the best bag, or all
    of them added up, as the event says), drawn to tables at random by the recorded seat draw (R8.1).
    The clock will resume at the level the flights stopped at; registration opens for late entries
    at the event's stack when it offers them."""
    now = now or timezone.now()
    event = Event.objects.select_for_update().get(pk=event.pk)
    day = (
        event.flights.filter(day__gt=1, drawn_at__isnull=True)
        .order_by("day")
        .select_related("tournament")
        .first()
    )
    if day is None:
        raise StateError(_("Every day of %(event)s is drawn.") % {"event": event}, code="all_drawn")
    before = fs.flights_of_day(event, day.day - 1)
    open_flights = [f.label for f in before if f.closed_at is None]
    if open_flights:
        raise StateError(
            _("%(flights)s has not bagged yet: draw %(day)s once every flight has.")
            % {"flights": ", ".join(open_flights), "day": day.label},
            code="flights_open",
        )
    bags = list(
        Bag.objects.filter(flight__in=before, status=Bag.Status.BAGGED)
        .select_related("player")
        .order_by("pk")
    )
    if len({b.player_id for b in bags}) < 2:
        raise StateError(_("Fewer than two players survived: no next day to play."), code="no_field")
    tournament = lock_tournament(day.tournament_id)
    by_player: dict[int, list[Bag]] = {}
    for bag in bags:
        by_player.setdefault(bag.player_id, []).append(bag)
    carried = []
    for player_bags in by_player.values():
        if event.stack_rule == Event.StackRule.ALL:
            chips, kept = sum(b.chips for b in player_bags), player_bags
        else:
            top = max(player_bags, key=lambda b: (b.chips, -b.pk))
            chips, kept = top.chips, [top]
        entry = Entry.objects.create(
            tournament=tournament, player=player_bags[0].player, number=1, chips=chips
        )
        for bag in player_bags:
            bag.status = Bag.Status.CARRIED if bag in kept else Bag.Status.SET_ASIDE
            bag.carried_to = entry
        carried.append(entry)
    Bag.objects.bulk_update(bags, ["status", "carried_to"])
    resume = max((f.resume_level_index or 0) for f in before)
    tournament.level_index = resume
    tournament.status = Status.REGISTERING
    tournament.clock_version += 1
    tournament.save(update_fields=["level_index", "status", "clock_version"])
    tables_services.draw_seats(tournament, rng, actor=actor)
    day.drawn_at = now
    day.save(update_fields=["drawn_at"])
    record_audit(
        actor,
        AuditAction.EVENT_NEXT_DAY,
        tournament,
        data={
            "day": day.day,
            "players": len(carried),
            "chips": sum(e.chips for e in carried),
            "set_aside": [b.pk for b in bags if b.status == Bag.Status.SET_ASIDE],
            "resume_level_index": resume,
        },
    )
    recompute_prizes(tournament)
    clock_changed(tournament.pk)
    _event_changed(event)
    return day
