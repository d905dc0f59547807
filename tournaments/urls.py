"""Pages (included at "/"): screens, pairing, the director console."""

from django.contrib.auth import views as auth_views
from django.urls import path

from tables.tablet import AcknowledgeMoveView, CallFloorView, tablet

from . import screens

urlpatterns = [
    path("", screens.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="login.html", next_page="console-list"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("clock/<int:tournament_id>/", screens.clock_screen, name="clock-screen"),
    path("tablet/<int:table_id>/", tablet, name="tablet"),
    path("tablet/<int:table_id>/floor/", CallFloorView.as_view(), name="tablet-floor"),
    path(
        "tablet/<int:table_id>/moves/<int:move_id>/acknowledge/",
        AcknowledgeMoveView.as_view(),
        name="tablet-acknowledge-move",
    ),
    path("pair/", screens.pair, name="pair"),
    path("pair/<str:code>/", screens.pair, name="pair-code"),
    path("screen/<str:token>/", screens.demo_screen, name="demo-screen"),
    path("console/", screens.console_list, name="console-list"),
    path("console/<int:tournament_id>/", screens.console, name="console"),
    path("console/<int:tournament_id>/clock/<str:action>/", screens.console_clock, name="console-clock"),
    path("console/<int:tournament_id>/announce/", screens.console_announce, name="console-announce"),
    path("console/<int:tournament_id>/register/", screens.console_register, name="console-register"),
    path(
        "console/<int:tournament_id>/entries/<int:entry_id>/bust/", screens.console_bust, name="console-bust"
    ),
    path("console/<int:tournament_id>/hands/<int:hand_id>/", screens.console_hand, name="console-hand"),
    path(
        "console/<int:tournament_id>/floor/<int:call_id>/answer/",
        screens.console_answer_floor,
        name="console-answer-floor",
    ),
    path("console/<int:tournament_id>/devices/pair/", screens.console_pair, name="console-pair"),
    path(
        "console/<int:tournament_id>/devices/<int:device_id>/revoke/",
        screens.console_revoke,
        name="console-revoke",
    ),
]
