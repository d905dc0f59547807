from django.urls import path

from . import api

urlpatterns = [
    path("hands/", api.HandListView.as_view(), name="hand-list"),
    path("hands/<int:pk>/", api.HandDetailView.as_view(), name="hand-detail"),
    path("hands/<int:pk>/options/", api.OptionsView.as_view(), name="hand-options"),
    path("hands/<int:pk>/actions/", api.ActionView.as_view(), name="hand-actions"),
    path("hands/<int:pk>/events/", api.EventsView.as_view(), name="hand-events"),
    path("hands/<int:pk>/deck/", api.DeckView.as_view(), name="hand-deck"),
    path("hands/<int:pk>/void/", api.VoidView.as_view(), name="hand-void"),
    path("hands/<int:pk>/correct/", api.CorrectView.as_view(), name="hand-correct"),
    path("tables/<int:table_id>/current-hand/", api.CurrentHandView.as_view(), name="table-current-hand"),
]
urlpatterns += [
    path("hands/<int:pk>/verify/", api.VerifyHandView.as_view(), name="hand-verify"),
    path("hands/<int:pk>/history/", api.HandHistoryView.as_view(), name="hand-history"),
    path("tables/<int:table_id>/hand-history/", api.TableHistoryView.as_view(), name="table-hand-history"),
    path(
        "tournaments/<int:tournament_id>/hand-history/",
        api.TournamentHistoryView.as_view(),
        name="tournament-hand-history",
    ),
    path(
        "tournaments/<int:tournament_id>/verify-hands/",
        api.VerifyTournamentView.as_view(),
        name="tournament-verify-hands",
    ),
]
