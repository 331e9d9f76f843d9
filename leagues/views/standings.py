"""A season's standings page, its live refresh, and its CSV exports."""

from __future__ import annotations

from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_safe

from leagues import exports
from leagues.selectors.corrections import season_corrections
from leagues.selectors.standings import (
    CACHE_SECONDS,
    crosstable_key,
    division_standings,
    league_seasons,
    season_rules,
    season_standings,
    viewer_entries,
    visible_season,
)
from leagues.standings import PLACEMENT, explain


@require_safe
def standings(request: HttpRequest, slug: str, league_slug: str, number: int) -> HttpResponse:
    """Every division's table, the tiebreaks in words and, while the season is under
    way, each player's best and worst possible final rank; games whose result a ruling
    corrected are listed under their division, their players' rows marked. An htmx request (the live
    refresh) gets the tables only. The crosstables come apart (:func:`crosstable`)."""
    season = visible_season(request.user, slug, league_slug, number)
    divisions = season_standings(season)
    # Corrections are read apart from the cached standings: one query, never stale.
    corrections = season_corrections(season)
    rules = season_rules(season)
    context = {
        "season": season,
        "league": season.league,
        "club": season.league.club,
        "divisions": divisions,
        "sections": [(d, corrections.by_level.get(d.level, [])) for d in divisions],
        "corrected_entries": corrections.entries,
        "viewer_entries": viewer_entries(request.user, season),
        "explanations": explain(rules),
        # A tiebreak's column is the count it reads (fixtures won, games won, the
        # score), marked with its order; only head-to-head needs a column of its own.
        "tiebreak_order": {name: n for n, name in enumerate(rules.tiebreaks, start=1)},
        "placement": rules.scoring == PLACEMENT,
        "seasons": league_seasons(season),
        "under_way": season.status == season.Status.RUNNING,
    }
    htmx = getattr(request, "htmx", False)
    template = "leagues/standings.html#tables" if htmx else "leagues/standings.html"
    return render(request, template, context)


@require_safe
def crosstable(
    request: HttpRequest, slug: str, league_slug: str, number: int, level: int
) -> HttpResponse:
    """One division's "who met whom" table, fetched when the page's crosstable is first
    opened: it has a cell per pair of players, too many to render on every view. It
    shows nobody anything of their own, so the rendered table is cached for everyone
    allowed to see the season, until the season's standings change."""
    season = visible_season(request.user, slug, league_slug, number)
    division = division_standings(season, level)
    key = crosstable_key(season.pk, division)
    html = cache.get(key)
    if html is None:
        html = render_to_string("leagues/standings.html#crosstable", {"division": division})
        cache.set(key, html, CACHE_SECONDS)
    return HttpResponse(html)


@require_safe
def standings_csv(request: HttpRequest, slug: str, league_slug: str, number: int) -> HttpResponse:
    """The standings as CSV: a line per player, division by division."""
    season = visible_season(request.user, slug, league_slug, number)
    return exports.standings_csv(season, season_standings(season))


@require_safe
def results_csv(
    request: HttpRequest, slug: str, league_slug: str, number: int
) -> StreamingHttpResponse:
    """Every game of the season as CSV: a line per game and seat, streamed."""
    season = visible_season(request.user, slug, league_slug, number)
    return exports.results_csv(season, asynchronous=isinstance(request, ASGIRequest))
