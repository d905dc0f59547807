"""The tournament the live-screen tests (and the browser tests' server) show: Courchevel Hi/Lo,
pot limit, 3,000 chips, a break with a color-up, and antes of both kinds."""

from tests import factories


def live_levels(minutes: int = 20) -> list[dict]:
    return [
        factories.level(10, 20, minutes=minutes),
        factories.level(15, 30, ante=5, ante_kind="per_player", minutes=minutes),
        factories.pause(minutes, color_up=[5]),
        factories.level(25, 50, ante=50, ante_kind="big_blind", minutes=minutes),
        factories.level(50, 100, ante=100, ante_kind="big_blind", minutes=minutes),
    ]


def live_tournament(
    *,
    level_minutes=20,
    players=6,
    seats_per_table=8,
    game="courchevel_hilo",
    betting="pot_limit",
    name="Live test",
    start=True,
    master_seed=False,
):
    """Registration open with ``players`` registered; drawn when there are players; started when
    ``start`` and two or more are seated. ``master_seed``: a (random) master seed, as in a rehearsal."""
    if not players:
        stage = "registering"
    elif start and players >= 2:
        stage = "running"
    else:
        stage = "drawn"
    fields = {"seeding": "master"} if master_seed else {}
    return factories.make_tournament(
        stage=stage,
        players=players,
        levels=live_levels(level_minutes),
        name=name,
        game=game,
        betting=betting,
        starting_stack=3000,
        buy_in=100,
        seats_per_table=seats_per_table,
        **fields,
    )
