"""The server the browser tests drive: a file SQLite database with the test data, served by daphne.

Run as ``python -m tests.screens.browser_server DB_PATH PORT``: migrates, writes the data, prints one
JSON line describing it, then serves HTTP and WebSockets (static files included) until killed.
No clock ticker runs, so a clock screen that moves on does so by itself. Not collected by pytest.

``BrowserServer`` is the pytest side: it starts that process on a free port and stops it.
"""

import json
import os
import sys


class BrowserServer:
    def __init__(self):
        import socket
        import subprocess
        import tempfile
        from pathlib import Path

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        # In memory where the machine has it: a busy disk (the other workers' databases) never
        # stalls this server's commits.
        shm = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        self.dir = tempfile.TemporaryDirectory(prefix="live-browser-", dir=shm)
        db = Path(self.dir.name) / "db.sqlite3"
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115 - the server writes to it until it stops
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        # The server runs as in production: a sync ORM call on its event loop raises at once instead
        # of blocking every socket and request (the pytest process allows it for its own tests).
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        root = Path(__file__).resolve().parents[2]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.screens.browser_server", str(db), str(self.port)],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
            text=True,
        )
        self.data = None

    def ready(self, timeout: float = 180):
        import select
        import socket
        import time

        if self.data is None:
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            line = self.proc.stdout.readline() if ready else ""
            if not line:
                raise RuntimeError(
                    f"the browser tests' server did not start: {self.log_path.read_text()[-3000:]}"
                )
            self.data = json.loads(line)
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or self.proc.poll() is not None:
                        raise RuntimeError("the browser tests' server is not listening") from None
                    time.sleep(0.2)
        return f"http://127.0.0.1:{self.port}", self.data

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
        self.log.close()
        keep = os.environ.get("BROWSER_SERVER_LOGS")  # a folder: keep each server's log there
        if keep:
            import shutil

            os.makedirs(keep, exist_ok=True)
            shutil.copy(self.log_path, os.path.join(keep, f"server-{self.port}.log"))
        self.dir.cleanup()


SERVER_KEY = "live_browser_server"


def browser_server(config) -> BrowserServer:
    """The run's one server (started on first use), kept on the pytest config."""
    server = getattr(config, SERVER_KEY, None)
    if server is None:
        server = BrowserServer()
        setattr(config, SERVER_KEY, server)
    return server


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

    from screens.models import Announcement
    from tests.factories import set_button, set_master_seed
    from tests.screens.live import live_tournament
    from tournaments.services import set_hand_for_hand

    call_command("migrate", interactive=False, verbosity=0)
    get_user_model().objects.create_user(
        "director", password="browser-director-pw", is_staff=True, is_superuser=True
    )
    clock_t = live_tournament(
        players=18, name="Courchevel Hi/Lo Deepstack", level_minutes=20, master_seed=True
    )
    Announcement.objects.create(tournament=clock_t, text="Late registration closes at the end of level 4")
    hand_t = live_tournament(players=3, name="Split pot table", level_minutes=20)
    table = hand_t.tables.get()
    seats = [s.number for s in table.seat_set.filter(entry__isnull=False).order_by("number")]
    set_button(table, seats[0])
    set_master_seed(hand_t, find_split_seed(hand_t, table))
    # The all-in run-outs (tests/screens/test_browser_all_in.py): a no-limit table, and one in
    # hand-for-hand whose run-out waits for the floor (R8.6).
    all_in_t = live_tournament(players=3, name="Feature table", game="courchevel_hilo", betting="no_limit")
    held_t = live_tournament(players=2, name="Hand-for-hand all-in", game="courchevel", betting="no_limit")
    set_hand_for_hand(held_t, True)
    moved = moved_seat_scenario()
    broken = break_and_redraw_scenario()
    seating = seating_scenario()
    # The dealer's mis-taps (tests/screens/test_browser_taps.py): a no-limit table of three.
    taps_t = live_tournament(players=3, name="Taps", game="courchevel", betting="no_limit")
    # A table on the break before a big-blind-ante level (tests/screens/test_browser_taps.py).
    from tournaments.services import jump_to_level

    break_t = live_tournament(players=3, name="On a break", game="courchevel", betting="no_limit")
    offline_t = live_tournament(players=3, name="Wi-Fi drops", game="courchevel", betting="no_limit")
    a11y_t = live_tournament(players=4, name="Accessible table", game="courchevel_hilo", betting="pot_limit")
    folds_t = live_tournament(players=3, name="Everyone folds", game="courchevel_hilo", betting="pot_limit")
    undo_t = live_tournament(players=3, name="Undo with the floor PIN", game="courchevel", betting="no_limit")
    positions_t = live_tournament(players=4, name="Button drawn", game="courchevel", betting="no_limit")
    positions_table = positions_t.tables.get()
    set_button(
        positions_table, positions_table.seat_set.filter(entry__isnull=False).order_by("number")[1].number
    )
    jump_to_level(break_t, 2)
    floor = floor_scenario()
    deal_t = deal_scenario()
    roles = roles_scenario()
    live_console = live_console_scenario()
    alternates = alternates_scenario()
    warm_up(clock_t, hand_t, all_in_t, held_t)
    print(
        json.dumps(
            {
                "clock_tournament": clock_t.pk,
                "hand_tournament": hand_t.pk,
                "hand_table": table.pk,
                "all_in_tournament": all_in_t.pk,
                "all_in_table": all_in_t.tables.get().pk,
                "held_tournament": held_t.pk,
                "held_table": held_t.tables.get().pk,
                **moved,
                **broken,
                **seating,
                "taps_table": taps_t.tables.get().pk,
                "break_table": break_t.tables.get().pk,
                "offline_table": offline_t.tables.get().pk,
                "a11y_table": a11y_t.tables.get().pk,
                "folds_table": folds_t.tables.get().pk,
                "undo_tournament": undo_t.pk,
                "undo_table": undo_t.tables.get().pk,
                "positions_table": positions_table.pk,
                **floor,
                "deal_tournament": deal_t.pk,
                **roles,
                **live_console,
                **alternates,
                "username": "director",
                "password": "browser-director-pw",
            }
        ),
        flush=True,
    )
    serve(port)


def moved_seat_scenario() -> dict:
    """A table whose last hand went to a showdown, after which the player who showed at one seat was
    moved away and another player sat down there (tests/screens/test_browser_moves.py)."""
    from django.contrib.auth import get_user_model

    from dealing import services as dealing
    from tables import services as tables_services
    from tables.models import Seat
    from tests.screens.live import live_tournament

    director = get_user_model().objects.get(username="director")
    tournament = live_tournament(players=10, name="Moved seats", game="courchevel", betting="pot_limit")
    first, second = tournament.tables.order_by("number")
    hand = dealing.start_next_hand(first, actor=director)
    while True:
        hand.refresh_from_db()
        if hand.status != "running":
            break
        view = dealing.snapshot(hand)["full"]
        options = view["options"]
        body = {"type": "action", "seat": view["to_act"], "action": "call" if options["call"] else "check"}
        dealing.apply_input(hand, body, expected_seq=dealing.last_seq(hand), actor=director)
    shown = [p for p in dealing.public_view(hand)["players"] if p.get("cards")]
    seat_number = shown[0]["seat"]
    leaving = Seat.objects.get(table=first, number=seat_number).entry
    free = second.seat_set.filter(entry__isnull=True).order_by("number").first()
    tables_services.move_entry(leaving, second, free.number, reason="balancing by hand", actor=director)
    arriving = second.seat_set.filter(entry__isnull=False).exclude(entry=leaving).order_by("number").first()
    arriving_entry = arriving.entry
    tables_services.move_entry(arriving_entry, first, seat_number, reason="balancing by hand", actor=director)
    arriving_entry.refresh_from_db()
    return {
        "moved_table": first.pk,
        "moved_seat": seat_number,
        "moved_in": arriving_entry.player.name,
        "moved_in_chips": arriving_entry.chips,
    }


def floor_scenario() -> dict:
    """The floor page's room (tests/screens/test_console_floor_browser.py): two tables of five; table 1
    has a hand in progress with one input made, table 2 sits between hands to be counted; and a floor
    person (the Floor role) to sign in."""
    from django.contrib.auth import get_user_model

    from dealing import services as dealing
    from screens.roles import FLOOR, ensure_roles
    from tests.screens.live import live_tournament

    user = get_user_model().objects.create_user("floor", password="browser-floor-pw", is_staff=True)
    user.groups.set([ensure_roles()[FLOOR]])
    tournament = live_tournament(
        players=10, seats_per_table=5, name="Floor rounds", game="courchevel", betting="no_limit"
    )
    table = tournament.tables.get(number=1)
    hand = dealing.start_next_hand(table, actor=user)
    view = dealing.snapshot(hand)["full"]
    dealing.apply_input(
        hand,
        {"type": "action", "seat": view["to_act"], "action": "call"},
        expected_seq=dealing.last_seq(hand),
        actor=user,
    )
    return {
        "floor_tournament": tournament.pk,
        "floor_hand": hand.label,
        "floor_caller": view["to_act"],
        "floor_username": "floor",
        "floor_password": "browser-floor-pw",
    }


def break_and_redraw_scenario() -> dict:
    """Two rooms for tests/screens/test_browser_moves.py, each shaped by the balancing service itself:
    three tables of six where the last one, after a hand, is down to two players and breaks (R8.4);
    and two tables that fit at the final table and are redrawn (R8.5)."""
    from django.contrib.auth import get_user_model

    from dealing import services as dealing
    from tables import services as tables_services
    from tests.screens.live import live_tournament
    from tournaments.models import Entry

    director = get_user_model().objects.get(username="director")

    def bust_all_but(table, keep):
        for seat in table.seat_set.filter(entry__isnull=False).order_by("number")[keep:]:
            Entry.objects.filter(pk=seat.entry_id).update(status=Entry.Status.BUSTED, chips=0)

    room = live_tournament(players=18, name="A table breaks", game="courchevel", betting="no_limit")
    *_kept, last = room.tables.order_by("number")
    hand = dealing.start_next_hand(last, actor=director)
    while True:  # everybody folds to the big blind: a result to keep on the broken table's tablet
        hand.refresh_from_db()
        if hand.status != "running":
            break
        view = dealing.snapshot(hand)["full"]
        dealing.apply_input(
            hand,
            {"type": "action", "seat": view["to_act"], "action": "fold"},
            expected_seq=dealing.last_seq(hand),
        )
    bust_all_but(last, 2)
    tables_services.balance(room, actor=director)

    final = live_tournament(players=12, name="Final table redraw", game="courchevel", betting="no_limit")
    first, second = final.tables.order_by("number")
    bust_all_but(first, 4)
    bust_all_but(second, 3)
    tables_services.balance(final, actor=director)
    final_table = final.tables.filter(status="active").get()
    return {"broken_table": last.pk, "final_table": final_table.pk}


def deal_scenario():
    """A final table of five (tests/screens/test_console_deal_browser.py): entries of 1,000 paying
    2,500/1,500/1,000; two finalists lost their last hand (0 chips, to bust), three are left with
    2,500, 1,500 and 1,000 chips."""
    from tests import factories
    from tournaments import services

    t = factories.make_tournament(
        players=5, name="Final table deal", buy_in=1000, payout_percentages=[50, 30, 20], starting_stack=1000
    )
    entries = list(t.entries.order_by("pk"))
    for entry, chips in zip(entries, [2500, 1500, 1000]):
        services.set_chips(entry, chips, reason="final table count")
    for entry in entries[3:]:
        factories.zero(entry)
    return t


def seating_scenario() -> dict:
    """Three tables of six at 8-seat tables, late registration open, the director reviewing balancing
    moves (so only the director's own changes move anyone): tests/screens/test_console_seating_browser.py."""
    from tables import services as tables_services
    from tests.screens.live import live_tournament

    tournament = live_tournament(players=18, name="Seats and tables", game="courchevel", betting="no_limit")
    tables_services.update_plan(tournament, review_moves=True)
    return {"seating_tournament": tournament.pk}


def roles_scenario() -> dict:
    """tests/screens/test_console_roles_browser.py: a desk and a floor account (screens.roles), and a
    running tournament with late registration open and one player with no chips left to bust."""
    from django.contrib.auth import get_user_model

    from screens.roles import DESK, FLOOR, set_role
    from tests import factories
    from tournaments.models import Entry

    users = {}
    for username, role in (("desk", DESK), ("floor", FLOOR)):
        # The floor scenario may have made the floor account already: the same one, same password.
        user, _made = get_user_model().objects.get_or_create(username=username)
        user.set_password(f"browser-{username}-pw")
        user.save()
        set_role(user, role)
        users[f"{username}_username"], users[f"{username}_password"] = username, f"browser-{username}-pw"
    tournament = factories.make_tournament(
        players=6, stage="running", name="Roles at work", late_registration_until_level=4
    )
    out = tournament.entries.order_by("pk").first()
    Entry.objects.filter(pk=out.pk).update(chips=0)
    return {**users, "roles_tournament": tournament.pk, "roles_busted_entry": str(out)}


def live_console_scenario() -> dict:
    """A running tournament with late registration open, a player left with no chips (to be busted)
    and a table calling the floor (tests/screens/test_console_live_browser.py)."""
    from screens.floor import call_floor
    from tests.screens.live import live_tournament
    from tournaments.models import Entry, Tournament

    tournament = live_tournament(players=6, name="Live console", game="courchevel", betting="no_limit")
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_until_level=4)
    broke = tournament.entries.select_related("player").order_by("player__name").first()
    Entry.objects.filter(pk=broke.pk).update(chips=0)
    call_floor(tournament.tables.get())
    return {"live_console_tournament": tournament.pk, "live_console_broke": str(broke)}


def alternates_scenario() -> dict:
    """tests/screens/test_desk_alternates_browser.py: a running tournament whose field is full (4 of a
    maximum of 4), late registration open, and one player with no chips left to bust."""
    from tests.screens.live import live_tournament
    from tournaments.models import Entry, Tournament

    tournament = live_tournament(players=4, name="Full house", game="courchevel", betting="no_limit")
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_until_level=4, max_players=4)
    out = tournament.entries.select_related("player").order_by("pk").first()
    Entry.objects.filter(pk=out.pk).update(chips=0)
    return {"alternates_tournament": tournament.pk, "alternates_broke": str(out)}


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
    client.get(f"/feature/{tournaments[-1].tables.first().pk}/")


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


SLOW_REQUEST_SECONDS = 2.0


def log_slow_requests(app):
    """Every HTTP request slower than SLOW_REQUEST_SECONDS is written to the server's log, with its
    time: a browser test that waited on this server says where (the log is shown on failure)."""
    import logging
    import time

    logger = logging.getLogger("browser_server")

    async def timed(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        start = time.monotonic()
        status = {}

        async def send_status(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            return await app(scope, receive, send_status)
        finally:
            took = time.monotonic() - start
            if took > SLOW_REQUEST_SECONDS:
                logger.warning(
                    "slow request: %s %s answered %s after %.1f s",
                    scope["method"],
                    scope["path"],
                    status.get("code", "nothing"),
                    took,
                )

    return timed


def serve(port: int) -> None:
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    exit_with_parent()
    Server(
        application=log_slow_requests(ASGIStaticFilesHandler(application)),
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=port),
        signal_handlers=True,
        verbosity=0,
    ).run()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
