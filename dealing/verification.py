"""Check a finished hand against its revealed seed (RULES section 7).

For each hand: the seed matches the commitment stored before the deal; with a master seed, the seed
is the one derived for this table and hand; then the deck is recomputed from the seed and the stored
events are replayed through the engine, comparing every event: every dealt card (hole cards, board,
burns), every action, every award and the final stacks. A mismatch is reported with the event's
sequence number and both versions, and replay goes on so that every tampered event is named.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from dealing.engine import hand_seed, seed_commitment, shuffled_deck
from dealing.engine.errors import RuleError as EngineRuleError
from dealing.engine.hand import Hand as EngineHand
from dealing.engine.hand import HandConfig

from . import eventlog, vault
from .models import Hand, HandEvent
from .seeds import master_seed_of

DEALT = ("hole", "board", "show")
AWARDS = ("award", "end", "return")


@dataclass
class Check:
    name: str
    ok: bool
    detail: str

    def to_dict(self) -> dict:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass
class HandReport:
    hand_id: int
    label: str
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append(Check(name, ok, detail))

    def to_dict(self) -> dict:
        return {
            "hand": self.hand_id,
            "label": self.label,
            "ok": self.ok,
            "checks": [check.to_dict() for check in self.checks],
        }

    def lines(self) -> list[str]:
        out = [
            _("Hand %(label)s (id %(id)s): %(verdict)s")
            % {"label": self.label, "id": self.hand_id, "verdict": "OK" if self.ok else "MISMATCH"}
        ]
        out += [f"  {'ok  ' if c.ok else 'FAIL'} {c.name}: {c.detail}" for c in self.checks]
        return out


def _kind(event_type: str) -> str:
    if event_type in DEALT:
        return "dealt cards"
    if event_type in AWARDS:
        return "award"
    return "event"


def verify_hand(hand: Hand) -> HandReport:
    table = hand.table
    report = HandReport(hand.pk, hand.label)
    if hand.status == Hand.Status.RUNNING:
        report.add("hand over", False, _("the hand is still running: its seed is secret until it is over"))
        return report
    seed = vault.seed_of(hand)
    dealt = vault.dealt_events(hand)
    if hand.deal_mode == Hand.DealMode.SEEDED:
        if seed is None:
            report.add("seed", False, _("a seeded hand has no stored seed"))
            return report
        actual = seed_commitment(seed)
        report.add(
            "commitment",
            actual == hand.seed_commitment,
            _("SHA-256(seed) = %(actual)s, commitment stored before the deal = %(stored)s")
            % {"actual": actual, "stored": hand.seed_commitment},
        )
        master = master_seed_of(table.tournament)
        if master is not None:
            expected = hand_seed(master, table.number, hand.number)
            report.add(
                "master seed",
                expected == seed,
                (
                    _("the seed is HMAC(master seed, 'table:%(table)s:hand:%(hand)s')")
                    if expected == seed
                    else _("the seed is NOT HMAC(master seed, 'table:%(table)s:hand:%(hand)s')")
                )
                % {"table": table.number, "hand": hand.number},
            )
    else:
        report.add("deal mode", True, _("cards were entered by the dealer: no seed, the events are replayed"))

    rows = list(HandEvent.objects.filter(hand=hand).order_by("seq"))
    for row in rows:  # the dealt cards the log keeps blank, put back from the hand's secrets
        _check_blank(row, dealt, report)
        row.payload = vault.dealt_payload(row, dealt)
    retracted = eventlog.retracted_seqs(rows)
    recorded = [r for r in rows if r.type not in eventlog.FLOOR_EVENTS and r.seq not in retracted]
    if not recorded or recorded[0].type != "start":
        report.add("events", False, _("the event log does not begin with the start event"))
        return report
    config = recorded[0].payload.get("config")
    report.add(
        "config",
        config == hand.config,
        _("the start event's config is the hand's config")
        if config == hand.config
        else _("the start event's config differs from the hand's config"),
    )
    try:
        engine = EngineHand.start(HandConfig.from_dict(config), seed)
    except (EngineRuleError, TypeError, ValueError) as error:
        report.add(
            "replay",
            False,
            _("the hand cannot be dealt again from its config and seed: %(error)s") % {"error": error},
        )
        return report

    mismatches = {"dealt cards": 0, "award": 0, "event": 0}
    counted = {"dealt cards": 0, "award": 0, "event": 0}
    expected_start = eventlog.stored_payload(engine.events[0])
    if recorded[0].payload != expected_start:
        report.add("event 0", False, _("the start event was changed"))
    for index, row in enumerate(recorded[1:], start=1):
        if index >= len(engine.events):
            if row.type not in eventlog.INPUT_TYPES:
                report.add(
                    f"event {row.seq}",
                    False,
                    _("recorded %(type)s %(payload)s does not follow: the engine waits for an input")
                    % {"type": row.type, "payload": row.payload},
                )
                mismatches[_kind(row.type)] += 1
                break
            try:
                engine.apply_input(eventlog.input_of(row.payload))
            except (EngineRuleError, ValueError) as error:
                report.add(
                    f"event {row.seq}",
                    False,
                    _("recorded %(type)s %(payload)s is not legal here: %(error)s")
                    % {"type": row.type, "payload": row.payload, "error": error},
                )
                mismatches["event"] += 1
                break
        replayed = engine.events[index]
        kind = _kind(row.type)
        counted[kind] += 1
        if replayed != row.payload:
            mismatches[kind] += 1
            report.add(
                f"event {row.seq}",
                False,
                _("%(kind)s differ: recorded %(recorded)s, replayed %(replayed)s")
                % {"kind": kind, "recorded": row.payload, "replayed": replayed},
            )
    else:
        if len(engine.events) > len(recorded):
            report.add(
                "events",
                False,
                _("the log stops early: the engine goes on with %(event)s")
                % {"event": engine.events[len(recorded)]},
            )
    _check_taken_back(rows, seed, report)
    if seed is not None:
        deck = shuffled_deck(seed)
        dealt = engine.view(public=False)
        used = [c for p in dealt["players"] for c in (p["cards"] or [])] + dealt["board"] + dealt["burns"]
        report.add(
            "deck",
            set(used) <= set(deck) and mismatches["dealt cards"] == 0,
            _(
                "%(events)s dealing events checked against the deck from the seed (%(cards)s cards), "
                "%(differ)s differ"
            )
            % {"events": counted["dealt cards"], "cards": len(used), "differ": mismatches["dealt cards"]},
        )
    report.add(
        "awards",
        mismatches["award"] == 0,
        _("%(events)s award and stack events replayed, %(differ)s differ")
        % {"events": counted["award"], "differ": mismatches["award"]},
    )
    if hand.status == Hand.Status.FINISHED:
        same = engine.done and engine.result() == hand.result
        report.add(
            "result",
            same,
            _("the stored result is the replayed result")
            if same
            else _("the stored result differs from the replayed one"),
        )
    elif hand.status == Hand.Status.VOIDED:
        report.add(
            "voided", rows[-1].type == eventlog.VOID, _("the hand was voided (misdeal): no chips moved")
        )
    return report


def _check_blank(row, dealt: dict, report: HandReport) -> None:
    """The log's copy of a secret event must be the blanked form of the event as dealt (so the two
    halves cannot disagree), and the log holds no secret of its own."""
    secret = dealt.get(str(row.seq))
    stored, hidden = eventlog.blank(secret if secret is not None else row.payload)
    if row.payload != stored or (secret is not None and hidden is None):
        report.add(
            f"event {row.seq}",
            False,
            _("the event log's copy %(stored)s is not the blanked form of the event as dealt")
            % {"stored": row.payload},
        )


def _check_taken_back(rows: list, seed: bytes | None, report: HandReport) -> None:
    """Events a floor correction took back stay in the log: each group must still be what the engine
    made of that input at that point (the cards it dealt come from the same deck), so nobody can
    rewrite history behind a correction."""
    for correction in (r for r in rows if r.type == eventlog.CORRECTION):
        group = set(correction.payload.get("retracts", []))
        taken_back = [r for r in rows if r.seq in group]
        if not taken_back:
            continue
        before = [r for r in rows if r.seq < taken_back[0].seq]
        try:
            engine = eventlog.rebuild(before, seed)
            known = len(engine.events)
            engine.apply_input(eventlog.input_of(taken_back[0].payload))
        except (EngineRuleError, ValueError, KeyError) as error:
            report.add(
                f"event {taken_back[0].seq}",
                False,
                _("the input taken back by the correction at event %(seq)s is not legal there: %(error)s")
                % {"seq": correction.seq, "error": error},
            )
            continue
        same = engine.events[known:] == [r.payload for r in taken_back]
        report.add(
            f"correction {correction.seq}",
            same,
            _("the %(count)s events it took back replay as recorded") % {"count": len(taken_back)}
            if same
            else _("the events it took back differ from what the engine makes of that input"),
        )


@dataclass
class TournamentReport:
    tournament_id: int
    checks: list[Check] = field(default_factory=list)
    hands: list[HandReport] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks) and all(h.ok for h in self.hands)

    def to_dict(self) -> dict:
        return {
            "tournament": self.tournament_id,
            "ok": self.ok,
            "checks": [c.to_dict() for c in self.checks],
            "hands_checked": len(self.hands),
            "hands_failed": sum(not h.ok for h in self.hands),
            "hands": [h.to_dict() for h in self.hands],
        }

    def lines(self) -> list[str]:
        out = [f"  {'ok  ' if c.ok else 'FAIL'} {c.name}: {c.detail}" for c in self.checks]
        for report in self.hands:
            out += report.lines()
        failed = sum(not h.ok for h in self.hands)
        out.append(
            _("Tournament %(id)s: %(hands)s hands checked, %(failed)s with mismatches: %(verdict)s")
            % {
                "id": self.tournament_id,
                "hands": len(self.hands),
                "failed": failed,
                "verdict": "OK" if self.ok else "MISMATCH",
            }
        )
        return out


def verify_tournament(tournament) -> TournamentReport:
    report = TournamentReport(tournament.pk)
    master = master_seed_of(tournament)
    if master is not None and tournament.master_seed_commitment:
        actual = seed_commitment(master)
        report.checks.append(
            Check(
                "master seed commitment",
                actual == tournament.master_seed_commitment,
                _("SHA-256(master seed) = %(actual)s, published = %(published)s")
                % {"actual": actual, "published": tournament.master_seed_commitment},
            )
        )
    hands = (
        Hand.objects.filter(table__tournament=tournament)
        .exclude(status=Hand.Status.RUNNING)
        .select_related("table", "table__tournament")
        .order_by("table__number", "number")
    )
    for hand in hands:
        report.hands.append(verify_hand(hand))
    return report


def write_report(out, report, *, as_json: bool = False) -> None:
    """Print a hand's or a tournament's report for the verify commands: readable lines, or JSON."""
    import json

    if as_json:
        out.write(json.dumps(report.to_dict(), indent=2))
    else:
        for line in report.lines():
            out.write(line)
