"""Limits (config.limits, config.converters): a body over the limit is 413, a JSON document nested too
deeply 400, an id beyond 64 bits in a path 404 and in a query parameter 400, a WebSocket message too
big or malformed closes the socket; never a 500, and nothing changes."""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter
from rest_framework.test import APIClient

from config.asgi import application
from config.converters import MAX_ID, IdConverter
from config.limits import BodyLimit, json_depth
from dealing.models import Hand, HandEvent
from screens.models import DeviceKind
from screens.pairing import create_pairing_code, redeem_pairing_code
from screens.routing import websocket_urlpatterns
from tests.factories import make_table as make_tournament
from tournaments.models import AuditEntry, Player, Tournament

HUGE = [2**63, 10**30]


def routes(patterns=None, prefix="", ids=frozenset(), router=False):
    """(URL template with ``{name}`` for each argument, the names that are ids, whether DRF's router
    made it) for every URL pattern of the project: ``<id:...>`` arguments, and the ``pk`` of the
    router's regular expressions (these resolve whatever the number: the view answers 404, or 405
    for a method the view does not have)."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        pattern = entry.pattern
        names = ids | {n for n, c in getattr(pattern, "converters", {}).items() if isinstance(c, IdConverter)}
        text = str(pattern)
        regex_ids = {"pk"} & set(re.findall(r"\(\?P<(\w+)>", text))
        names |= regex_ids
        router = router or bool(regex_ids)
        text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", text)  # regular expressions (DRF's router)
        text = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text)  # route patterns
        text = text.replace("^", "").replace("$", "").replace("\\.", ".").replace("\\Z", "")
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + text, frozenset(names), router)
        elif isinstance(entry, URLPattern):
            yield "/" + prefix + text, frozenset(names), router


def all_converters(patterns=None):
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        yield entry, getattr(entry.pattern, "converters", {})
        if isinstance(entry, URLResolver):
            yield from all_converters(entry.url_patterns)


def test_no_project_url_takes_an_unbounded_int():
    """Every id in a project URL (and WebSocket route) is an ``<id:...>``, never an ``<int:...>``
    (Django's own admin is checked by the walk below)."""
    checked = 0
    for entry, converters in all_converters():
        module = getattr(getattr(entry, "callback", None), "__module__", "") or ""
        if module.startswith("django.contrib.admin"):
            continue
        for name, converter in converters.items():
            assert not isinstance(converter, IntConverter), (str(entry.pattern), name)
            checked += isinstance(converter, IdConverter)
    for route in websocket_urlpatterns:
        for name, converter in getattr(route.pattern, "converters", {}).items():
            assert isinstance(converter, IdConverter), (str(route.pattern), name)
            checked += 1
    assert checked > 30


def test_the_id_converter_takes_exactly_the_64_bit_range():
    converter = IdConverter()
    assert converter.to_python(str(MAX_ID)) == MAX_ID and converter.to_python("0") == 0
    with pytest.raises(ValueError):
        converter.to_python(str(MAX_ID + 1))
    assert not re.fullmatch(converter.regex, "1" * 20) and not re.fullmatch(converter.regex, "-1")


URLS_WITH_IDS = sorted({route for route in routes() if "{" in route[0]}, key=lambda route: route[0])


@pytest.fixture
def staff_client(django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_superuser("boss", "boss@example.com", None))
    client.raise_request_exception = False
    return client


def _fill(template, value, names=None):
    """The template with ``value`` for every argument in ``names`` (all when None), "x" for the rest."""
    return template.format_map(
        {n: (value if names is None or n in names else "x") for n in re.findall(r"\{(\w+)\}", template)}
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("template", "names", "router"), URLS_WITH_IDS, ids=[r[0] for r in URLS_WITH_IDS])
def test_an_id_beyond_64_bits_is_a_404_on_every_url(staff_client, template, names, router):
    before = (Hand.objects.count(), AuditEntry.objects.count(), Tournament.objects.count())
    for value in HUGE:
        for url in {_fill(template, value, names), _fill(template, value)}:
            for method in ("get", "post", "delete"):
                response = getattr(staff_client, method)(url, {}, format="json")
                if names and url == _fill(template, value, names):
                    # DRF's router: the URL resolves; the view answers 404, or 405 for a method it
                    # does not have, or 400 for an action that checks its body before the object.
                    expected = {400, 404, 405} if router else {404}
                    assert response.status_code in expected, (method, url, response.status_code)
                else:  # a string argument (a code, an admin object id): anything but a server error
                    assert response.status_code < 500, (method, url, response.status_code)
    # The largest id that is one resolves, and is simply not there.
    for method in ("get", "post"):
        response = getattr(staff_client, method)(_fill(template, MAX_ID), {}, format="json")
        assert response.status_code < 500, (method, template, response.status_code)
    assert (Hand.objects.count(), AuditEntry.objects.count(), Tournament.objects.count()) == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "/api/hands/?tournament={n}",
        "/api/hands/?table={n}",
        "/api/hands/{hand}/events/?after={n}",
        "/api/tournaments/{tournament}/moves/?table={n}",
    ],
)
@pytest.mark.parametrize("value", [*HUGE, -(10**30)])
def test_a_query_parameter_beyond_64_bits_is_a_400(staff_client, query, value):
    tournament, table = make_tournament()
    hand = staff_client.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    events = HandEvent.objects.count()
    response = staff_client.get(query.format(n=value, hand=hand, tournament=tournament.pk))
    assert response.status_code == 400, response.content
    assert response.json()["detail"]
    assert HandEvent.objects.count() == events


def nested(depth: int) -> str:
    return '{"stacks": ' + "[" * (depth - 1) + "1" + "]" * (depth - 1) + "}"


def test_json_depth_counts_brackets_outside_strings():
    assert json_depth('{"a": [1, {"b": "[[[[{{{"}]}') == 3
    assert json_depth(nested(20)) == 20 and json_depth("[]") == 1 and json_depth('"x"') == 0


@pytest.mark.django_db
@pytest.mark.parametrize("depth", [settings.API_MAX_JSON_DEPTH + 1, 1000, 19000])
@pytest.mark.parametrize("who", ["anonymous", "staff"])
def test_json_nested_too_deeply_is_a_400(staff_client, who, depth):
    client = staff_client if who == "staff" else APIClient()
    _, table = make_tournament()
    before = (Hand.objects.count(), Player.objects.count())
    # Anonymous may post to the ICM calculator only (the others refuse before reading the body).
    for url in ("/api/icm/", "/api/hands/", "/api/players/") if who == "staff" else ("/api/icm/",):
        response = client.post(url, nested(depth), content_type="application/json")
        assert response.status_code == 400, (url, response.status_code)
        assert response.json()["code"] == "too_deep" and "nested too deeply" in response.json()["detail"]
    if who == "staff":
        body = f'{{"table": {table.pk}, "x": {"[" * depth + "]" * depth}}}'
        assert client.post("/api/hands/", body, content_type="application/json").status_code == 400
    assert (Hand.objects.count(), Player.objects.count()) == before


@pytest.mark.django_db
def test_json_nested_to_the_limit_is_parsed(staff_client):
    response = staff_client.post(
        "/api/icm/", nested(settings.API_MAX_JSON_DEPTH), content_type="application/json"
    )
    assert response.status_code == 400 and "nested too deeply" not in response.json()["detail"]
    ok = staff_client.post("/api/icm/", {"stacks": [500, 300, 200], "payouts": [60, 40]}, format="json")
    assert ok.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "staff"])
def test_an_api_body_over_the_json_limit_is_a_413(staff_client, who):
    client = staff_client if who == "staff" else APIClient()
    before = Player.objects.count()
    url = "/api/players/" if who == "staff" else "/api/icm/"
    body = json.dumps({"name": "x" * settings.API_MAX_JSON_BYTES})
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 413 and response.json()["code"] == "too_large"
    assert str(settings.API_MAX_JSON_BYTES) in response.json()["detail"]
    assert Player.objects.count() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/api/icm/", "application/json"),
        ("/pair/", "text/html"),
        ("/login/", "text/html"),
        ("/admin/login/", "text/html"),
    ],
)
def test_any_body_over_the_request_limit_is_a_413(path, kind):
    client = Client(enforce_csrf_checks=False)
    before = (Player.objects.count(), AuditEntry.objects.count())
    body = "a=" + "x" * settings.REQUEST_MAX_BODY_BYTES
    response = client.post(path, body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413 and response["Content-Type"].startswith(kind)
    assert str(settings.REQUEST_MAX_BODY_BYTES).encode() in response.content
    assert (Player.objects.count(), AuditEntry.objects.count()) == before


async def _asgi(app, headers, chunks):
    """Run one HTTP request through an ASGI app; the body arrives in ``chunks``."""
    scope = {"type": "http", "method": "POST", "path": "/api/icm/", "headers": headers, "query_string": b""}
    queue = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ]
    sent = []

    async def receive():
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("headers", "chunks", "status"),
    [
        ([(b"content-length", str(300 * 1024).encode())], [b"x" * 10], 413),  # declared too big: not read
        ([], [b"x" * (64 * 1024)] * 5, 413),  # streamed without a length, stopped when over
        ([(b"content-length", b"12abc")], [b"x"], 400),
        ([(b"content-length", b"10")], [b"0123456789"], 200),
    ],
)
async def test_the_asgi_body_limit_refuses_before_the_application_reads(headers, chunks, status):
    seen = []

    async def app(scope, receive, send):
        seen.append(await receive())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent = await _asgi(BodyLimit(app), headers, chunks)
    assert sent[0]["status"] == status
    if status == 200:
        assert seen == [{"type": "http.request", "body": b"0123456789", "more_body": False}]
    else:
        assert seen == [] and json.loads(sent[1]["body"])["code"] in ("too_large", "bad_length")


def test_the_project_application_has_the_body_limit():
    assert isinstance(application.application_mapping["http"], BodyLimit)


# ---------------------------------------------------------------- WebSockets

ORIGIN = (b"origin", b"http://testserver")


@database_sync_to_async
def paired_clock():
    tournament, _table = make_tournament()
    new = create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK)
    device, token = redeem_pairing_code(new.code)
    return tournament, (b"cookie", f"{device.cookie_name}={token}".encode())


async def _open(path, *headers):
    communicator = WebsocketCommunicator(application, path, headers=[ORIGIN, *headers])
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _closed_with(communicator, code):
    message = await communicator.receive_output(timeout=2)
    while message["type"] == "websocket.send":
        message = await communicator.receive_output(timeout=2)
    assert message == {"type": "websocket.close", "code": code}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"text_data": json.dumps({"type": "ping", "pad": "x" * 5000})}, 1009),
        ({"text_data": "[" * 30 + "]" * 30}, 1007),
        ({"text_data": "[" * 3000 + "]" * 3000}, 1009),
        ({"text_data": "{not json"}, 1007),
        ({"bytes_data": b'{"type": "ping"}'}, 1007),
    ],
)
async def test_a_websocket_message_too_big_deep_binary_or_broken_closes_the_socket(message, code):
    tournament, cookie = await paired_clock()
    ws = await _open(f"/ws/tournaments/{tournament.pk}/clock/", cookie)
    assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
    await ws.send_to(**message)
    await _closed_with(ws, code)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_small_websocket_message_still_works():
    tournament, cookie = await paired_clock()
    ws = await _open(f"/ws/tournaments/{tournament.pk}/clock/", cookie)
    await ws.receive_json_from(timeout=2)
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=2))["type"] == "pong"
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "path", [f"/ws/tables/{10**30}/", f"/ws/tournaments/{2**63}/clock/", "/ws/nothing/", "/ws/tables/abc/"]
)
async def test_an_unknown_websocket_route_or_huge_id_is_closed_as_not_found(path):
    ws = await _open(path)
    await _closed_with(ws, 4004)


def test_daphne_has_the_same_websocket_limits_in_production():
    """compose's daphne gets the same message and frame limit as ``manage.py serve``: above the
    biggest snapshot it sends (autobahn checks both ways); a screen's own messages are refused by the
    consumers far below it (the tests above)."""
    import yaml

    compose = yaml.safe_load((settings.BASE_DIR / "docker" / "compose.yaml").read_text())
    command = compose["services"]["web"]["command"]
    limit = str(settings.WEBSOCKET_SERVER_MAX_BYTES)
    assert command[command.index("--websocket-max-message-size") + 1] == limit
    assert command[command.index("--websocket-max-frame-size") + 1] == limit
