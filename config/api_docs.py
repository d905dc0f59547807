"""Redoc's script for /api/redoc/, from drf-spectacular-sidecar, without the one thing it would fetch
from another host: the Redocly logo in its menu (``cdn.redoc.ly``). With no source the logo is
simply not shown (Redoc hides an image that fails), so the page loads nothing from elsewhere and
the browser never has to refuse a request. A leaf: imports no app of this project.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import drf_spectacular_sidecar
from django.http import HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

BUNDLE = (
    Path(drf_spectacular_sidecar.__file__).parent
    / "static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
)
REMOTE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@lru_cache(maxsize=1)
def redoc_script() -> bytes:
    return BUNDLE.read_bytes().replace(REMOTE_LOGO.encode(), b"")


@require_GET
@cache_control(max_age=86400, public=True)
def redoc_bundle(request):
    return HttpResponse(redoc_script(), content_type="text/javascript; charset=utf-8")
