"""The club, league and season pages, under /clubs/."""

from django.urls import path

import games.urls  # noqa: F401  (registers the "id" converter: digits within a bigint)
from leagues.views import organiser, player

app_name = "leagues"

urlpatterns = [
    # The member's own pages: "me", "entries" and "calendar" are no club's address.
    path("me/leagues/", player.my_leagues, name="player"),
    path("me/leagues/calendar/", player.renew_calendar, name="renew_calendar"),
    path("entries/<id:pk>/withdraw/", player.withdraw_entry, name="withdraw"),
    path("calendar/<str:token>.ics", player.calendar_feed, name="calendar_feed"),
    # A season's organisers' tools and its history.
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/",
        organiser.organiser,
        name="organiser",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/matchdays/<id:matchday>/close/",
        organiser.close_matchday,
        name="close_matchday",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/matchdays/<id:matchday>/deadline/",
        organiser.extend_deadline,
        name="extend_deadline",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/fixtures/<id:fixture>/deadline/",
        organiser.reschedule,
        name="reschedule",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/fixtures/<id:fixture>/result/",
        organiser.adjust_score,
        name="adjust_score",
    ),
    path(
        "<slug:club>/<slug:league>/<id:number>/organiser/entries/<id:entry>/substitute/",
        organiser.replace_player,
        name="replace_player",
    ),
    path("<slug:club>/<slug:league>/<id:number>/history/", organiser.history, name="history"),
]
