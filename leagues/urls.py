"""The club, league and season pages, under /clubs/."""

from django.urls import path

import games.urls  # noqa: F401  (registers the "id" converter: digits within a bigint)
from leagues.views import organiser

app_name = "leagues"

urlpatterns = [
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
