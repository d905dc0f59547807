"""How long the dealing service takes per tablet input and per hand, through the services and over
HTTP (DRF test client), on a throw-away SQLite file.

    .venv/bin/python tests/bench/bench_dealing.py [--hands 20]

Each input locks the hand, replays its events through the engine (the events are the truth), appends
the new events and refreshes the cached views; the end of a hand also writes the stacks, busts and
the table. Figures are printed, never asserted.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()

    directory = tempfile.mkdtemp()
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.test import APIClient

    from dealing import services
    from tests.factories import make_table

    call_command("migrate", interactive=False, verbosity=0)
    staff = get_user_model().objects.create_user("bench", is_staff=True)
    client = APIClient()
    client.force_authenticate(staff)

    for mode in ("services", "http"):
        _tournament, table = make_table(stacks=(10**6,) * 6, extra_entries=2, name=f"Bench {mode}")
        inputs, hands = [], []
        for _ in range(args.hands):
            started = time.perf_counter()
            hand = services.start_next_hand(table, actor=staff)
            seq = services.last_seq(hand)
            count = 0
            while True:
                hand.refresh_from_db()
                if hand.status != "running":
                    break
                view = services.snapshot(hand)["full"]
                options = view["options"]
                body = {
                    "type": "action",
                    "seat": view["to_act"],
                    "action": "call" if options["call"] else "check",
                }
                t0 = time.perf_counter()
                if mode == "services":
                    result = services.apply_input(
                        hand, body, expected_seq=seq, client_action_id=f"c{time.time_ns()}", actor=staff
                    )
                    seq = result.last_seq
                else:
                    response = client.post(
                        f"/api/hands/{hand.pk}/actions/",
                        {**body, "client_action_id": f"c{time.time_ns()}", "expected_seq": seq},
                        format="json",
                    )
                    assert response.status_code == 200, response.content
                    seq = response.json()["last_seq"]
                inputs.append(time.perf_counter() - t0)
                count += 1
            hands.append((time.perf_counter() - started, count))
        inputs.sort()
        print(
            f"{mode:8}: {len(inputs)} inputs over {len(hands)} six-player hands: per input median "
            f"{statistics.median(inputs) * 1000:.1f} ms, p95 {inputs[int(len(inputs) * 0.95)] * 1000:.1f} ms; "
            f"per hand (start to end, {statistics.mean(c for _, c in hands):.0f} inputs) "
            f"{statistics.median(t for t, _ in hands) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
