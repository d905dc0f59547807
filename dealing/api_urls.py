from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)

from . import api, equity_api

urlpatterns = [
    path("hands/", api.HandListView.as_view(), name="hand-list"),
    path("hands/<id:pk>/", api.HandDetailView.as_view(), name="hand-detail"),
    path("hands/<id:pk>/options/", api.OptionsView.as_view(), name="hand-options"),
    path("hands/<id:pk>/actions/", api.ActionView.as_view(), name="hand-actions"),
    path("hands/<id:pk>/events/", api.EventsView.as_view(), name="hand-events"),
    path("hands/<id:pk>/deck/", api.DeckView.as_view(), name="hand-deck"),
    path("hands/<id:pk>/void/", api.VoidView.as_view(), name="hand-void"),
    path("hands/<id:pk>/correct/", api.CorrectView.as_view(), name="hand-correct"),
    path("hands/<id:pk>/release/", api.ReleaseRunoutView.as_view(), name="hand-release"),
    path("hands/<id:pk>/equity/", equity_api.HandEquityView.as_view(), name="hand-equity"),
    path("equity/", equity_api.EquityView.as_view(), name="equity"),
    path("tables/<id:table_id>/current-hand/", api.CurrentHandView.as_view(), name="table-current-hand"),
]
urlpatterns += [
    path("hands/<id:pk>/verify/", api.VerifyHandView.as_view(), name="hand-verify"),
    path("hands/<id:pk>/history/", api.HandHistoryView.as_view(), name="hand-history"),
    path("tables/<id:table_id>/hand-history/", api.TableHistoryView.as_view(), name="table-hand-history"),
    path(
        "tournaments/<id:tournament_id>/hand-history/",
        api.TournamentHistoryView.as_view(),
        name="tournament-hand-history",
    ),
    path(
        "tournaments/<id:tournament_id>/verify-hands/",
        api.VerifyTournamentView.as_view(),
        name="tournament-verify-hands",
    ),
]
