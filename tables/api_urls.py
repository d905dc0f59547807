from django.urls import path

from . import api

urlpatterns = [
    path("tournaments/<int:tournament_id>/seating/", api.SeatingChartView.as_view(), name="seating-chart"),
    path("tournaments/<int:tournament_id>/seating/draw/", api.DrawView.as_view(), name="seating-draw"),
    path(
        "tournaments/<int:tournament_id>/seating/draws/", api.SeatDrawListView.as_view(), name="seating-draws"
    ),
    path(
        "tournaments/<int:tournament_id>/seating/seat-entry/",
        api.SeatEntryView.as_view(),
        name="seating-seat-entry",
    ),
    path("tournaments/<int:tournament_id>/seating/plan/", api.SeatingPlanView.as_view(), name="seating-plan"),
    path(
        "tournaments/<int:tournament_id>/seating/break-order/",
        api.BreakOrderView.as_view(),
        name="seating-break-order",
    ),
    path("tournaments/<int:tournament_id>/tables/", api.TableListView.as_view(), name="table-list"),
    path("tournaments/<int:tournament_id>/moves/", api.MoveListView.as_view(), name="move-list"),
    path(
        "tournaments/<int:tournament_id>/moves/suggested/",
        api.SuggestedMovesView.as_view(),
        name="move-suggested",
    ),
    path("tournaments/<int:tournament_id>/moves/apply/", api.ApplyMovesView.as_view(), name="move-apply"),
    path("tournaments/<int:tournament_id>/moves/manual/", api.ManualMoveView.as_view(), name="move-manual"),
    path("moves/<int:move_id>/acknowledge/", api.AcknowledgeMoveView.as_view(), name="move-acknowledge"),
    path("tables/<int:table_id>/", api.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:table_id>/seats/<int:number>/lock/", api.SeatLockView.as_view(), name="seat-lock"),
]
