"""The blind-structure templates shipped with the product, loaded by a data migration.

Three speeds (turbo, regular, deep) for each betting structure. No limit and pot limit use the same
blinds with a big-blind ante from the fourth level; fixed limit names its stakes by small and big
bet, with the big blind equal to the small bet and a small blind that need not be half of it
(R3.2, R3.3: 15/30 plays 10/15 blinds) and no antes. Breaks come every few levels, and at a break the
smallest chip is colored up as soon as no later level needs it (R8.7).

Pure data and functions: the migration passes in its historical models.
"""

CHIPS = [25, 100, 500, 1000, 5000, 25000, 100000]

# (small blind, big blind) for no limit and pot limit.
BLINDS = [
    (25, 50),
    (50, 100),
    (75, 150),
    (100, 200),
    (150, 300),
    (200, 400),
    (300, 600),
    (400, 800),
    (500, 1000),
    (600, 1200),
    (800, 1600),
    (1000, 2000),
    (1200, 2400),
    (1500, 3000),
    (2000, 4000),
    (2500, 5000),
    (3000, 6000),
    (4000, 8000),
    (5000, 10000),
    (6000, 12000),
    (8000, 16000),
    (10000, 20000),
    (12000, 24000),
    (15000, 30000),
    (20000, 40000),
    (25000, 50000),
    (30000, 60000),
    (40000, 80000),
    (50000, 100000),
    (60000, 120000),
    (80000, 160000),
    (100000, 200000),
]

# (small blind, small bet) for fixed limit: the big blind is the small bet, the big bet twice it.
LIMITS = [
    (25, 50),
    (50, 75),
    (50, 100),
    (100, 150),
    (100, 200),
    (200, 300),
    (200, 400),
    (300, 500),
    (300, 600),
    (500, 800),
    (500, 1000),
    (1000, 1500),
    (1000, 2000),
    (2000, 3000),
    (2000, 4000),
    (3000, 5000),
    (3000, 6000),
    (5000, 8000),
    (5000, 10000),
    (10000, 15000),
    (10000, 20000),
    (15000, 25000),
    (15000, 30000),
    (25000, 40000),
    (25000, 50000),
    (50000, 75000),
    (50000, 100000),
    (50000, 150000),
]

SPEEDS = {
    # name: (minutes per level, levels between breaks, break minutes, first blind index, levels, stack)
    "turbo": (10, 6, 10, 1, 22, 10000),
    "regular": (20, 4, 15, 1, 24, 20000),
    "deep": (30, 4, 15, 0, 28, 40000),
}

BETTING_NAMES = {"no_limit": "No Limit", "pot_limit": "Pot Limit", "fixed_limit": "Fixed Limit"}
ANTE_FROM_LEVEL = 4  # 1-based: the big-blind ante starts here (no limit and pot limit)


def _play_levels(betting: str, first: int, count: int) -> list[dict]:
    levels = []
    if betting == "fixed_limit":
        for sb, small_bet in LIMITS[first : first + count]:
            levels.append(
                {
                    "small_blind": sb,
                    "big_blind": small_bet,
                    "small_bet": small_bet,
                    "big_bet": 2 * small_bet,
                    "ante": 0,
                    "ante_kind": "none",
                }
            )
    else:
        for number, (sb, bb) in enumerate(BLINDS[first : first + count], start=1):
            ante = bb if number >= ANTE_FROM_LEVEL else 0
            levels.append(
                {
                    "small_blind": sb,
                    "big_blind": bb,
                    "small_bet": 0,
                    "big_bet": 0,
                    "ante": ante,
                    "ante_kind": "big_blind" if ante else "none",
                }
            )
    return levels


def _amounts(level: dict) -> list[int]:
    return [
        v for k, v in level.items() if k in ("small_blind", "big_blind", "ante", "small_bet", "big_bet") and v
    ]


def color_ups(later_levels: list[dict], in_play: list[int]) -> list[int]:
    """The smallest chips no later level needs: every later amount is a multiple of the next chip."""
    removed = []
    amounts = [a for level in later_levels for a in _amounts(level)]
    while len(in_play) - len(removed) > 1:
        next_chip = in_play[len(removed) + 1]
        if amounts and all(a % next_chip == 0 for a in amounts):
            removed.append(in_play[len(removed)])
        else:
            break
    return removed


def template_levels(betting: str, speed: str) -> list[dict]:
    """The levels and breaks of one template, in order, as field dicts for ``Level``."""
    minutes, every, break_minutes, first, count, _stack = SPEEDS[speed]
    play = _play_levels(betting, first, count)
    levels = []
    in_play = list(CHIPS)
    for number, level in enumerate(play, start=1):
        levels.append({**level, "is_break": False, "duration_minutes": minutes, "color_up": []})
        if number % every == 0 and number < len(play):
            removed = color_ups(play[number:], in_play)
            in_play = [c for c in in_play if c not in removed]
            levels.append(
                {
                    "is_break": True,
                    "duration_minutes": break_minutes,
                    "small_blind": 0,
                    "big_blind": 0,
                    "small_bet": 0,
                    "big_bet": 0,
                    "ante": 0,
                    "ante_kind": "none",
                    "color_up": removed,
                }
            )
    return levels


def templates() -> list[dict]:
    result = []
    for betting, betting_name in BETTING_NAMES.items():
        for speed, (minutes, every, break_minutes, _first, _count, stack) in SPEEDS.items():
            result.append(
                {
                    "name": f"{speed.capitalize()} - {betting_name}",
                    "betting": betting,
                    "starting_stack": stack,
                    "description": (
                        f"{minutes}-minute levels, a {break_minutes}-minute break every {every} levels with "
                        f"color-ups; designed for a starting stack of {stack:,}."
                    ),
                    "levels": template_levels(betting, speed),
                }
            )
    return result


def install_templates(BlindStructure, Level, *, with_chips: bool = True) -> int:
    """Create the shipped templates that are missing (by name). Returns how many were created.

    ``with_chips``: the structure model has its chip set (migrations before it pass False)."""
    created = 0
    for template in templates():
        if BlindStructure.objects.filter(name=template["name"], is_template=True).exists():
            continue
        structure = BlindStructure.objects.create(
            name=template["name"],
            betting=template["betting"],
            is_template=True,
            description=template["description"],
            starting_stack=template["starting_stack"],
            **({"chip_denominations": list(CHIPS)} if with_chips else {}),
        )
        Level.objects.bulk_create(
            Level(structure=structure, order=order, **fields)
            for order, fields in enumerate(template["levels"])
        )
        created += 1
    return created
