"""Random hands of all six games, 2 to 8 players, random stacks, blinds, antes and all-ins, played by
hypothesis: chips are conserved (R6.7), the pots equal what was put in, only legal actions are accepted
and an illegal one changes nothing, replay rebuilds the same state, and every hand ends."""

import json
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from dealing.engine import Hand, HandConfig, RuleError, evaluate_high, evaluate_low, positions, shuffled_deck
from dealing.engine.betting import FIXED_LIMIT

from .handkit import check_winnings_R6_1


@st.composite
def hand_configs(draw):
    count = draw(st.integers(2, 8))
    seats = sorted(draw(st.sets(st.integers(1, 9), min_size=count, max_size=count)))
    # R5.7: blinds and antes are whole numbers of the smallest chip in play.
    chip = draw(st.sampled_from([1, 1, 2, 5]))
    big_blind = draw(st.sampled_from([b for b in (2, 10, 50) if b % chip == 0]))

    def in_chips(amount):
        return max(chip, amount // chip * chip)

    small_blind = in_chips(draw(st.sampled_from([big_blind // 2, big_blind, big_blind * 2 // 3])))
    stacks = draw(
        st.lists(
            st.one_of(st.integers(1, 3 * big_blind), st.integers(1, 200 * big_blind)),
            min_size=count,
            max_size=count,
        )
    )
    where = positions.first_hand(seats, draw(st.sampled_from(seats)))
    small_blind_seat = where.small_blind
    dealt = list(zip(seats, stacks))
    if count > 3 and draw(st.booleans()) and draw(st.booleans()):
        # R3.6: a dead small blind is an empty seat (last hand's big blind is gone), not a player
        # dealt in who does not post.
        dealt = [(seat, stack) for seat, stack in dealt if seat != where.small_blind]
        small_blind_seat = None
    ante_kind = draw(st.sampled_from(["none", "per_player", "big_blind"]))
    betting = draw(st.sampled_from(["fixed_limit", "pot_limit", "no_limit"]))
    return HandConfig(
        game=draw(st.sampled_from(["courchevel", "courchevel_hilo"])),
        betting=betting,
        seats=[(seat, f"player{seat}", stack) for seat, stack in dealt],
        button_seat=where.button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=where.big_blind,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=0 if ante_kind == "none" else in_chips(draw(st.sampled_from([1, big_blind // 2, big_blind]))),
        ante_kind=ante_kind,
        smallest_chip=chip,
        # R5.1: the fixed-limit cap is lifted only when two players are left, so two are dealt in.
        cap_raises=draw(st.booleans()) if count == 2 or betting != FIXED_LIMIT else True,
        deal_mode=draw(st.sampled_from(["seeded", "entered"])),
    )


def snapshot(hand: Hand):
    return json.dumps(hand.events), json.dumps(hand.view(public=False), sort_keys=True)


def expected_legal(hand: Hand, seat, action, amount) -> bool:
    """Whether the options the engine offers allow this action."""
    options = hand.options()
    if options is None or seat != options.seat:
        return False
    if action == "fold":
        return amount is None
    if action == "check":
        return options.call == 0 and amount is None
    if action == "call":
        return options.call > 0 and (amount is None or (type(amount) is int and amount == options.call))
    if action in ("bet", "raise"):
        return (
            action == options.raise_kind
            and type(amount) is int
            and options.min_to <= amount <= options.max_to
            # R5.7: in whole chips, or all-in
            and (amount % options.step == 0 or amount == options.player_bet + options.stack)
        )
    return False


class HandMachine(RuleBasedStateMachine):
    @initialize(config=hand_configs(), seed=st.binary(min_size=32, max_size=32))
    def start(self, config, seed):
        self.config = config
        self.total = sum(s.stack for s in config.seats)
        # Entered mode: the dealer's physical deck is another shuffle; cards come from it in order.
        self.physical = shuffled_deck(seed[::-1])
        self.used = 0
        self.hand = Hand.start(config, seed=seed if config.deal_mode == "seeded" else None)
        self.steps = 0

    def _take(self, count):
        cards = self.physical[self.used : self.used + count]
        self.used += count
        return cards

    @precondition(lambda self: self.hand.awaiting == "board")
    @rule()
    def enter_board(self):
        self.hand.enter_board(self._take(self.hand.board_needed))

    @precondition(lambda self: self.hand.awaiting == "show")
    @rule(muck=st.booleans())
    def show_or_muck(self, muck):
        seat = self.hand.to_show
        if muck and not self.hand.must_show:
            self.hand.muck(seat)
        else:
            self.hand.show(seat, self._take(5))

    @precondition(lambda self: self.hand.awaiting == "action")
    @rule(
        choice=st.sampled_from(["fold", "passive", "passive", "passive", "min", "max", "between", "all_in"]),
        fraction=st.floats(0, 1),
    )
    def legal_action(self, choice, fraction):
        options = self.hand.options()
        assert options is not None and options.seat == self.hand.to_act
        self.check_sizes(options)
        if choice in ("min", "max", "between") and options.raise_kind:
            amount = {
                "min": options.min_to,
                "max": options.max_to,
                "between": options.min_to + int((options.max_to - options.min_to) * fraction),
            }[choice]
            if amount % options.step and amount != options.max_to:
                # R5.7: a whole number of chips (min_to is one, or the all-in, which is max_to).
                amount = max(options.min_to, amount // options.step * options.step)
            assert expected_legal(self.hand, options.seat, options.raise_kind, amount)
            event = self.hand.act(options.seat, options.raise_kind, amount)
            assert event["to"] == amount
        elif choice == "fold":
            self.hand.act(options.seat, "fold")
        elif choice == "all_in" and (
            options.raise_kind and options.max_to == options.player_bet + options.stack
        ):
            self.hand.act(options.seat, "all_in")
            assert self.hand.events[-1]["all_in"]
        else:
            self.hand.act(options.seat, "call" if options.call else "check")
        self.steps += 1

    def check_sizes(self, options):
        """The bet sizes offered follow the betting structure, worked out here from the table alone."""
        if options.raise_kind is None:
            return
        hand = self.hand
        all_in_to = options.player_bet + options.stack
        current = options.current_bet
        assert current < options.min_to <= options.max_to <= all_in_to
        step = hand.config.smallest_chip
        assert options.step == step
        for amount in (options.min_to, options.max_to):
            assert amount % step == 0 or amount == all_in_to  # R5.7: in chips, or all-in
        if hand.config.betting == FIXED_LIMIT:
            assert options.min_to == options.max_to  # R5.1: one size, or all-in for less
        else:
            # R5.3/R5.5: a raise adds at least a big blind (less only all-in).
            assert options.min_to >= min(all_in_to, current + hand.config.big_blind)
            if hand.config.betting == "no_limit":
                assert options.max_to == all_in_to  # R5.3: the largest bet is the stack
            elif hand.street > 0:
                # R5.2: at most the pot after calling (pre-flop the blinds count in full: not redone here).
                # R5.7: rounded down to a whole number of chips, unless it is the all-in.
                pot = hand.view(public=False)["pot_total"] + current - options.player_bet
                limit = current + pot
                assert options.max_to == (all_in_to if limit >= all_in_to else limit // step * step)

    @rule(
        seat=st.integers(0, 10),
        action=st.sampled_from(["fold", "check", "call", "bet", "raise", "muck", "all-in"]),
        amount=st.one_of(st.none(), st.integers(-5, 20000), st.just(2.5), st.just(True)),
    )
    def maybe_illegal_action(self, seat, action, amount):
        if self.hand.options() is not None and seat % 2:
            seat = self.hand.to_act  # often the right seat, so that amounts get tested
        legal = expected_legal(self.hand, seat, action, amount)
        before = snapshot(self.hand)
        try:
            self.hand.act(seat, action, amount)
        except RuleError as error:
            assert not legal, (seat, action, amount, error)
            assert snapshot(self.hand) == before
            assert error.code and str(error)
        else:
            assert legal, (seat, action, amount)

    @invariant()
    def chips_are_conserved(self):
        hand = self.hand
        view = hand.view(public=False)
        stacks = sum(p["stack"] for p in view["players"])
        assert stacks + view["pot_total"] == self.total  # R6.7
        if not hand.done:
            put_in = sum(p["put_in"] for p in view["players"])
            assert sum(p.amount for p in hand.pots()) == view["pot_total"] >= put_in
            for pot in hand.pots():
                assert pot.eligible, pot
                assert all(not hand._by_seat[s].folded for s in pot.eligible)
        else:
            result = hand.result()
            for pot in result["pots"]:
                assert sum(a["amount"] for a in pot["awards"]) == pot["amount"]
                assert {a["seat"] for a in pot["awards"]} <= set(pot["eligible"])
            assert all(p["stack"] >= 0 for p in view["players"])

    @invariant()
    def replay_equals_state(self):
        if self.steps % 3 == 0 or self.hand.done:
            again = Hand.replay(json.loads(json.dumps(self.hand.events)))
            assert again.view(public=False) == self.hand.view(public=False)

    def teardown(self):
        # Every hand ends: checking and calling finishes it in a bounded number of steps.
        hand = self.hand
        for _ in range(200):
            if hand.done:
                break
            if hand.awaiting == "board":
                hand.enter_board(self._take(hand.board_needed))
            elif hand.awaiting == "show":
                hand.show(hand.to_show, self._take(5))
            else:
                options = hand.options()
                hand.act(options.seat, "call" if options.call else "check")
        assert hand.done
        assert sum(s["stack"] for s in hand.result()["stacks"]) == self.total
        self.check_awards()
        check_winnings_R6_1(hand)  # R6.1: nobody wins from an opponent more than they put in
        if hand.config.betting == FIXED_LIMIT:
            raises = [e for e in hand.events if e["type"] == "action" and e["action"] in ("bet", "raise")]
            assert all(e["to"] > 0 for e in raises)
            if hand.config.cap_raises:
                self.check_cap()

    def check_cap(self):
        """R5.1: with the cap on, no round goes above four bets of its size (half-bet all-ins included)."""
        hand = self.hand
        streets = {"flop1": 0, "flop": 1, "turn": 2, "river": 3}
        street = 0
        for event in hand.events:
            if event["type"] == "board":
                street = streets[event["street"]]
            elif event["type"] == "action":
                unit = hand.config.small_bet if street < 2 else hand.config.big_bet
                assert event["to"] <= 4 * unit, (street, event)

    def check_awards(self):
        """Each pot goes to the best hands among its players (R6.3, R6.4), checked with the public
        evaluator, in shares that differ by at most one smallest chip (R6.5)."""
        hand = self.hand
        shown = {e["seat"]: e["cards"] for e in hand.events if e["type"] == "show"}
        mucked = {e["seat"] for e in hand.events if e["type"] == "muck"}
        unit = hand.config.smallest_chip
        for pot in hand.result()["pots"]:
            contenders = [s for s in pot["eligible"] if s not in mucked]
            by_share = {}
            for award in pot["awards"]:
                by_share.setdefault(award["share"], []).append(award)
            if len(contenders) == 1:
                assert [(a["seat"], a["amount"]) for a in pot["awards"]] == [(contenders[0], pot["amount"])]
                continue
            highs = {s: evaluate_high(shown[s], hand.board) for s in contenders}
            best_high = max(highs.values())
            lows = {}
            if hand.config.hilo:
                lows = {s: v for s in contenders if (v := evaluate_low(shown[s], hand.board)) is not None}
            high_share = by_share.get("high", []) + by_share.get("pot", [])
            assert {a["seat"] for a in high_share} == {s for s, v in highs.items() if v == best_high}
            if lows:
                best_low = max(lows.values())
                assert {a["seat"] for a in by_share["low"]} == {s for s, v in lows.items() if v == best_low}
                high_total = sum(a["amount"] for a in high_share)
                low_total = sum(a["amount"] for a in by_share["low"])
                assert 0 <= high_total - low_total <= unit + pot["amount"] % unit  # odd unit to the high
            else:
                assert "low" not in by_share  # no qualifying low: the high takes the whole pot
            order = [p.seat for p in hand._from_button]
            for share in by_share.values():
                amounts = [a["amount"] for a in share]
                assert max(amounts) - min(amounts) <= unit + pot["amount"] % unit
                # R6.5: odd chips go to the first tied players left of the button.
                clockwise = [a["amount"] for a in sorted(share, key=lambda a: order.index(a["seat"]))]
                assert clockwise == sorted(clockwise, reverse=True), (order, share)


HandMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("ENGINE_RANDOM_HANDS", "40")),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestRandomHands = HandMachine.TestCase
