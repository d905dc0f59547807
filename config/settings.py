"""One settings module, driven by environment variables.

With no variables set it runs on embedded defaults: SQLite, Channels' in-memory layer and Celery
tasks run in-process. DATABASE_URL switches to PostgreSQL, REDIS_URL to channels-redis and a Redis
Celery broker. DJANGO_ENV=production turns on the production checks (no DEBUG, a real secret key).
DEBUG is off unless DJANGO_DEBUG=1 asks for it (development only).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "development") == "production"
DEFAULT_SECRET_KEY = "dev-insecure-courchevel-secret-key-change-me"

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", DEFAULT_SECRET_KEY)
# Off unless asked for (DJANGO_DEBUG=1, development only): DEBUG's pages show tracebacks, settings and
# every URL to whoever causes an error. Without it errors get the plain pages of config.error_pages.
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_DEBUG must be off when DJANGO_ENV=production.")
    if SECRET_KEY == DEFAULT_SECRET_KEY or len(SECRET_KEY) < 50:
        raise ImproperlyConfigured(
            "Set DJANGO_SECRET_KEY to a random string of at least 50 characters for production."
        )

INSTALLED_APPS = [
    "daphne",
    # django.contrib.admin with the guarded site: no admin lookup reaches a secret (config.admin_guard).
    "config.apps.AdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    # Swagger UI and Redoc served from this host (no CDN): /api/docs/ and /api/redoc/ work offline.
    "drf_spectacular_sidecar",
    "channels",
    "tournaments",
    "tables",
    "dealing",
    "screens",
]

MIDDLEWARE = [
    # Content-Security-Policy, Permissions-Policy, Cross-Origin-Resource-Policy (config.headers).
    "config.headers.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.overload.OverloadMiddleware",
    # 413 for a body over REQUEST_MAX_BODY_BYTES, before anything reads it (config.limits).
    "config.limits.BodyLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A staff member's own console language, kept on the account, over the browser's (screens).
    "screens.staff_language.StaffLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A sign-in posted while locked out is 429 with Retry-After (config.lockout). Under daphne the
    # whole chain runs in the request's one thread, whatever the order (config.asgi_handler).
    "config.lockout.LoginLockoutMiddleware",
    # Last: an action that gave way in a lock cycle is run again (config.locks), after every view check.
    "config.locks.GiveWayMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "screens.context_processors.capabilities",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Values sent apart from the SQL (psycopg's server-side binding): a read repeated on a connection
    # (every input's and every snapshot's, config.prepared) becomes a prepared statement there, so
    # PostgreSQL plans it once per pooled connection instead of once a query.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = env_bool(
        "DATABASE_SERVER_SIDE_BINDING", True
    )
    # Django turns psycopg's prepared statements off unless told (for transaction-mode poolers such
    # as PgBouncer, which this deployment does not use): a query is prepared on a connection the
    # second time it runs there, so a one-off report never takes a slot of psycopg's cache (100).
    if DATABASES["default"]["OPTIONS"]["server_side_binding"]:
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = int(
            os.environ.get("DATABASE_PREPARE_THRESHOLD", "1")
        )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_POOL", True):
    # Django's connection pool (psycopg_pool): each process (a daphne server, a Celery worker) keeps
    # at most DATABASE_POOL_MAX connections, so servers x pool stays under PostgreSQL's
    # max_connections; a request that waits longer than DATABASE_POOL_TIMEOUT seconds for one gets a
    # 503 with Retry-After (config.overload), never a 500. The pool replaces CONN_MAX_AGE.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", "20")),
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "5")),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Busy-wait instead of failing at once when two requests write together.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            # WAL: the live screens' snapshot reads no longer block a request's write, nor it them.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("es", _("Spanish")),
    ("it", _("Italian")),
    ("ru", _("Russian")),
    ("el", _("Greek")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []

LOGIN_URL = "/admin/login/"

REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    REDIS_SOCKET_TIMEOUT = float(os.environ.get("REDIS_SOCKET_TIMEOUT", "30"))
    CHANNEL_LAYER = os.environ.get("CHANNEL_LAYER", "pubsub")
    if CHANNEL_LAYER not in ("core", "pubsub"):
        raise ImproperlyConfigured(f"CHANNEL_LAYER is core or pubsub, not {CHANNEL_LAYER!r}.")
    if CHANNEL_LAYER == "pubsub":
        # Redis pub/sub (the default): a group message is published once and each server hands it
        # to its own sockets of that group, instead of one Redis message per socket, popped one at
        # a time. At most once, like the list-based layer: every push is a versioned snapshot.
        # Measured (tests/bench/load_event.py, 300 tables and 100 clocks): sockets open 7.1 -> 5.8 s,
        # a tablet sees its input after 39 -> 23 ms (p50), a level change on 400 sockets p99
        # 381 -> 320 ms. CHANNEL_LAYER=core keeps channels-redis's list-based layer.
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": REDIS_SOCKET_TIMEOUT}]},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                # channels-redis blocks 5 s on Redis while it waits for a message; redis-py 8's default
                # socket timeout is also 5 s, so a quiet socket's consumer died with "Timeout reading"
                # and the screen lost its socket. The socket timeout must be well above the block.
                "CONFIG": {
                    "hosts": [{"address": REDIS_URL, "socket_timeout": REDIS_SOCKET_TIMEOUT}],
                    "capacity": 1000,
                    "expiry": 30,
                },
            }
        }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    # Shared by every process: the web servers read the clock ticks that the workers record.
    # The login lockout and the API throttles count here too, so every web server counts together.
    # One Redis connection pool per process, not one per request (config.cache).
    CACHES = {"default": {"BACKEND": "config.cache.SharedRedisCache", "LOCATION": REDIS_URL}}
else:
    # One process: its own memory (the lockout and throttle counts are per process).
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    # Embedded defaults: tasks run in-process, the moment they are queued.
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker died unacknowledged is delivered again after this many seconds (Redis broker).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600"))
}
# /healthz fails when the last clock tick is older than this (seconds).
HEALTHZ_MAX_TICK_AGE = float(os.environ.get("HEALTHZ_MAX_TICK_AGE", "30"))
CELERY_BEAT_SCHEDULE = {
    # One beat task a second advances every clock that is due, by compare-and-set.
    "advance-clocks": {"task": "tournaments.tasks.advance_clocks", "schedule": 1.0},
    # Backstops for follow-ups lost between a commit and its on-commit call; both idempotent.
    "close-hand-for-hand-rounds": {"task": "dealing.tasks.close_hand_for_hand_rounds", "schedule": 1.0},
    "balance-tournaments": {"task": "tables.tasks.balance_running_tournaments", "schedule": 15.0},
}

# Security headers (config.headers, docs/security.md). No page has an inline script, event handler
# or style attribute: scripts and styles are static files of this site.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'", "{websocket}"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
# The API documentation pages only: Swagger UI and Redoc (served from this host by
# drf-spectacular-sidecar, nothing from another host) set inline styles, and Redoc starts a blob worker.
CONTENT_SECURITY_POLICY_PATHS = {
    "/api/docs/": {
        "style-src": ["'unsafe-inline'"],
    },
    "/api/redoc/": {
        "style-src": ["'unsafe-inline'"],
        "worker-src": ["blob:"],
    },
}
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), hid=(), "
    "midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()"
)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Request limits (config.limits, docs/security.md). The API's bodies are small JSON documents (the
# largest, a blind structure of 60 levels, is about 10 KiB); forms and the admin post less than that.
REQUEST_MAX_BODY_BYTES = 256 * 1024  # any request body: larger is 413
API_MAX_JSON_BYTES = 64 * 1024  # an API JSON body: larger is 413
API_MAX_JSON_DEPTH = 20  # nested arrays and objects in a JSON body or WebSocket message: deeper is 400
WEBSOCKET_MAX_MESSAGE_BYTES = 4 * 1024  # a screen's message ({"type": "ping"}): larger closes (1009)
# daphne's own limit on one WebSocket message and frame. autobahn applies it to what the server sends
# too, so it is above the biggest snapshot (the director's at 1,250 tables is about a megabyte); what a
# screen sends is refused above WEBSOCKET_MAX_MESSAGE_BYTES by the consumers (config.limits).
WEBSOCKET_SERVER_MAX_BYTES = 8 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BODY_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BODY_BYTES
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

# HTTP Basic auth sends the password with every request (and costs a password hash each time): off,
# except for the test servers that ask for it (DJANGO_API_BASIC_AUTH=1; refused in production).
API_BASIC_AUTH = env_bool("DJANGO_API_BASIC_AUTH", False)
if PRODUCTION and API_BASIC_AUTH:
    raise ImproperlyConfigured("DJANGO_API_BASIC_AUTH is for test servers only, not production.")

# How many proxies (HAProxy) stand in front of the web servers: the client's address is the one the
# last of them appended to X-Forwarded-For. 0: REMOTE_ADDR is the client (no proxy).
NUM_PROXIES = int(os.environ.get("DJANGO_NUM_PROXIES", "1" if PRODUCTION else "0"))

# Rates (docs/api-errors.md, 429): count/seconds. ``serve`` and the tests read them at each request.
THROTTLE_RATES = {
    # Reads and writes of the API by a signed-in person, by a paired device, or anonymously (by IP).
    "user": "600/60",
    "device": "600/60",
    "anon": "120/60",
    # Writes that cost something: a pairing code typed or scanned (by IP), the ICM calculator.
    "pairing": "10/60",
    "icm": "30/60",
    "equity": "30/60",
    # PINs typed on one table's tablet to approve an undo (screens.views.tablet.FloorUndoView).
    "floor_pin": "5/60",
}
# Sign-in (docs/api-errors.md): 5 failures for one username from one address lock it for 15 min;
# 30 failures from one address, whatever the usernames, lock that address for 15 min.
LOGIN_FAILURES_PER_USER_AND_IP = 5
LOGIN_FAILURES_PER_IP = 30
LOGIN_LOCKOUT_SECONDS = 15 * 60
LOGIN_PATHS = ["/login/", "/admin/login/"]
# The lockout sits in front of Django's model backend: a locked-out guess costs no password hash.
AUTHENTICATION_BACKENDS = ["config.lockout.LockoutModelBackend"]

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        *(["rest_framework.authentication.BasicAuthentication"] if API_BASIC_AUTH else []),
        # Paired dealer tablets: "Authorization: Device <token>" (screens.auth).
        "screens.auth.DeviceTokenAuthentication",
        # The tablet page: its HttpOnly device cookie (X-Device-Table), CSRF-checked (screens.auth).
        "screens.auth.DeviceCookieAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Request bodies are JSON (amounts and ids are JSON integers), with a size and a nesting limit
    # (config.limits); a form or multipart body is 415.
    "DEFAULT_PARSER_CLASSES": ["config.limits.LimitedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_THROTTLE_CLASSES": ["config.throttling.ApiRateThrottle", "config.throttling.ScopedThrottle"],
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Courchevel tournament director API",
    "DESCRIPTION": (
        "Tournaments, tables and dealing for Courchevel and Courchevel Hi/Lo.\n\n"
        "Errors (docs/api-errors.md), each with `detail`, a stable `code` and, when they apply, `rule`, "
        "`params` (the allowed range) and `field`: **400** a malformed request (a wrong JSON type: "
        "amounts, seats, ids and versions are JSON integers; an unknown field; out of range; not a card "
        "code; a bad name); **404** no such object (in the path or the body); **409** a conflict with "
        "the current state (a stale `expected_seq` or `clock_version`, out of turn, the wrong street, "
        "the hand over); **422** a well-formed request that breaks a rule (below the minimum raise, "
        "above the pot, a card used or given twice, the wrong number of cards, blinds that differ from "
        "the level, too much time added); **429** too many requests (`Retry-After`). Nothing changes "
        "when a request is refused."
    ),
    "VERSION": "0.1.0",
    # Swagger UI and Redoc from the installed drf-spectacular-sidecar: the docs load nothing from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No schema validator badge (it would be fetched from validator.swagger.io).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "SERVE_INCLUDE_SCHEMA": False,
    # Request and response shapes apart: a request schema lists only what may be sent, and says that
    # nothing else may (additionalProperties: false, config.schema_hooks).
    "COMPONENT_SPLIT_REQUEST": True,
    # Ids in paths (config.converters, <id:…>) are integers from 1 to 2^63 - 1 in the schema.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}},
    # The one-value "type" of each shape of a hand input (dealing.serializers.INPUT_VARIANTS).
    "ENUM_NAME_OVERRIDES": {
        **{
            f"{kind.capitalize()}InputTypeEnum": [(kind, kind)]
            for kind in ("action", "board", "show", "muck")
        },
        "DealKindEnum": "tournaments.models.Deal.Kind",  # "kind" is also a device's kind
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema_hooks.strict_requests",
    ],
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # Container healthchecks call /healthz over plain HTTP from inside the container.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    # Static files are served by the web servers themselves (no shared volume for the proxy).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    }

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
