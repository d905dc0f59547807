"""The project's URLs plus two views that fail, to see what a client gets from a server error."""

from django.urls import path

from config import urls as project_urls


def boom(request):
    raise RuntimeError("a bug with a secret in its message: s3cr3t-in-traceback")


urlpatterns = [
    path("boom/", boom),
    path("api/boom/", boom),
    *project_urls.urlpatterns,
]
handler400 = project_urls.handler400
handler403 = project_urls.handler403
handler404 = project_urls.handler404
handler500 = project_urls.handler500
