"""Pages (included at "/"): screens, pairing, the director console."""

from django.contrib.auth import views as auth_views
from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)

from .views import clock, console, console_setup, pairing
from .views.tablet import AcknowledgeMoveView, CallFloorView, tablet

urlpatterns = [
    path("", clock.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="login.html", next_page="console-list"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("clock/<id:tournament_id>/", clock.clock_screen, name="clock-screen"),
    path("tablet/<id:table_id>/", tablet, name="tablet"),
    path("tablet/<id:table_id>/floor/", CallFloorView.as_view(), name="tablet-floor"),
    path(
        "tablet/<id:table_id>/moves/<id:move_id>/acknowledge/",
        AcknowledgeMoveView.as_view(),
        name="tablet-acknowledge-move",
    ),
    path("pair/", pairing.pair, name="pair"),
    path("pair/<str:code>/", pairing.pair, name="pair-code"),
    path("screen/<str:token>/", pairing.demo_screen, name="demo-screen"),
    path("console/", console.console_list, name="console-list"),
    path("console/new/", console_setup.tournament_new, name="console-new"),
    path("console/<id:tournament_id>/setup/", console_setup.tournament_setup, name="console-setup"),
    path("console/<id:tournament_id>/structure/", console_setup.structure_editor, name="console-structure"),
    path(
        "console/<id:tournament_id>/structure/add/",
        console_setup.structure_level_add,
        name="console-structure-add",
    ),
    path(
        "console/<id:tournament_id>/structure/<id:level_id>/",
        console_setup.structure_level_save,
        name="console-structure-level",
    ),
    path(
        "console/<id:tournament_id>/structure/<id:level_id>/delete/",
        console_setup.structure_level_delete,
        name="console-structure-delete",
    ),
    path("console/<id:tournament_id>/", console.console, name="console"),
    path("console/<id:tournament_id>/clock/<str:action>/", console.console_clock, name="console-clock"),
    path("console/<id:tournament_id>/announce/", console.console_announce, name="console-announce"),
    path("console/<id:tournament_id>/register/", console.console_register, name="console-register"),
    path("console/<id:tournament_id>/entries/<id:entry_id>/bust/", console.console_bust, name="console-bust"),
    path("console/<id:tournament_id>/hands/<id:hand_id>/", console.console_hand, name="console-hand"),
    path(
        "console/<id:tournament_id>/entries/<id:entry_id>/remove/",
        console.console_remove,
        name="console-remove",
    ),
    path(
        "console/<id:tournament_id>/floor/<id:call_id>/answer/",
        console.console_answer_floor,
        name="console-answer-floor",
    ),
    path("console/<id:tournament_id>/devices/pair/", console.console_pair, name="console-pair"),
    path(
        "console/<id:tournament_id>/devices/<id:device_id>/revoke/",
        console.console_revoke,
        name="console-revoke",
    ),
]
