"""Pages (included at "/"): screens, pairing, the director console."""

from django.contrib.auth import views as auth_views
from django.urls import path

from config import converters  # noqa: F401  (registers <id:...>: ids beyond 64 bits are a 404)

from . import api_deals
from .views import (
    account,
    clock,
    console,
    console_break,
    console_deal,
    console_desk,
    console_floor,
    console_help,
    console_results,
    console_seating,
    console_setup,
    console_tables,
    devices,
    feature,
    flights,
    pairing,
    pairing_sheet,
    player,
)
from .views.tablet import AcknowledgeMoveView, CallFloorView, FloorUndoView, service_worker, tablet

urlpatterns = [
    path("", clock.home, name="home"),
    path(
        "login/",
        auth_views.LoginView.as_view(template_name="login.html", next_page="console-list"),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(next_page="login"), name="logout"),
    path("clock/<id:tournament_id>/", clock.clock_screen, name="clock-screen"),
    path("clock/festival/", clock.festival_screen, name="clock-festival"),
    path("clock/<id:tournament_id>/seating-chart/", clock.seating_chart_page, name="clock-seating-chart"),
    path("p/<id:tournament_id>/", player.player_page_view, name="player-page"),
    path("p/<id:tournament_id>/data.json", player.player_data, name="player-data"),
    path("p/<id:tournament_id>/seat/", player.find_seat, name="player-seat"),
    path("tablet/sw.js", service_worker, name="tablet-service-worker"),
    path("tablet/<id:table_id>/", tablet, name="tablet"),
    path("tablet/<id:table_id>/floor/", CallFloorView.as_view(), name="tablet-floor"),
    path("tablet/<id:table_id>/undo/", FloorUndoView.as_view(), name="tablet-undo"),
    path(
        "tablet/<id:table_id>/moves/<id:move_id>/acknowledge/",
        AcknowledgeMoveView.as_view(),
        name="tablet-acknowledge-move",
    ),
    path("help/dealer/", console_help.dealer_guide, name="dealer-guide"),
    path("pair/", pairing.pair, name="pair"),
    path("pair/<str:code>/", pairing.pair, name="pair-code"),
    path("screen/<str:token>/", pairing.demo_screen, name="demo-screen"),
    path("console/", console.console_list, name="console-list"),
    path("console/language/", account.staff_language, name="console-staff-language"),
    path("console/new/", console_setup.tournament_new, name="console-new"),
    path("console/help/", console_help.guide, name="console-help"),
    path("console/help/<str:name>", console_help.screenshot, name="console-help-screenshot"),
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
    path("console/<id:tournament_id>/desk/", console_desk.desk, name="console-desk"),
    path("console/<id:tournament_id>/desk/search/", console_desk.desk_search, name="console-desk-search"),
    path(
        "console/<id:tournament_id>/desk/register/", console_desk.desk_register, name="console-desk-register"
    ),
    path("console/<id:tournament_id>/desk/draw/", console_desk.desk_draw, name="console-desk-draw"),
    path(
        "console/<id:tournament_id>/desk/alternates/",
        console_desk.desk_alternate_add,
        name="console-desk-alternate-add",
    ),
    path(
        "console/<id:tournament_id>/desk/alternates/seat-next/",
        console_desk.desk_alternate_seat,
        name="console-desk-alternate-seat",
    ),
    path(
        "console/<id:tournament_id>/desk/alternates/<id:alternate_id>/withdraw/",
        console_desk.desk_alternate_withdraw,
        name="console-desk-alternate-withdraw",
    ),
    path(
        "console/<id:tournament_id>/desk/<id:entry_id>/rebuy/",
        console_desk.desk_rebuy,
        name="console-desk-rebuy",
    ),
    path(
        "console/<id:tournament_id>/desk/<id:entry_id>/addon/",
        console_desk.desk_addon,
        name="console-desk-addon",
    ),
    path(
        "console/<id:tournament_id>/desk/<id:entry_id>/void/",
        console_desk.desk_void,
        name="console-desk-void",
    ),
    path(
        "console/<id:tournament_id>/entries/<id:entry_id>/seat-card/",
        console_desk.seat_card,
        name="console-seat-card",
    ),
    path("console/<id:tournament_id>/seating/", console_tables.seating_page, name="console-seating"),
    path("console/<id:tournament_id>/seating/lock/", console_tables.lock_seat, name="console-seat-lock"),
    path(
        "console/<id:tournament_id>/seating/reserve/",
        console_tables.reserve_seat,
        name="console-seat-reserve",
    ),
    path(
        "console/<id:tournament_id>/seating/seats/<id:seat_id>/unlock/",
        console_tables.unlock_seat,
        name="console-seat-unlock",
    ),
    path(
        "console/<id:tournament_id>/seating/open-table/", console_tables.open_table, name="console-table-open"
    ),
    path(
        "console/<id:tournament_id>/seating/break-table/",
        console_tables.break_table,
        name="console-table-break",
    ),
    path("console/<id:tournament_id>/seating/move/", console_tables.move_player, name="console-move-player"),
    path(
        "console/<id:tournament_id>/seating/chart-on-clock/",
        console_tables.chart_on_clock,
        name="console-chart-on-clock",
    ),
    path(
        "console/<id:tournament_id>/seating/chart/",
        console_seating.seating_chart,
        name="console-seating-chart",
    ),
    path(
        "console/<id:tournament_id>/seating/mode/",
        console_seating.balancing_mode,
        name="console-balancing-mode",
    ),
    path(
        "console/<id:tournament_id>/seating/approve/",
        console_seating.approve_move,
        name="console-move-approve",
    ),
    path("console/<id:tournament_id>/seating/skip/", console_seating.skip_move, name="console-move-skip"),
    path(
        "console/<id:tournament_id>/seating/break-order/",
        console_seating.break_order,
        name="console-break-order",
    ),
    path("console/<id:tournament_id>/floor/", console_floor.floor, name="console-floor"),
    path(
        "console/<id:tournament_id>/floor/tables/<id:table_number>/count/",
        console_floor.count_table,
        name="console-floor-count",
    ),
    path(
        "console/<id:tournament_id>/floor/entries/<id:entry_id>/bust/",
        console_floor.bust,
        name="console-floor-bust",
    ),
    path(
        "console/<id:tournament_id>/floor/remove/",
        console_floor.remove,
        name="console-floor-remove",
    ),
    path(
        "console/<id:tournament_id>/floor/entries/<id:entry_id>/undo-bust/",
        console_floor.undo_bust,
        name="console-floor-undo-bust",
    ),
    path(
        "console/<id:tournament_id>/floor/entries/<id:entry_id>/void/",
        console_floor.void_entry,
        name="console-floor-void-entry",
    ),
    path(
        "console/<id:tournament_id>/floor/hands/<id:hand_id>/void/",
        console_floor.void_hand,
        name="console-floor-void-hand",
    ),
    path(
        "console/<id:tournament_id>/floor/hands/<id:hand_id>/correct/",
        console_floor.correct_last_input,
        name="console-floor-correct",
    ),
    path("console/<id:tournament_id>/color-up/", console_break.color_up, name="console-color-up"),
    path("api/tournaments/<id:tournament_id>/deal/", api_deals.DealView.as_view(), name="api-deal"),
    path(
        "api/tournaments/<id:tournament_id>/deal/proposal/",
        api_deals.DealProposalView.as_view(),
        name="api-deal-proposal",
    ),
    path("console/<id:tournament_id>/deal/", console_deal.deal_page, name="console-deal"),
    path("console/<id:tournament_id>/deal/record/", console_deal.deal_record, name="console-deal-record"),
    path(
        "console/<id:tournament_id>/deal/talk/<str:action>/", console_deal.deal_talk, name="console-deal-talk"
    ),
    path("console/<id:tournament_id>/payouts/", console_deal.payout_table_page, name="console-payouts"),
    path("console/<id:tournament_id>/results/", console_results.results, name="console-results"),
    path("console/<id:tournament_id>/results.csv", console_results.results_csv, name="console-results-csv"),
    path("console/<id:tournament_id>/clock/<str:action>/", console.console_clock, name="console-clock"),
    path("console/<id:tournament_id>/announce/", console.console_announce, name="console-announce"),
    path("console/<id:tournament_id>/floor-pin/", console.console_floor_pin, name="console-floor-pin"),
    path("console/<id:tournament_id>/register/", console.console_register, name="console-register"),
    path("console/<id:tournament_id>/entries/<id:entry_id>/bust/", console.console_bust, name="console-bust"),
    path("console/<id:tournament_id>/hands/<id:hand_id>/", console.console_hand, name="console-hand"),
    path("console/<id:tournament_id>/all-ins/", console.console_all_ins, name="console-all-ins"),
    path(
        "console/<id:tournament_id>/hands/<id:hand_id>/release/",
        feature.console_release_runout,
        name="console-release-runout",
    ),
    path("feature/<id:table_id>/", feature.feature, name="feature-table"),
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
        "console/<id:tournament_id>/devices/pairing-sheet/",
        pairing_sheet.pairing_sheet,
        name="console-pairing-sheet",
    ),
    path(
        "console/<id:tournament_id>/devices/<id:device_id>/language/",
        devices.device_language,
        name="console-device-language",
    ),
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
