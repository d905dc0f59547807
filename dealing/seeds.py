"""Where each hand's seed comes from (RULES section 7.5)."""

import secrets

from dealing.engine import hand_seed, seed_commitment


def draw_seed(tournament, table_number: int, hand_number: int) -> bytes:
    """The hand's seed: derived from the master seed in a rehearsal, else 32 fresh secure bytes."""
    master = master_seed_of(tournament)
    if master is not None:
        return hand_seed(master, table_number, hand_number)
    return secrets.token_bytes(32)


def master_seed_of(tournament) -> bytes | None:
    if getattr(tournament, "seeding", "fresh") != "master":
        return None
    master = getattr(tournament, "master_seed", None)
    return bytes(master) if master else None


__all__ = ["draw_seed", "master_seed_of", "seed_commitment"]
