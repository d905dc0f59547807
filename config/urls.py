from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from config.api_docs import redoc_bundle
from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (config.headers).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/redoc.standalone.js", redoc_bundle, name="api-redoc-script"),
    # Redoc without its web fonts from Google (templates/api/redoc.html): nothing from another host.
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="schema", template_name="api/redoc.html"),
        name="api-redoc",
    ),
    path("api/", include("tournaments.api_urls")),
    path("api/", include("tables.api_urls")),
    path("api/", include("dealing.api_urls")),
    path("", include("screens.urls")),
]

# Plain, translated error pages (JSON under /api/): never a traceback or the URL list without DEBUG.
handler400 = "config.error_pages.bad_request"
handler403 = "config.error_pages.permission_denied"
handler404 = "config.error_pages.page_not_found"
handler500 = "config.error_pages.server_error"
