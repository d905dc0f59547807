from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)

from . import api

urlpatterns = [
    path("tournaments/<id:tournament_id>/seating/", api.SeatingChartView.as_view(), name="seating-chart"),
    path("tournaments/<id:tournament_id>/seating/draw/", api.DrawView.as_view(), name="seating-draw"),
    path(
        "tournaments/<id:tournament_id>/seating/draws/", api.SeatDrawListView.as_view(), name="seating-draws"
    ),
    path(
        "tournaments/<id:tournament_id>/seating/seat-entry/",
        api.SeatEntryView.as_view(),
        name="seating-seat-entry",
    ),
    path("tournaments/<id:tournament_id>/seating/plan/", api.SeatingPlanView.as_view(), name="seating-plan"),
    path(
        "tournaments/<id:tournament_id>/seating/break-order/",
        api.BreakOrderView.as_view(),
        name="seating-break-order",
    ),
    path("tournaments/<id:tournament_id>/tables/", api.TableListView.as_view(), name="table-list"),
    path("tournaments/<id:tournament_id>/moves/", api.MoveListView.as_view(), name="move-list"),
    path(
        "tournaments/<id:tournament_id>/moves/suggested/",
        api.SuggestedMovesView.as_view(),
        name="move-suggested",
    ),
    path("tournaments/<id:tournament_id>/moves/apply/", api.ApplyMovesView.as_view(), name="move-apply"),
    path("tournaments/<id:tournament_id>/moves/manual/", api.ManualMoveView.as_view(), name="move-manual"),
    path("moves/<id:move_id>/acknowledge/", api.AcknowledgeMoveView.as_view(), name="move-acknowledge"),
    path("tables/<id:table_id>/", api.TableDetailView.as_view(), name="table-detail"),
    path("tables/<id:table_id>/seats/<id:number>/lock/", api.SeatLockView.as_view(), name="seat-lock"),
]
