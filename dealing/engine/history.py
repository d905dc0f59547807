"""Hand histories: PHH (the TOML hand-history format of the pokerkit authors) and a readable text history
like a cardroom's. Both are made from a hand's events, so they work for finished hands and hands in
progress alike.

PHH has no Courchevel variant. We write the private variant codes below and keep what PHH lacks in
fields starting with ``_`` (which PHH leaves to users): the game and betting names, the seats of the
button and blinds, the ante kind, the smallest chip, the cap policy, the deal mode, the seed and burns.
The first flop card, dealt face up before any betting (R4.2), is a ``d db`` action before the pre-flop
bets; hole cards nobody saw are written ``??`` as PHH does.
"""

import json

from config.text import escape_line

from .hand import Hand

PHH_VARIANTS = {
    ("courchevel", "fixed_limit"): "_FCV",
    ("courchevel", "pot_limit"): "_PCV",
    ("courchevel", "no_limit"): "_NCV",
    ("courchevel_hilo", "fixed_limit"): "_FCV/8",
    ("courchevel_hilo", "pot_limit"): "_PCV/8",
    ("courchevel_hilo", "no_limit"): "_NCV/8",
}
GAME_NAMES = {"courchevel": "Courchevel", "courchevel_hilo": "Courchevel Hi/Lo"}
BETTING_NAMES = {"fixed_limit": "Fixed Limit", "pot_limit": "Pot Limit", "no_limit": "No Limit"}
STREET_TITLES = {"flop1": "FIRST FLOP CARD", "flop": "FLOP", "turn": "TURN", "river": "RIVER"}


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # A JSON string is a valid TOML basic string; every character that could end a line, reorder
        # the text or hide in it is written as a \\uXXXX escape (both formats read them back).
        return _escape_unsafe(json.dumps(value, ensure_ascii=False))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _escape_unsafe(text: str) -> str:
    """``text`` (already a quoted JSON string) with each unsafe character as its \\uXXXX escape."""
    return escape_line(text)  # json.dumps already escaped the C0 controls, quotes and backslashes


def _order(hand: Hand) -> list:
    """Players as PHH numbers them: p1 is the first seat left of the button, the button last."""
    return list(hand._from_button)


def to_phh(hand: Hand, /, **extra) -> str:
    """The hand in PHH. ``extra`` adds optional PHH fields (event, hand, table, level, time …)."""
    config = hand.config
    players = _order(hand)
    number = {p.seat: f"p{i + 1}" for i, p in enumerate(players)}
    antes = [0] * len(players)
    blinds = [0] * len(players)
    for i, p in enumerate(players):
        if config.ante_kind == "per_player" or (
            config.ante_kind == "big_blind" and p.seat == config.big_blind_seat
        ):
            antes[i] = config.ante
        if p.seat == config.small_blind_seat:
            blinds[i] = config.small_blind
        if p.seat == config.big_blind_seat:
            blinds[i] = config.big_blind
    actions = []
    burns = []
    for p in players:
        # Hole cards stay secret until the hand is over (then the seed reveals them anyway, RULES 7.6).
        cards = next((e["cards"] for e in hand.events if e["type"] == "hole" and e["seat"] == p.seat), None)
        actions.append(f"d dh {number[p.seat]} {''.join(cards) if cards and hand.done else '??' * 5}")
    for event in hand.events:
        kind = event["type"]
        if kind == "board":
            actions.append(f"d db {''.join(event['cards'])}")
            if event.get("burn"):
                burns.append(event["burn"])
        elif kind == "action":
            who = number[event["seat"]]
            if event["action"] == "fold":
                actions.append(f"{who} f")
            elif event["action"] in ("check", "call"):
                actions.append(f"{who} cc")
            else:
                actions.append(f"{who} cbr {event['to']}")
        elif kind == "show":
            actions.append(f"{number[event['seat']]} sm {''.join(event['cards'])}")
        elif kind == "muck":
            actions.append(f"{number[event['seat']]} sm")
    fields: list[tuple[str, object]] = [
        ("variant", PHH_VARIANTS[(config.game, config.betting)]),
        ("antes", antes),
        ("blinds_or_straddles", blinds),
    ]
    if config.betting == "fixed_limit":
        fields += [("small_bet", config.small_bet), ("big_bet", config.big_bet)]
    else:
        fields.append(("min_bet", config.big_blind))
    fields += [
        ("starting_stacks", [p.start for p in players]),
        ("actions", actions),
        ("players", [p.player for p in players]),
        ("seats", [p.seat for p in players]),
    ]
    if hand.done:
        won = {p.seat: 0 for p in players}
        for event in hand.events:
            if event["type"] == "award":
                won[event["seat"]] += event["amount"]
        fields += [
            ("finishing_stacks", [p.stack for p in players]),
            ("winnings", [won[p.seat] for p in players]),
        ]
    for key, value in extra.items():
        fields.append((key, value))
    fields += [
        ("_game", config.game),
        ("_betting", config.betting),
        ("_button_seat", config.button_seat),
        ("_small_blind_seat", config.small_blind_seat if config.small_blind_seat is not None else 0),
        ("_big_blind_seat", config.big_blind_seat),
        ("_ante_kind", config.ante_kind),
        ("_smallest_chip", config.smallest_chip),
        ("_cap_raises", config.cap_raises),
        ("_deal_mode", config.deal_mode),
        ("_first_flop_card", hand.board[0] if hand.board else ""),
    ]
    if hand.seed is not None and hand.done:  # the seed is secret until the hand is over (RULES 7.6)
        fields += [("_seed", hand.seed.hex()), ("_burns", burns)]
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields)


def _cards(cards) -> str:
    return "[" + " ".join(cards) + "]"


def to_text(hand: Hand, title: str = "") -> str:
    """A readable history, like a cardroom's. Hole cards appear only when shown (and, for the dealer's
    copy with ``hand.done``, as dealt)."""
    config = hand.config
    # Names and the title come from stored strings: escaped, so none can start a line of its own
    # (a name holding "\n*** SUMMARY ***" cannot forge the summary).
    name = {p.seat: escape_line(p.player) for p in hand.players}
    title = escape_line(title)
    stakes = f"{config.small_blind}/{config.big_blind}"
    if config.betting == "fixed_limit":
        stakes = f"{config.small_bet}/{config.big_bet}, blinds {stakes}"
    if config.ante_kind != "none":
        stakes += f", ante {config.ante}" + (" (big blind ante)" if config.ante_kind == "big_blind" else "")
    lines = []
    if title:
        lines.append(title)
    lines.append(f"{GAME_NAMES[config.game]} {BETTING_NAMES[config.betting]} ({stakes})")
    button = f"Seat {config.button_seat} is the button"
    if config.button_seat not in name:
        button += " (dead button)"
    if config.small_blind_seat is None:
        button += "; no small blind (dead)"
    lines.append(button)
    for p in hand.players:
        lines.append(f"Seat {p.seat}: {name[p.seat]} ({p.start} in chips)")
    street_bet = {}
    board: list[str] = []
    hole_header = False
    for event in hand.events:
        kind = event["type"]
        who = name.get(event.get("seat"), "")
        if kind == "post":
            label = {
                "ante": "the ante",
                "small_blind": "small blind",
                "big_blind": "big blind",
                "big_blind_ante": "the big blind ante",
            }[event["blind"]]
            lines.append(
                f"{who}: posts {label} {event['amount']}" + (" and is all-in" if event["all_in"] else "")
            )
            if event["blind"] in ("small_blind", "big_blind"):
                street_bet[event["seat"]] = event["amount"]
            if event["blind"] == "big_blind":
                # R5.6: the big blind is the bet to call even when it was posted short.
                street_bet[0] = config.big_blind
        elif kind == "hole":
            if not hole_header:
                lines.append("*** HOLE CARDS ***")
                hole_header = True
            if hand.done:
                lines.append(f"Dealt to {who} {_cards(event['cards'])}")
        elif kind == "board":
            if not hole_header:
                lines.append("*** HOLE CARDS ***")
                hole_header = True
            shown = f"{_cards(board)} {_cards(event['cards'])}" if board else _cards(event["cards"])
            board += event["cards"]
            lines.append(f"*** {STREET_TITLES[event['street']]} *** {shown}")
            if event["street"] != "flop1":  # the first flop card comes before the pre-flop betting
                street_bet = {}
        elif kind == "action":
            action = event["action"]
            tail = " and is all-in" if event["all_in"] else ""
            if action == "fold":
                lines.append(f"{who}: folds")
            elif action == "check":
                lines.append(f"{who}: checks")
            elif action == "call":
                lines.append(f"{who}: calls {event['amount']}{tail}")
            elif action == "bet":
                lines.append(f"{who}: bets {event['to']}{tail}")
            else:
                before = max(street_bet.values(), default=0)
                lines.append(f"{who}: raises {event['to'] - before} to {event['to']}{tail}")
            street_bet[event["seat"]] = event["to"]
        elif kind == "return":
            lines.append(f"Uncalled bet ({event['amount']}) returned to {who}")
        elif kind == "show":
            if not any(line == "*** SHOWDOWN ***" for line in lines):
                lines.append("*** SHOWDOWN ***")
            lines.append(f"{who}: shows {_cards(event['cards'])}")
        elif kind == "muck":
            lines.append(f"{who}: mucks")
        elif kind == "award":
            pot = "the main pot" if event["pot"] == 0 else f"side pot {event['pot']}"
            share = {"pot": "", "high": " (high)", "low": " (low)"}[event["share"]]
            with_hand = f" with {event['hand']}" if event["hand"] else ""
            lines.append(f"{who} collected {event['amount']} from {pot}{share}{with_hand}")
    result = hand.result()
    if result:
        lines.append("*** SUMMARY ***")
        total = sum(pot["amount"] for pot in result["pots"])
        pots = ""
        if len(result["pots"]) > 1:
            pots = " " + " | ".join(
                ("Main pot" if pot["number"] == 0 else f"Side pot {pot['number']}") + f" {pot['amount']}"
                for pot in result["pots"]
            )
        lines.append(f"Total pot {total}" + (f" -{pots}" if pots else ""))
        if result["board"]:
            lines.append(f"Board {_cards(result['board'])}")
        for stack in result["stacks"]:
            net = stack["net"]
            lines.append(
                f"Seat {stack['seat']}: {escape_line(stack['player'])} finishes with {stack['stack']} "
                f"({'+' if net > 0 else ''}{net})"
            )
    return "\n".join(lines) + "\n"
