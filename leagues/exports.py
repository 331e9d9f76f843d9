"""A season's standings and results as CSV files.

Cells that a spreadsheet would read as a formula (text starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return: a player's display name, say) are written
with a leading apostrophe, so opening the file never runs anything. Numbers are
written as numbers.
"""

from __future__ import annotations

import csv
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from itertools import islice

from asgiref.sync import sync_to_async
from django.http import HttpResponse, StreamingHttpResponse

from leagues.models import Season
from leagues.selectors.standings import DivisionStandings, season_result_lines
from leagues.standings import format_points

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def safe(cell: object) -> object:
    """``cell`` as a spreadsheet may open it without running a formula.

    >>> safe("=HYPERLINK(1)"), safe("-1+2"), safe("-3.5"), safe(-12), safe("Ann")
    ("'=HYPERLINK(1)", "'-1+2", '-3.5', -12, 'Ann')
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def _csv(filename: str, header: Sequence[str], lines: Iterable[Sequence[object]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows([safe(cell) for cell in line] for line in lines)
    return response


LINES_A_CHUNK = 1000
"""Lines of a streamed file made at a time, in one trip to the database's thread."""


class _Line:
    """What :func:`csv.writer` writes into: it hands each line back instead of keeping it."""

    def write(self, text: str) -> str:
        return text


def _streamed_csv(
    filename: str, header: Sequence[str], lines: Iterable[Sequence[object]], asynchronous: bool
) -> StreamingHttpResponse:
    """A CSV file sent as it is made, :data:`LINES_A_CHUNK` lines at a time: the first
    byte leaves at once and the process holds one chunk, whatever the season's size.

    ``asynchronous`` (an ASGI server's request, daphne's): an asynchronous iterator,
    which daphne streams, each chunk made (and the database read) in Django's one
    thread for synchronous work, as a view would be; else (WSGI, Django's test client)
    a synchronous one. Either kind given to the other server would be read whole first."""
    writer = csv.writer(_Line())
    rows = iter(lines)

    def chunk() -> str:
        return "".join(
            writer.writerow([safe(cell) for cell in line]) for line in islice(rows, LINES_A_CHUNK)
        )

    def chunks() -> Iterator[str]:
        yield writer.writerow(header)
        while text := chunk():
            yield text

    async def async_chunks() -> AsyncIterator[str]:
        yield writer.writerow(header)
        while text := await sync_to_async(chunk)():
            yield text

    content = async_chunks() if asynchronous else chunks()
    response = StreamingHttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _stem(season: Season) -> str:
    return f"{season.league.club.slug}-{season.league.slug}-season-{season.number}"


def standings_csv(season: Season, divisions: list[DivisionStandings]) -> HttpResponse:
    tiebreaks = list(dict.fromkeys(season.tiebreaks or ()))
    header = [
        "division",
        "rank",
        "player",
        "withdrawn",
        "points",
        *(["points_per_game"] if season.per_game else []),
        "fixtures_played",
        "fixtures_won",
        "games_played",
        "games_won",
        "average_per_game",
        *(f"tiebreak_{name}" for name in tiebreaks),
        "best_rank",
        "worst_rank",
    ]
    lines = [
        [
            division.name,
            row.place,
            row.name,
            "yes" if row.withdrawn else "no",
            format_points(row.points),
            *([format_points(row.per_game)] if season.per_game else []),
            row.fixtures_played,
            row.fixtures_won,
            row.games_played,
            row.games_won,
            format_points(row.average),
            *("" if value is None else value for value in row.tiebreak_values(tiebreaks)),
            row.best_rank,
            row.worst_rank,
        ]
        for division in divisions
        for row in division.standings.rows
    ]
    return _csv(f"{_stem(season)}-standings.csv", header, lines)


def results_csv(season: Season, asynchronous: bool = False) -> StreamingHttpResponse:
    """Every seat of every finished game of the season: streamed, a season of 10,000
    games is 40,000 lines."""
    header = [
        "matchday",
        "division",
        "table",
        "game",
        "seat",
        "player",
        "score",
        "place",
        "winner",
        "source",
    ]
    lines = (
        [
            line.matchday,
            line.division,
            line.table,
            line.game,
            line.seat,
            line.player,
            line.score,
            line.place,
            "yes" if line.is_winner else "no",
            line.source,
        ]
        for line in season_result_lines(season)
    )
    return _streamed_csv(f"{_stem(season)}-results.csv", header, lines, asynchronous)
