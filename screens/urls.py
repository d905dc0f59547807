"""Pages (included at "/"): screens, pairing, the director console."""

from django.contrib.auth import views as auth_views
from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)

from .views import clock, console, flights, pairing
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
    path("console/events/", flights.events, name="console-events"),
    path("console/events/new/", flights.event_create, name="console-event-create"),
    path("console/events/<id:event_id>/", flights.event_page, name="console-event"),
    path("console/events/<id:event_id>/next-day/", flights.event_next_day, name="console-event-next-day"),
    path("console/flights/<id:tournament_id>/", flights.flight_page, name="console-flight"),
    path(
        "console/flights/<id:tournament_id>/register/",
        flights.flight_register,
        name="console-flight-register",
    ),
    path("console/flights/<id:tournament_id>/draw/", flights.flight_draw, name="console-flight-draw"),
    path("console/flights/<id:tournament_id>/start/", flights.flight_start, name="console-flight-start"),
    path("console/flights/<id:tournament_id>/stop/", flights.flight_stop, name="console-flight-stop"),
    path(
        "console/flights/<id:tournament_id>/entries/<id:entry_id>/out/",
        flights.flight_eliminate,
        name="console-flight-eliminate",
    ),
    path(
        "console/flights/<id:tournament_id>/tables/<id:table_number>/bag/",
        flights.flight_bag,
        name="console-flight-bag",
    ),
    path("console/flights/<id:tournament_id>/bags/", flights.flight_bags, name="console-flight-bags"),
    path("console/<id:tournament_id>/simulation/", flights.simulation_preview, name="console-simulation"),
]
