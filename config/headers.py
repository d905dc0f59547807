"""Security headers on every response (docs/security.md): a Content-Security-Policy with no inline
script or style, and Permissions-Policy and Cross-Origin-Resource-Policy. Django's SecurityMiddleware
and XFrameOptionsMiddleware send X-Content-Type-Options, Referrer-Policy, Cross-Origin-Opener-Policy
and X-Frame-Options (settings.py).

The policy is ``CONTENT_SECURITY_POLICY`` (directive -> sources); ``"{websocket}"`` stands for this
host's ws:// and wss:// origins (the live screens' sockets). ``CONTENT_SECURITY_POLICY_PATHS`` adds
sources for a path prefix: only the API documentation pages, which load Swagger UI and Redoc from
their CDN. A leaf: imports no app.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost

WEBSOCKET = "{websocket}"


def _websocket_sources(request) -> list[str]:
    try:
        host = request.get_host()
    except DisallowedHost:  # the response is the 400 for that host already
        return []
    return [f"ws://{host}", f"wss://{host}"]


def policy_for(request) -> str:
    directives = {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY.items()}
    for prefix, extra in settings.CONTENT_SECURITY_POLICY_PATHS.items():
        if request.path.startswith(prefix):
            for name, sources in extra.items():
                directives.setdefault(name, [])
                directives[name] = [s for s in directives[name] if s != "'none'"] + list(sources)
    parts = []
    for name, sources in directives.items():
        expanded = []
        for source in sources:
            expanded += _websocket_sources(request) if source == WEBSOCKET else [source]
        parts.append(" ".join([name, *expanded]) if expanded else name)
    return "; ".join(parts)


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", policy_for(request))
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        return response
