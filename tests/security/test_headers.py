"""Headers and the tablet's cookie (config.headers, screens.auth): every response has the
Content-Security-Policy and the usual security headers; no page has an inline script, handler or
style; the tablet page holds no device token and acts through its HttpOnly cookie, with CSRF."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

from dealing.models import Hand, HandEvent
from screens.models import DeviceKind, FloorCall
from screens.pairing import create_pairing_code, redeem_pairing_code, revoke_device
from tests.factories import make_table as make_tournament

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def assert_security_headers(response, *, docs=False):
    policy = response.headers["Content-Security-Policy"]
    directives = dict(part.split(" ", 1) if " " in part else (part, "") for part in policy.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'" and directives["form-action"] == "'self'"
    assert directives["connect-src"] == "'self' ws://testserver wss://testserver"
    if not docs:
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'", policy
        assert "unsafe" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert "camera=()" in response.headers["Permissions-Policy"]


class InlineFinder(HTMLParser):
    """Inline scripts (not JSON data blocks), inline event handlers and style attributes."""

    def __init__(self):
        super().__init__()
        self.found = []
        self._script = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=...>")
        if tag == "script":
            self._script = attrs
        if tag == "style":
            self.found.append("<style>")

    def handle_data(self, data):
        inline = self._script is not None and "src" not in self._script
        if inline and data.strip() and self._script.get("type") != "application/json":
            self.found.append(f"inline <script>: {data.strip()[:40]}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


@pytest.mark.parametrize(
    "path", sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*.html"))
)
def test_no_template_has_an_inline_script_handler_or_style(path):
    text = (TEMPLATES / path).read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
    assert not re.search(r"\son[a-z]+\s*=", text), path
    assert not re.search(r"\sstyle\s*=", text) and "<style" not in text, path


@pytest.fixture
def world():
    tournament, table = make_tournament()
    tablet, token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=table).code
    )
    clock, clock_token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.CLOCK).code
    )
    return tournament, table, tablet, token, clock, clock_token


def paired(device, token, *, csrf_checks=True) -> Client:
    client = Client(enforce_csrf_checks=csrf_checks)
    client.cookies[device.cookie_name] = token
    return client


def _pages(world, staff_client):
    tournament, table, tablet, token, clock, clock_token = world
    return [
        (Client(), "/"),
        (Client(), "/login/"),
        (Client(), "/pair/"),
        (Client(), "/nothing/"),
        (Client(), "/api/tournaments/"),
        (Client(), "/api/nothing/"),
        (Client(), "/healthz"),
        (paired(clock, clock_token), f"/clock/{tournament.pk}/"),
        (paired(tablet, token), f"/tablet/{table.pk}/"),
        (staff_client, "/console/"),
        (staff_client, f"/console/{tournament.pk}/"),
        (staff_client, "/admin/"),
        (staff_client, "/admin/dealing/hand/"),
        (staff_client, "/api/schema/"),
    ]


def test_every_kind_of_page_has_the_security_headers_and_no_inline_code(world, admin_client):
    for client, path in _pages(world, admin_client):
        response = client.get(path)
        assert response.status_code < 500 or path == "/healthz", path  # 503: no clock ticks in tests
        assert_security_headers(response)
        if response["Content-Type"].startswith("text/html"):
            assert inline_parts(response.content.decode()) == [], path


@override_settings(ROOT_URLCONF="tests.security.urls_boom")
def test_a_server_error_has_the_security_headers_too():
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    assert_security_headers(response)
    assert inline_parts(response.content.decode()) == []


def test_the_api_documentation_pages_load_nothing_from_another_host(admin_client):
    for path in ("/api/docs/", "/api/redoc/"):
        response = admin_client.get(path)
        assert response.status_code == 200
        assert_security_headers(response, docs=True)
        policy = response.headers["Content-Security-Policy"]
        assert "https://" not in policy and "cdn.jsdelivr.net" not in policy, policy
        page = response.content.decode()
        assert "https://" not in page, page
        # Swagger UI comes from drf-spectacular-sidecar's static files, Redoc from the same package's
        # bundle served without its remote logo (config.api_docs).
        assert "/static/drf_spectacular_sidecar/" in page or "/api/redoc/redoc.standalone.js" in page
    script = admin_client.get("/api/redoc/redoc.standalone.js")
    assert script.status_code == 200 and script["Content-Type"].startswith("text/javascript")
    assert b"cdn.redoc.ly" not in script.content and b"Redoc" in script.content
    # Swagger UI's start-up script is served as a file by the split view, not inline.
    page = admin_client.get("/api/docs/").content.decode()
    assert re.search(r'<script src="/api/docs/\?script=', page)
    assert "unsafe-inline" not in admin_client.get("/").headers["Content-Security-Policy"]


# ---------------------------------------------------------------- the tablet's device cookie


def test_the_tablet_page_holds_no_device_token(world):
    _, table, tablet, token, _clock, _clock_token = world
    response = paired(tablet, token).get(f"/tablet/{table.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert token not in html and "data-token" not in html
    assert f'data-table="{table.pk}"' in html and "data-csrf=" in html


def _state(table):
    return (
        Hand.objects.filter(table=table).count(),
        HandEvent.objects.filter(hand__table=table).count(),
        FloorCall.objects.count(),
    )


def _csrf(client, table) -> str:
    client.get(f"/tablet/{table.pk}/")
    return client.cookies["csrftoken"].value


def test_the_tablet_acts_with_its_cookie_and_the_pages_csrf_token(world):
    _, table, tablet, token, _clock, _clock_token = world
    client = paired(tablet, token)
    headers = {"X-Device-Table": str(table.pk), "X-CSRFToken": _csrf(client, table)}
    started = client.post(
        "/api/hands/", {"table": table.pk}, content_type="application/json", headers=headers
    )
    assert started.status_code == 201, started.content
    hand = Hand.objects.get(pk=started.json()["id"])
    events = HandEvent.objects.filter(hand=hand)
    assert events.first().device == tablet.label and events.first().actor == tablet.user  # not staff
    floor = client.post(  # a JSON body, as tablet.js sends it
        f"/tablet/{table.pk}/floor/", data="{}", content_type="application/json", headers=headers
    )
    assert floor.status_code == 200 and FloorCall.objects.get().device_label == tablet.label


@pytest.mark.parametrize(
    "case",
    ["no csrf token", "wrong csrf token", "another site", "another table's header", "revoked", "no cookie"],
)
@pytest.mark.parametrize("url", ["/api/hands/", "floor"])
def test_the_tablet_cookie_alone_never_acts(world, case, url):
    _tournament, table, tablet, token, _clock, _clock_token = world
    client = paired(tablet, token)
    headers = {"X-Device-Table": str(table.pk), "X-CSRFToken": _csrf(client, table)}
    if case == "no csrf token":
        del headers["X-CSRFToken"]
    elif case == "wrong csrf token":
        headers["X-CSRFToken"] = "x" * 64
    elif case == "another site":
        headers["Origin"] = "http://evil.example"
    elif case == "another table's header":
        headers["X-Device-Table"] = str(table.pk + 1000)  # no cookie for that table: not this scheme
    elif case == "revoked":
        revoke_device(tablet)
    else:
        client.cookies.pop(tablet.cookie_name)
    path = f"/tablet/{table.pk}/floor/" if url == "floor" else url
    before = _state(table)
    response = client.post(path, {"table": table.pk}, content_type="application/json", headers=headers)
    # Not authenticated (revoked, no cookie for that table) is 401, or 403 where DRF's first
    # authenticator (the session) has no challenge to send; a failed CSRF check is 403.
    expected = {401, 403} if case in ("revoked", "no cookie", "another table's header") else {403}
    assert response.status_code in expected, (case, response.status_code, response.content)
    assert response.json()["detail"]
    assert _state(table) == before


def test_the_device_token_header_still_works_for_api_clients(world):
    _, table, tablet, token, _clock, _clock_token = world
    client = Client(enforce_csrf_checks=True)  # no cookie, no CSRF token: the header is the credential
    response = client.post(
        "/api/hands/",
        {"table": table.pk},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Device {token}",
    )
    assert response.status_code == 201
    assert HandEvent.objects.filter(hand_id=response.json()["id"]).first().device == tablet.label


def test_a_clock_screens_cookie_does_not_act_at_a_table(world):
    _tournament, table, _tablet, _token, clock, clock_token = world
    client = paired(clock, clock_token)
    client.get("/pair/")  # a page with a form: the CSRF cookie
    before = _state(table)
    headers = {"X-Device-Table": str(table.pk), "X-CSRFToken": client.cookies["csrftoken"].value}
    response = client.post(
        "/api/hands/", {"table": table.pk}, content_type="application/json", headers=headers
    )
    assert response.status_code == 403 and _state(table) == before
