from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("tournaments", api.TournamentViewSet, basename="tournament")
router.register("structures", api.StructureViewSet, basename="structure")
router.register("levels", api.LevelViewSet, basename="level")
router.register("players", api.PlayerViewSet, basename="player")
router.register("entries", api.EntryViewSet, basename="entry")

urlpatterns = [
    path("icm/", api.ICMView.as_view(), name="icm"),
    *router.urls,
]
