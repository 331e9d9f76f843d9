"""A season's standings page, its live refresh, and its CSV exports."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from leagues import exports
from leagues.selectors.standings import (
    league_seasons,
    season_rules,
    season_standings,
    visible_season,
)
from leagues.standings import explain


@require_safe
def standings(request: HttpRequest, slug: str, league_slug: str, number: int) -> HttpResponse:
    """Every division's table, the tiebreaks in words, the crosstables and, while the
    season is under way, each player's best and worst possible final rank. An htmx
    request (the live refresh) gets the tables only."""
    season = visible_season(request.user, slug, league_slug, number)
    context = {
        "season": season,
        "league": season.league,
        "club": season.league.club,
        "divisions": season_standings(season),
        "explanations": explain(season_rules(season)),
        "tiebreaks": list(dict.fromkeys(season.tiebreaks or ())),
        "seasons": league_seasons(season),
        "under_way": season.status == season.Status.RUNNING,
    }
    htmx = getattr(request, "htmx", False)
    template = "leagues/standings.html#tables" if htmx else "leagues/standings.html"
    return render(request, template, context)


@require_safe
def standings_csv(request: HttpRequest, slug: str, league_slug: str, number: int) -> HttpResponse:
    """The standings as CSV: a line per player, division by division."""
    season = visible_season(request.user, slug, league_slug, number)
    return exports.standings_csv(season, season_standings(season))


@require_safe
def results_csv(request: HttpRequest, slug: str, league_slug: str, number: int) -> HttpResponse:
    """Every game of the season as CSV: a line per game and seat."""
    season = visible_season(request.user, slug, league_slug, number)
    return exports.results_csv(season)
