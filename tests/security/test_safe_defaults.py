"""Safe defaults: DEBUG only when DJANGO_DEBUG=1 asks for it; ``manage.py serve --demo`` (``make run``)
serves with DEBUG off, static files included; errors are plain translated pages (JSON under /api/)
with no traceback and no list of URLs."""

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import Client, override_settings

from tests.security.conftest import clean_env

ROOT = Path(__file__).resolve().parents[2]
DEBUG_PAGE_MARKERS = (
    b"Traceback",
    b"Using the URLconf",
    b"DEBUG = True",
    b"s3cr3t-in-traceback",
    b"technical",
)


def settings_debug(**env) -> str:
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); "
        "django.setup(); from django.conf import settings; print(settings.DEBUG)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(
    ("env", "debug"),
    [
        ({}, "False"),
        ({"DJANGO_DEBUG": "0"}, "False"),
        ({"DJANGO_DEBUG": "1"}, "True"),
        ({"DJANGO_DEBUG": "yes"}, "True"),
    ],
)
def test_debug_is_off_unless_asked_for(env, debug):
    assert settings_debug(**env) == debug


def assert_plain(response):
    for marker in DEBUG_PAGE_MARKERS:
        assert marker not in response.content, marker


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/nope/", "/clock/abc/", "/console/1/nothing/", "/static/live/missing.js"])
def test_a_missing_page_is_a_plain_404_without_the_url_list(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert b"Page not found" in response.content and b"admin/" not in response.content
    assert_plain(response)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/nope/", "/api/hands/abc/", "/api/tables/1/nothing/"])
def test_a_missing_api_url_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found."}


@pytest.mark.django_db
@override_settings(ROOT_URLCONF="tests.security.urls_boom")
@pytest.mark.parametrize(("path", "kind"), [("/boom/", "text/html"), ("/api/boom/", "application/json")])
def test_a_server_error_is_a_plain_500_without_a_traceback(path, kind):
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 500 and response["Content-Type"].startswith(kind)
    assert_plain(response)
    if kind == "application/json":
        assert "Nothing was changed" in response.json()["detail"]
    else:
        assert b"Server error" in response.content


@pytest.mark.django_db
def test_the_error_pages_follow_the_language(client):
    response = client.get("/nope/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404 and b'<html lang="fr">' in response.content


def _fetch(url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_make_run_serves_with_debug_off_static_files_and_plain_errors(demo_server):
    served = demo_server.base
    status, headers, body = _fetch(f"{served}/static/live/app.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css") and b".card" in body
    status, _headers, body = _fetch(f"{served}/nope/")
    assert status == 404 and b"Page not found" in body and b"Using the URLconf" not in body
    # The penetration test's server errors: a deep JSON body, a 30-digit id, a 30-digit query parameter.
    deep = b"[" * 20000 + b"]" * 20000  # 40 KB: under the size limit
    status, _headers, body = _fetch(f"{served}/api/icm/", deep, {"Content-Type": "application/json"})
    assert status == 400 and b"nested too deeply" in body and b"Traceback" not in body
    status, _headers, body = _fetch(f"{served}/api/tables/{10**30}/current-hand/")
    assert status == 404 and json.loads(body) == {"detail": "Not found."}
    status, _headers, body = _fetch(f"{served}/api/hands/?tournament={10**30}")
    assert status == 400 and b"Traceback" not in body
    big = b'{"stacks": [' + b"1," * 200000 + b"1]}"
    status, _headers, body = _fetch(f"{served}/api/icm/", big, {"Content-Type": "application/json"})
    assert status == 413 and json.loads(body)["code"] == "too_large"
