"""One hand of Courchevel or Courchevel Hi/Lo as a state machine (R2-R6).

A hand is an append-only list of JSON-serialisable events. ``Hand.start`` posts the blinds and antes
and deals; the dealer's and players' inputs (``act``, and in entered-card mode ``enter_board``,
``show``, ``muck``) append events, and the engine appends what follows from them (the next board in
seeded mode, returned bets, shows, awards). ``Hand.replay(events)`` feeds the inputs back and checks
that every other event comes out the same, so a stored hand rebuilds exactly.

Two ways to deal:
- ``seeded``: the deck is ``shuffled_deck(seed)`` (RULES section 7), dealt from the top: hole cards one
  at a time clockwise from the first seat left of the button, five rounds (R4.1); burn and the first
  flop card face up (R4.2); burn and two flop cards; burn and the turn; burn and the river (R4.4).
- ``entered``: a dealer with a physical deck enters the board cards as they are turned up and, at the
  showdown, the hands shown. Cards nobody saw stay unknown.
"""

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from .betting import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, BettingRound, Options
from .cards import CODES, CardError, parse_cards

# The config's names are re-exported: callers import HandConfig and the games from here.
from .config import (  # noqa: F401
    ANTE_KINDS,
    COURCHEVEL,
    COURCHEVEL_HILO,
    DEAL_MODES,
    GAMES,
    HOLE_CARDS,
    MAX_PLAYERS,
    HandConfig,
    SeatConfig,
)
from .errors import ConfigError, RuleError
from .evaluator import (
    NO_LOW,
    Board,
    high_name,
    high_strength,
    high_value,
    hilo_strengths,
    low_name,
    low_value,
)
from .pots import Pot, award, build_pots, unmatched
from .shuffle import shuffled_deck

# The boards dealt before each betting round: the first flop card alone (R4.2), then the rest.
BOARD_STREETS = ("flop1", "flop", "turn", "river")
BOARD_SIZES = (1, 2, 1, 1)
ROUNDS = ("preflop", "flop", "turn", "river")

# What the hand is waiting for.
ACTION = "action"
BOARD = "board"
SHOW = "show"
FACE_UP = "face_up"  # seeded mode, dealer_runout: the dealer turns the hands face up (R6.2)
COMPLETE = "complete"


_CARD_INDEX = {code: index for index, code in enumerate(CODES)}


class _Player:
    __slots__ = (
        "acted",
        "acted_full",
        "acted_level",
        "all_in",
        "bet",
        "folded",
        "hole",
        "index",
        "mucked",
        "player",
        "put_in",
        "seat",
        "shown",
        "stack",
        "start",
    )

    def __init__(self, index: int, seat: SeatConfig):
        self.index = index
        self.seat = seat.seat
        self.player = seat.player
        self.start = seat.stack
        self.stack = seat.stack
        self.bet = 0  # in front of the player this round
        self.put_in = 0  # this hand in total, antes included (pots are built from it)
        self.folded = False
        self.all_in = False
        self.acted = False
        self.acted_level = 0
        self.acted_full = 0
        self.hole: list[str] | None = None
        self.shown = False
        self.mucked = False


@dataclass
class _Showdown:
    order: list[int] = field(default_factory=list)  # player indices
    position: int = 0
    must_show: bool = False


def public_event(event: dict) -> dict | None:
    """One event as anyone may see it while the hand runs: the seed, the burns and the hole cards
    stay hidden (shown hands are separate ``show`` events). None when the whole event is secret."""
    kind = event.get("type")
    if kind == "hole":
        return None
    if kind == "start" and event.get("seed") is not None:
        return {**event, "seed": None}
    if kind == "board" and event.get("burn") is not None:
        return {**event, "burn": None}
    return event


class Hand:
    """A hand in progress or finished. Build with ``Hand.start`` or ``Hand.replay``."""

    def __init__(self, config: HandConfig, seed: bytes | None):
        self.config = config
        self.seed = seed
        self.events: list[dict] = []
        self.players = [_Player(i, s) for i, s in enumerate(config.seats)]
        self._by_seat = {p.seat: p for p in self.players}
        self._total = sum(p.start for p in self.players)
        self._middle = 0  # every chip not in a stack: antes, bets, pots
        self._dead = 0  # big-blind ante: dead money for the main pot (R3.4)
        self._deck = shuffled_deck(seed) if seed is not None else None
        self._deck_pos = 0
        self.board: list[str] = []
        self.burns: list[str] = []
        self._used: set[str] = set()
        self.phase = BOARD
        self.street = 0  # index into ROUNDS / BOARD_STREETS
        self._round: BettingRound | None = None
        self._to_act: _Player | None = None
        self._options: Options | None = None  # the options of the player to act, until the next event
        self._cursor = 0  # where the search for the next player to act starts
        self._aggressor: _Player | None = None
        self._live = len(self.players)
        self._runout = False
        self._showdown: _Showdown | None = None
        self._result: dict | None = None
        n = len(self.players)
        # Clockwise from the first seat left of the button: deal order, odd chips, showdown start.
        first = self._index_after(config.button_seat)
        self._from_button = [self.players[(first + k) % n] for k in range(n)]
        # The table read clockwise from each player (and from one past the last, the first again), so
        # that the search for the next player to act is a plain loop.
        self._clockwise = [self.players[k:] + self.players[:k] for k in range(n)]
        self._clockwise.append(self._clockwise[0])

    # -- building ------------------------------------------------------------------------------------

    @classmethod
    def start(cls, config: HandConfig | dict, seed: bytes | str | None = None) -> "Hand":
        """Post blinds and antes and deal. Seeded mode without a seed draws 32 fresh bytes."""
        if isinstance(config, dict):
            config = HandConfig.from_dict(config)
        if config.deal_mode == "entered":
            if seed is not None:
                raise ConfigError("seed_in_entered_mode", "a hand with entered cards has no seed")
            raw = None
        elif seed is None:
            raw = secrets.token_bytes(32)
        else:
            raw = _seed_bytes(seed)
        hand = cls(config, raw)
        hand._emit(
            {"type": "start", "config": config.to_dict(), "seed": raw.hex() if raw is not None else None}
        )
        hand._post_and_deal()
        hand._advance()
        hand._check_chips()
        return hand

    @classmethod
    def replay(cls, events: Iterable[dict]) -> "Hand":
        """Rebuild a hand from its events, checking that the engine produces the same ones."""
        events = list(events)
        if not events or not isinstance(events[0], dict) or events[0].get("type") != "start":
            raise RuleError("replay_no_start", "a hand's events begin with its start event")
        first = events[0]
        config = HandConfig.from_dict(first.get("config"))
        if config.deal_mode == "seeded" and not first.get("seed"):
            raise RuleError("replay_no_seed", "a seeded hand replays from its seed: the start event has none")
        hand = cls.start(config, first.get("seed"))
        for i, event in enumerate(events):
            if i >= len(hand.events):
                hand.apply_recorded(event)
            if i >= len(hand.events) or hand.events[i] != event:
                got = hand.events[i] if i < len(hand.events) else None
                raise RuleError(
                    "replay_mismatch",
                    f"event {i} does not follow from the ones before it: "
                    f"recorded {event!r}, replayed {got!r}",
                    params={"index": i},
                )
        if len(hand.events) != len(events):
            raise RuleError(
                "replay_mismatch",
                f"the recorded events stop early: the engine adds {hand.events[len(events)]!r}",
                params={"index": len(events)},
            )
        return hand

    def apply_input(self, body: dict) -> dict:
        """One input as a tablet sends it: ``{"type": "action", "seat", "action", "amount"}``, or
        ``board`` / ``show`` with ``cards``, or ``muck``. Validated like the calls it stands for."""
        kind = body.get("type", "action") if isinstance(body, dict) else None
        if kind == "action":
            return self.act(body.get("seat"), body.get("action"), body.get("amount"))
        if kind == "board":
            if self.config.deal_mode == "seeded":
                return self.deal(body.get("cards"))
            return self.enter_board(body.get("cards"))
        if kind == "deal":
            return self.deal()
        if kind == "face_up":
            return self.face_up()
        if kind == "show":
            return self.show(body.get("seat"), body.get("cards"))
        if kind == "muck":
            return self.muck(body.get("seat"))
        raise RuleError("bad_input", f"unknown input type {kind!r}", params={"type": kind})

    def apply_recorded(self, event: dict) -> None:
        """Apply a recorded input event again (replay, verification): the input that made it."""
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "action":
            action = event.get("action")
            self.act(event.get("seat"), action, event.get("to") if action in ("bet", "raise") else None)
        elif kind == "board" and self.config.deal_mode == "entered":
            self.enter_board(event.get("cards"))
        elif kind == "board" and self._dealer_deals():
            self.deal(event.get("cards"))
        elif kind == "face_up":
            self.face_up()
        elif kind == "show" and self.config.deal_mode == "entered":
            self.show(event.get("seat"), event.get("cards"))
        elif kind == "muck":
            self.muck(event.get("seat"))
        else:
            raise RuleError("replay_mismatch", f"event {event!r} is not an input the hand is waiting for")

    # -- reading -------------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.phase == COMPLETE

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is not waiting for a betting action."""
        return self._to_act.seat if self.phase == ACTION and self._to_act is not None else None

    @property
    def awaiting(self) -> str | None:
        """What the hand waits for: "action", "board" (entered mode), "show" (entered mode), or None."""
        return None if self.phase == COMPLETE else self.phase

    @property
    def runout(self) -> bool:
        """True once betting is closed with an all-in and the rest of the board is run out (R4.6)."""
        return self._runout

    @property
    def deal_next(self) -> str | None:
        """Seeded mode with ``dealer_runout``: the street the dealer deals on the next tap, else None."""
        return BOARD_STREETS[self.street] if self._dealer_deals() else None

    @property
    def board_needed(self) -> int:
        """How many board cards the dealer must enter now (entered mode), else 0."""
        return BOARD_SIZES[self.street] if self.phase == BOARD else 0

    @property
    def to_show(self) -> int | None:
        """The seat due to show or muck (entered mode), in showdown order (R6.2)."""
        if self.phase != SHOW or self._showdown is None:
            return None
        return self.players[self._showdown.order[self._showdown.position]].seat

    @property
    def must_show(self) -> bool:
        return bool(self._showdown and self._showdown.must_show)

    def options(self) -> Options | None:
        """The legal options of the player to act (None when nobody is to act). Worked out once per
        turn: every change of state comes with an event, which forgets them."""
        player = self._to_act
        if player is None or self.phase != ACTION:
            return None
        if self._options is not None:
            return self._options
        betting = self._round
        opponents = False
        for p in self.players:
            if not (p.folded or p.all_in or p is player):
                opponents = True
                break
        pot = self._middle
        if betting.preflop and self.config.betting == POT_LIMIT:
            pot += self._missing_blinds()
        self._options = betting.options(
            player.seat,
            player.bet,
            player.stack,
            player.acted,
            player.acted_level,
            player.acted_full,
            opponents,
            pot,
        )
        return self._options

    def pots(self) -> list[Pot]:
        """The main pot and side pots as they stand (bets of the current round included)."""
        return build_pots(
            [(p.seat, p.put_in, not p.folded and not p.mucked) for p in self.players], self._dead
        )

    def collected_pots(self) -> list[Pot]:
        """The pots in the middle before this round's bets are pulled in (R6.1)."""
        return build_pots(
            [(p.seat, p.put_in - p.bet, not p.folded and not p.mucked) for p in self.players], self._dead
        )

    def result(self) -> dict | None:
        """The finished hand's pots, winners, amounts, hand names and final stacks (None before)."""
        return self._result

    def stacks(self) -> dict[int, int]:
        return {p.seat: p.stack for p in self.players}

    def view(self, public: bool = True) -> dict:
        """The hand's state for a screen. The public view hides hole cards not shown, the seed and the
        burns; the full view (for the dealer or an audit) has everything."""
        players = []
        for p in self.players:
            cards = p.hole if (p.shown or not public) else None
            players.append(
                {
                    "seat": p.seat,
                    "player": p.player,
                    "start": p.start,
                    "stack": p.stack,
                    "bet": p.bet,
                    "put_in": p.put_in,
                    "folded": p.folded,
                    "all_in": p.all_in,
                    "shown": p.shown,
                    "mucked": p.mucked,
                    "cards": list(cards) if cards else None,
                }
            )
        options = self.options()
        data = {
            "game": self.config.game,
            "betting": self.config.betting,
            "deal_mode": self.config.deal_mode,
            "button_seat": self.config.button_seat,
            "small_blind_seat": self.config.small_blind_seat,
            "big_blind_seat": self.config.big_blind_seat,
            "phase": self.phase,
            "street": ROUNDS[self.street],
            "board": list(self.board),
            "players": players,
            "pot_total": self._middle,
            "pots": [p.to_dict() for p in self.pots()] if not self.done else [],
            # As a dealer builds them (R6.1): the pots collected from the rounds before, apart from the
            # bets in front of the players (an uncalled bet goes back when the round ends).
            "collected_pots": [p.to_dict() for p in self.collected_pots()] if not self.done else [],
            "current_bet": self._round.current if self._round and self.phase == ACTION else 0,
            "to_act": self.to_act,
            "options": options.to_dict() if options else None,
            "board_needed": self.board_needed,
            "to_show": self.to_show,
            "must_show": self.must_show,
            "runout": self._runout,
            "deal_next": self.deal_next,
            "result": self._result,
        }
        if not public:
            data["seed"] = self.seed.hex() if self.seed is not None else None
            data["burns"] = list(self.burns)
        return data

    def public_events(self) -> list[dict]:
        """The events without secrets: no seed, no burns, hole cards only once shown."""
        return [shown for shown in map(public_event, self.events) if shown is not None]

    # -- inputs --------------------------------------------------------------------------------------

    def act(self, seat: int, action: str, amount: int | None = None) -> dict:
        """Apply a betting action of the player to act: "fold", "check", "call", "bet" or "raise" to
        ``amount`` (the player's total bet this round), or "all_in". Returns the event. An illegal
        action raises RuleError and changes nothing."""
        if self.phase != ACTION or self._to_act is None:
            raise self._not_waiting("a betting action")
        player = self._to_act
        if seat != player.seat:
            rule = "R4.3" if self.street == 0 else "R4.4"
            raise RuleError(
                "not_your_turn",
                f"it is seat {player.seat}'s turn to act, not seat {seat!r}",
                rule,
                {"seat": seat, "to_act": player.seat},
            )
        options = self._options or self.options()
        betting = self._round
        all_in_to = player.bet + player.stack
        if action == "all_in":
            if all_in_to <= betting.current or options.raise_blocked == "no_opponent":
                action = "call"
            else:
                action, amount = options.raise_kind or ("raise" if betting.current else "bet"), all_in_to
        if action in ("fold", "check") and amount is not None:
            raise RuleError(
                "unexpected_amount",
                f"a {action} takes no amount, got {amount!r}",
                params={"amount": repr(amount)},
            )
        if action == "fold":
            added = 0
        elif action == "check":
            if options.call:
                raise RuleError(
                    "cannot_check",
                    f"there is a bet of {betting.current} to this player: call {options.call}, raise or fold",
                    "R4.5",
                    {"call": options.call},
                )
            added = 0
        elif action == "call":
            if not options.call:
                raise RuleError("nothing_to_call", "there is no bet to call: check or bet", "R4.5")
            if amount is not None and (type(amount) is not int or amount != options.call):
                raise RuleError(
                    "bad_call",
                    f"the call is {options.call}, not {amount!r}",
                    "R4.5",
                    {"call": options.call, "amount": repr(amount)},
                )
            added = options.call
        elif action in ("bet", "raise"):
            to = betting.check_raise(options, action, amount, all_in_to)
            added = to - player.bet
        else:
            raise RuleError(
                "unknown_action",
                f"unknown action {action!r}: use fold, check, call, bet, raise or all_in",
                params={"action": repr(action)},
            )
        # Valid: from here on nothing can fail.
        if action == "fold":
            player.folded = True
            self._live -= 1
        elif added:
            player.stack -= added
            player.bet += added
            player.put_in += added
            self._middle += added
            if player.stack == 0:
                player.all_in = True
            if action in ("bet", "raise"):
                betting.apply_raise(player.bet)
                self._aggressor = player
        player.acted = True
        player.acted_level = betting.current
        player.acted_full = betting.full_level
        event = {
            "type": "action",
            "seat": player.seat,
            "action": action,
            "amount": added,
            "to": player.bet,
            "all_in": player.all_in,
        }
        self.events.append(event)
        self._options = None
        if action == "fold":
            self._return_unmatched()
        self._cursor = player.index + 1  # _next_to_act wraps it round the table
        # Most actions pass the turn to the next player; anything more (end of the round, board,
        # showdown) goes through _advance.
        following = self._next_to_act() if self._live > 1 else None
        if following is not None:
            self._to_act = following
        else:
            self._advance()
        self._check_chips()
        return event

    def enter_board(self, cards: list[str]) -> dict:
        """Entered mode: the dealer enters the board cards just turned up (1, then 2, 1, 1)."""
        if self.phase != BOARD or self.config.deal_mode != "entered":
            raise self._not_waiting("board cards")
        needed = BOARD_SIZES[self.street]
        street = BOARD_STREETS[self.street]
        codes = self._check_new_cards(
            cards,
            needed,
            f"the {street.replace('flop1', 'first flop card')} cards",
            "R4.2" if self.street == 0 else "R4.4",
        )
        event = self._deal_board(codes, None)
        self._advance()
        self._check_chips()
        return event

    def face_up(self) -> dict:
        """Seeded mode with ``dealer_runout``: betting is closed with an all-in and cards are still to
        come, so every hand still in is turned face up before the board is run out (R6.2, TDA 16).
        Appends a ``face_up`` event, then one ``show`` per hand in showdown order."""
        if self.phase != FACE_UP:
            raise self._not_waiting("the hands turned face up")
        event = {"type": "face_up", "seats": [self.players[i].seat for i in self._showdown.order]}
        self._emit(event)
        self.phase = SHOW
        self._advance()
        self._check_chips()
        return event

    def deal(self, cards: list[str] | None = None) -> dict:
        """Seeded mode with ``dealer_runout``: deal the next street of the run-out from the deck (R4.4:
        burn one, then the cards). ``cards``, if given, must be the ones the deck deals (a replay)."""
        if not self._dealer_deals():
            raise self._not_waiting("the next street dealt")
        size = BOARD_SIZES[self.street]
        expected = self._deck[self._deck_pos + 1 : self._deck_pos + 1 + size]
        if cards is not None and list(cards) != expected:
            raise RuleError(
                "not_the_deck",
                f"the deck deals {' '.join(expected)} here, not {cards!r}",
                "R4.4",
                {"cards": repr(cards)},
            )
        self._deal_from_deck()
        event = self.events[-1]
        self._advance()
        self._check_chips()
        return event

    def show(self, seat: int, cards: list[str]) -> dict:
        """Entered mode: the player due to show (R6.2) turns up their five hole cards."""
        player = self._due_to_show(seat)
        codes = self._check_new_cards(cards, HOLE_CARDS, f"seat {seat}'s hole cards", "R2.2")
        player.hole = codes
        event = self._show(player)
        self._showdown.position += 1
        self._advance()
        self._check_chips()
        return event

    def muck(self, seat: int) -> dict:
        """Entered mode: the player due to show gives up the pot without showing. Not allowed when a
        player is all-in: then every hand is turned up (R6.2)."""
        player = self._due_to_show(seat)
        if self._showdown.must_show:
            raise RuleError(
                "must_show",
                "a player is all-in, so every hand still in is turned face up",
                "R6.2",
                {"seat": seat},
            )
        player.mucked = True
        event = {"type": "muck", "seat": player.seat}
        self._emit(event)
        self._showdown.position += 1
        self._advance()
        self._check_chips()
        return event

    # -- internals: flow -----------------------------------------------------------------------------

    def _dealer_deals(self) -> bool:
        return self.phase == BOARD and self._runout and self._deck is not None and self.config.dealer_runout

    def _emit(self, event: dict) -> None:
        self.events.append(event)
        self._options = None  # every change of state comes with an event

    def _not_waiting(self, what: str) -> RuleError:
        if self.phase == COMPLETE:
            return RuleError("hand_over", f"the hand is over: no more {what}")
        waiting = {
            ACTION: f"a betting action from seat {self.to_act}",
            BOARD: f"the dealer to deal the {self.deal_next}"
            if self.deal_next
            else f"{self.board_needed} board card(s) from the dealer",
            SHOW: f"seat {self.to_show} to show or muck",
            FACE_UP: "the dealer to turn the hands face up",
        }[self.phase]
        return RuleError(
            "not_waiting", f"the hand is waiting for {waiting}, not {what}", params={"awaiting": self.phase}
        )

    def _index_after(self, seat: int) -> int:
        for p in self.players:
            if p.seat > seat:
                return p.index
        return 0

    def _post(self, player: _Player, blind: str, amount: int) -> None:
        # R3.7: whoever cannot cover a blind or ante posts what they have and is all-in.
        paid = amount if amount < player.stack else player.stack
        player.stack -= paid
        self._middle += paid
        if blind == "big_blind_ante":
            self._dead += paid
        elif blind == "ante":
            player.put_in += paid
        else:
            player.bet += paid
            player.put_in += paid
        if player.stack == 0:
            player.all_in = True
        self._emit(
            {"type": "post", "seat": player.seat, "blind": blind, "amount": paid, "all_in": player.all_in}
        )

    def _post_and_deal(self) -> None:
        config = self.config
        if config.ante_kind == "per_player":
            for player in self._from_button:
                if player.stack:
                    self._post(player, "ante", config.ante)
        if config.small_blind_seat is not None and config.small_blind:
            player = self._by_seat[config.small_blind_seat]
            if player.stack:
                self._post(player, "small_blind", config.small_blind)
        big = self._by_seat[config.big_blind_seat]
        if big.stack:
            self._post(big, "big_blind", config.big_blind)
        if config.ante_kind == "big_blind" and big.stack:
            # The big blind is paid before the big-blind ante when the player cannot cover both.
            self._post(big, "big_blind_ante", config.ante)
        if self._deck is not None:
            # R4.1: one card at a time clockwise from left of the button, five rounds: the j-th player
            # from the button gets cards j, j + n, j + 2n, … from the top of the deck.
            n = len(self.players)
            dealt = n * HOLE_CARDS
            for j, player in enumerate(self._from_button):
                player.hole = self._deck[j:dealt:n]
                self._emit({"type": "hole", "seat": player.seat, "cards": list(player.hole)})
            self._deck_pos = dealt
        self.street = 0
        self.phase = BOARD

    def _deal_board(self, cards: list[str], burn: str | None) -> dict:
        self.board.extend(cards)  # entered cards are already in self._used (_check_new_cards)
        if burn is not None:
            self.burns.append(burn)
        event = {"type": "board", "street": BOARD_STREETS[self.street], "cards": list(cards), "burn": burn}
        self._emit(event)
        if self._runout:
            if self.street < 3:
                self.street += 1
                self.phase = BOARD
            else:
                self._finish()
        else:
            self._start_round()
        return event

    def _deal_from_deck(self) -> None:
        deck, pos = self._deck, self._deck_pos
        size = BOARD_SIZES[self.street]
        burn, cards = deck[pos], deck[pos + 1 : pos + 1 + size]
        self._deck_pos = pos + 1 + size
        self._deal_board(cards, burn)

    def _start_round(self) -> None:
        config = self.config
        preflop = self.street == 0
        unit = config.small_bet if self.street < 2 else config.big_bet
        self._round = BettingRound(
            config.betting, unit or 0, config.big_blind, preflop, config.cap_raises, config.smallest_chip
        )
        for p in self.players:
            p.acted = False
            p.acted_level = 0
            p.acted_full = 0
        self._aggressor = None
        # R4.3: pre-flop the player left of the big blind starts; R4.4: later, the first left of the button.
        self._cursor = self._index_after(config.big_blind_seat) if preflop else self._from_button[0].index
        self.phase = ACTION

    def _able(self) -> int:
        count = 0
        for p in self.players:
            if not p.folded and not p.all_in:
                count += 1
        return count

    def _next_to_act(self) -> _Player | None:
        """The first player from the cursor, clockwise, who still has to act (R4.5: everyone able to
        bet has matched the bet and had a chance to act). A player who has matched the bet but not
        acted yet only acts if someone else can still bet. One pass over the table, at most."""
        current = self._round.current
        unacted = None
        able = 0
        for p in self._clockwise[self._cursor]:
            if p.folded or p.all_in:
                continue
            if p.bet < current:
                return p if unacted is None else unacted
            if unacted is not None:
                return unacted  # someone after them can answer
            if not p.acted:
                if able:
                    return p  # someone before them can answer
                unacted = p
            able += 1
        return None

    def _advance(self) -> None:
        while True:
            if self.phase == ACTION:
                if self._live > 1:
                    player = self._next_to_act()
                    if player is not None:
                        self._to_act = player
                        return
                self._to_act = None
                self._end_round()
                if self._live == 1:
                    self._finish()
                elif self.street == 3:
                    self._start_showdown()
                elif self._able() <= 1:
                    # R4.6: nobody left to bet against: the board is run out with no betting, after
                    # every hand is turned face up (R6.2).
                    self._runout = True
                    self._start_showdown()
                    if self.config.dealer_runout and self._deck is not None:
                        self.phase = FACE_UP
                        return
                else:
                    self.street += 1
                    self.phase = BOARD
            elif self.phase == BOARD:
                if self._deck is None or self._dealer_deals():
                    return  # entered mode, or a run-out the dealer deals street by street
                self._deal_from_deck()
            elif self.phase == SHOW:
                showdown = self._showdown
                if showdown.position >= len(showdown.order):
                    if self._runout and self.street < 3:
                        self.street += 1
                        self.phase = BOARD
                    else:
                        self._finish()
                    continue
                player = self.players[showdown.order[showdown.position]]
                last = showdown.position == len(showdown.order) - 1
                if (
                    last
                    and not showdown.must_show
                    and not any(not p.folded and not p.mucked and p is not player for p in self.players)
                ):
                    # Everyone else mucked: the last player wins without showing.
                    showdown.position += 1
                    continue
                if player.hole is None:
                    return  # entered mode: waiting for the dealer to enter this hand
                self._show(player)
                showdown.position += 1
            else:
                return

    def _end_round(self) -> None:
        """Return an uncalled bet, and clear the bets in front of the players."""
        top = second = 0
        top_player = None
        for p in self.players:
            if p.bet > top:
                top, second, top_player = p.bet, top, p
            elif p.bet > second:
                second = p.bet
        if top_player is not None and top > second and not top_player.folded:
            excess = top - second
            top_player.bet -= excess
            top_player.put_in -= excess
            top_player.stack += excess
            top_player.all_in = False
            self._middle -= excess
            self._emit({"type": "return", "seat": top_player.seat, "amount": excess})
        for p in self.players:
            p.bet = 0

    def _return_unmatched(self) -> None:
        """R6.1: chips that no player still in the hand can win go back to their owner, as a
        ``return`` event (a small blind above an all-in big blind when everyone folds)."""
        for seat, excess in unmatched(
            [(p.seat, p.put_in, not p.folded and not p.mucked) for p in self.players]
        ):
            player = self._by_seat[seat]
            player.put_in -= excess
            player.bet -= excess if excess < player.bet else player.bet
            player.stack += excess
            self._middle -= excess
            self._emit({"type": "return", "seat": seat, "amount": excess})

    def _start_showdown(self) -> None:
        n = len(self.players)
        aggressor = self._aggressor
        # R6.2: the last player to bet or raise in the last round shows first, else the first left of
        # the button; then clockwise.
        if aggressor is not None and not aggressor.folded:
            start = aggressor.index
        else:
            start = self._from_button[0].index
        order = [i % n for i in range(start, start + n) if not self.players[i % n].folded]
        must = self._runout or any(p.all_in for p in self.players if not p.folded)
        self._showdown = _Showdown(order, 0, must)
        self.phase = SHOW

    def _show(self, player: _Player) -> dict:
        player.shown = True
        event = {"type": "show", "seat": player.seat, "cards": list(player.hole)}
        self._emit(event)
        return event

    def _due_to_show(self, seat: int) -> _Player:
        if self.phase != SHOW or self.config.deal_mode != "entered":
            raise self._not_waiting("a hand shown at showdown")
        due = self.players[self._showdown.order[self._showdown.position]]
        if seat != due.seat:
            raise RuleError(
                "not_your_turn",
                f"seat {due.seat} shows first, not seat {seat!r}",
                "R6.2",
                {"seat": seat, "to_show": due.seat},
            )
        return due

    def _check_new_cards(self, cards: object, count: int, what: str, rule: str) -> list[str]:
        try:
            parse_cards(cards, count, what)
        except CardError as error:
            # A wrong number of cards for the step (R2.2) and a card given twice (R2.1) keep their own
            # codes; anything that is not a list of card codes is "bad_cards".
            if error.code in ("wrong_card_count", "duplicate_card"):
                raise RuleError(error.code, str(error), error.rule or rule, error.params) from None
            raise RuleError("bad_cards", str(error), rule, {"cards": repr(cards)}) from None
        used = [c for c in cards if c in self._used]
        if used:
            raise RuleError(
                "card_used",
                f"{', '.join(used)} already used in this hand: {what} must be new cards",
                "R2.1",
                {"cards": used},
            )
        self._used.update(cards)
        return list(cards)

    def _finish(self) -> None:
        config = self.config
        self._return_unmatched()  # already done when the last player folded; no pot holds such chips
        order = [p.seat for p in self._from_button]
        contenders = [p for p in self.players if not p.folded and not p.mucked]
        highs: dict[int, int] = {}
        lows: dict[int, int] | None = {} if config.hilo else None
        names: dict[int, dict] = {}
        holes: dict[int, list[int]] = {}
        board = None
        if len(self.board) == 5 and (len(contenders) > 1 or any(p.shown for p in contenders)):
            # Winners are decided on the evaluator's integer strengths with the board prepared once;
            # names come from the strengths, and the five cards used are looked up below for the
            # winning hands only.
            board = Board(list(map(_CARD_INDEX.__getitem__, self.board)))
            for p in contenders:
                if not p.shown:
                    continue
                hole = holes[p.seat] = list(map(_CARD_INDEX.__getitem__, p.hole))
                if lows is not None:
                    high, low = hilo_strengths(hole, board)  # R2.6: each half with its own pair
                else:
                    high, low = high_strength(hole, board), NO_LOW
                highs[p.seat] = high
                entry = {
                    "seat": p.seat,
                    "cards": list(p.hole),
                    "high": high_name(high),
                    "high_cards": None,
                    "low": None,
                    "low_cards": None,
                }
                if low != NO_LOW:
                    lows[p.seat] = low
                    entry["low"] = low_name(low)
                names[p.seat] = entry
        pots_out = []
        won: dict[int, set] = {}
        by_seat = self._by_seat
        emit = self._emit
        for number, pot in enumerate(self.pots()):
            awards = award(pot, order, highs, lows, config.smallest_chip)
            pot_awards = []
            for seat, chips, share in awards:
                player = by_seat[seat]
                player.stack += chips
                self._middle -= chips
                hand_name = None
                won.setdefault(seat, set()).add(share)
                if seat in names:
                    hand_name = names[seat]["low"] if share == "low" else names[seat]["high"]
                emit(
                    {
                        "type": "award",
                        "pot": number,
                        "seat": seat,
                        "amount": chips,
                        "share": share,
                        "hand": hand_name,
                    }
                )
                pot_awards.append(
                    {
                        "seat": seat,
                        "player": player.player,
                        "amount": chips,
                        "share": share,
                        "hand": hand_name,
                    }
                )
            pots_out.append(
                {"number": number, "amount": pot.amount, "eligible": list(pot.eligible), "awards": pot_awards}
            )
        for seat, entry in names.items():
            shares = won.get(seat)
            if shares:
                if shares - {"low"}:
                    entry["high_cards"] = list(high_value(holes[seat], board).cards)
                if "low" in shares:
                    entry["low_cards"] = list(low_value(holes[seat], board).cards)
        if self._middle != 0:
            raise AssertionError(f"{self._middle} chips left in the middle after the awards (R6.7)")
        stacks = [
            {"seat": p.seat, "player": p.player, "start": p.start, "stack": p.stack, "net": p.stack - p.start}
            for p in self.players
        ]
        self._emit({"type": "end", "stacks": [[p.seat, p.stack] for p in self.players]})
        self._result = {
            "pots": pots_out,
            "stacks": stacks,
            "board": list(self.board),
            "hands": [names[p.seat] for p in self.players if p.seat in names],
            "busted": [p.seat for p in self.players if p.stack == 0],
        }
        self.phase = COMPLETE
        self._to_act = None

    def _missing_blinds(self) -> int:
        """R5.2: pre-flop the pot counts as if both blinds were posted in full, even short or dead."""
        config = self.config
        missing = 0
        if config.small_blind_seat is None:
            missing += config.small_blind
        else:
            posted = self._by_seat[config.small_blind_seat].bet
            if posted < config.small_blind:
                missing += config.small_blind - posted
        posted = self._by_seat[config.big_blind_seat].bet
        if posted < config.big_blind:
            missing += config.big_blind - posted
        return missing

    def _check_chips(self) -> None:
        """R6.7: stacks plus everything in the middle always equal the chips at the start of the hand."""
        stacks = 0
        put_in = 0
        for p in self.players:
            stacks += p.stack
            put_in += p.put_in
        if stacks + self._middle != self._total:
            raise AssertionError(
                f"chips not conserved: stacks {stacks} + middle {self._middle} != {self._total}"
            )
        if self.phase != COMPLETE and put_in + self._dead != self._middle:
            raise AssertionError(f"pots {self._middle} != contributions {put_in} + dead {self._dead}")


def _seed_bytes(seed: bytes | str) -> bytes:
    if isinstance(seed, str):
        try:
            seed = bytes.fromhex(seed)
        except ValueError:
            raise ConfigError("bad_seed", "a seed given as text must be hex") from None
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != 32:
        raise ConfigError("bad_seed", "a hand seed is 32 bytes (RULES section 7)")
    return bytes(seed)


__all__ = [
    "ANTE_KINDS",
    "DEAL_MODES",
    "FIXED_LIMIT",
    "GAMES",
    "NO_LIMIT",
    "POT_LIMIT",
    "Hand",
    "HandConfig",
    "SeatConfig",
]
