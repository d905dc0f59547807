from django.urls import path
from rest_framework.routers import SimpleRouter

from config import converters  # noqa: F401  (registers <id:...>)

from . import api, api_flights

router = SimpleRouter()
router.register("tournaments", api.TournamentViewSet, basename="tournament")
router.register("structures", api.StructureViewSet, basename="structure")
router.register("levels", api.LevelViewSet, basename="level")
router.register("players", api.PlayerViewSet, basename="player")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("events", api_flights.EventViewSet, basename="event")
router.register("flights", api_flights.FlightViewSet, basename="flight")

urlpatterns = [
    path("icm/", api.ICMView.as_view(), name="icm"),
    path("simulations/", api_flights.SimulationView.as_view(), name="simulation"),
    path(
        "tournaments/<id:pk>/simulation/",
        api_flights.TournamentSimulationView.as_view(),
        name="tournament-simulation",
    ),
    *router.urls,
]
