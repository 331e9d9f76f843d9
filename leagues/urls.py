"""The club, league and season pages, under /clubs/."""

from django.urls import path

from leagues.views import standings

app_name = "leagues"

SEASON = "<slug:slug>/<slug:league_slug>/<int:number>/"

urlpatterns: list[object] = [
    path(f"{SEASON}standings/", standings.standings, name="standings"),
    path(
        f"{SEASON}standings/crosstable/<int:level>/",
        standings.crosstable,
        name="crosstable",
    ),
    path(f"{SEASON}standings.csv", standings.standings_csv, name="standings_csv"),
    path(f"{SEASON}results.csv", standings.results_csv, name="results_csv"),
]
