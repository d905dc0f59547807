"""The server the browser tests drive: a file SQLite database with the test data, served by daphne.

Run as ``python -m tests.screens.browser_server DB_PATH PORT``: migrates, writes the data, prints one
JSON line describing it, then serves HTTP and WebSockets (static files included) until killed.
No clock ticker runs, so a clock screen that moves on does so by itself. Not collected by pytest.
"""

import json
import os
import sys


def find_split_seed(tournament, table) -> bytes:
    """A master seed whose first hand at ``table``, checked and called down, splits the pot between
    a high winner and a different low winner (Hi/Lo, R6.4)."""
    from dealing.engine import Hand as EngineHand
    from dealing.engine import HandConfig, hand_seed
    from dealing.services import _dealt_in, build_config

    config = HandConfig.from_dict(build_config(tournament, table, _dealt_in(table), deal_mode="seeded"))
    for i in range(1, 5000):
        master = i.to_bytes(32, "big")
        hand = EngineHand.start(config, hand_seed(master, table.number, 1))
        while not hand.done:
            options = hand.options()
            hand.act(options.seat, "check" if "check" in options.actions else "call")
        awards = [a for pot in hand.result()["pots"] for a in pot["awards"]]
        high = {a["seat"] for a in awards if a["share"] == "high"}
        low = {a["seat"] for a in awards if a["share"] == "low"}
        if len(high) == 1 and len(low) == 1 and high != low:
            return master
    raise RuntimeError("no split-pot seed found")


def main(db_path: str, port: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from dealing.engine import seed_commitment
    from screens.models import Announcement
    from tests.screens.conftest import make_tournament

    call_command("migrate", interactive=False, verbosity=0)
    get_user_model().objects.create_user(
        "director", password="browser-director-pw", is_staff=True, is_superuser=True
    )
    clock_t = make_tournament(
        players=18, name="Courchevel Hi/Lo Deepstack", level_minutes=20, master_seed=True
    )
    Announcement.objects.create(tournament=clock_t, text="Late registration closes at the end of level 4")
    hand_t = make_tournament(players=3, name="Split pot table", level_minutes=20)
    table = hand_t.tables.get()
    seats = [s.number for s in table.seat_set.filter(entry__isnull=False).order_by("number")]
    type(table).objects.filter(pk=table.pk).update(button_seat=seats[0])
    table.refresh_from_db()
    master = find_split_seed(hand_t, table)
    type(hand_t).objects.filter(pk=hand_t.pk).update(
        seeding="master", master_seed=master, master_seed_commitment=seed_commitment(master)
    )
    warm_up(clock_t, hand_t)
    print(
        json.dumps(
            {
                "clock_tournament": clock_t.pk,
                "hand_tournament": hand_t.pk,
                "hand_table": table.pk,
                "username": "director",
                "password": "browser-director-pw",
            }
        ),
        flush=True,
    )
    serve(port)


def warm_up(*tournaments) -> None:
    """Render every page once, so the first browser request does not pay for imports and templates."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.get("/login/")
    client.force_login(get_user_model().objects.get(username="director"))
    for tournament in tournaments:
        client.get(f"/console/{tournament.pk}/")
        client.get(f"/clock/{tournament.pk}/")
    client.get(f"/tablet/{tournaments[-1].tables.first().pk}/")


def exit_with_parent() -> None:
    """Stop when the pytest run that started this server is gone, even if it was killed."""
    import threading
    import time

    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def serve(port: int) -> None:
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    exit_with_parent()
    Server(
        application=ASGIStaticFilesHandler(application),
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=port),
        signal_handlers=True,
        verbosity=0,
    ).run()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
