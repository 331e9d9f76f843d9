"""What a chain of rulings may change, read whole, so that a test can say "back exactly as
it was": the game's result rows (values, places, whether they count, whether they read
as corrected), the round's scoreboard, the league's standings and corrections, the
members' suspensions in force, the game's state and clocks, and the cases' states."""

from __future__ import annotations

from typing import Any

from django.test import TestCase

from accounts.models import User
from games.models import Game, Result
from games.selectors.results import AS_PLAYED
from games.selectors.scoreboard import scoreboard
from leagues.models import Season
from leagues.selectors.corrections import season_corrections
from leagues.selectors.standings import compute_season
from moderation.models import Case, Ruling, Suspension
from moderation.services.rulings import rule


def ruled(case: Case, by: User, kind: str, **kwargs: Any) -> Ruling:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return rule(case.pk, by, kind, kwargs.pop("note", "Seen in the move log."), **kwargs)


def world(game: Game, season: Season | None = None) -> dict[str, Any]:
    """Everything a ruling on ``game`` may change, as plain values."""
    game.refresh_from_db()
    rows = {
        row.seat: (
            row.score,
            row.rack_value,
            row.place,
            row.is_winner,
            row.source != Result.Source.VOID,
            row.source not in AS_PLAYED,
        )
        for row in Result.objects.current().of_game(game)
    }
    board = scoreboard(game.table)
    out: dict[str, Any] = {
        "rows": rows,
        "round": (board.totals, board.standings, board.winner_name),
        "suspended": sorted(
            Suspension.objects.filter(lifted_at=None).values_list(
                "user_id", "club_id", "ends_at", "chat_only"
            )
        ),
        "game": (game.state, game.turn_number, game.current_seat, game.is_over),
        "held": game.held_at is not None,
        "cases": sorted(Case.objects.filter(game=game).values_list("pk", "status")),
    }
    if season is not None:
        out["standings"] = [division.standings for division in compute_season(season)]
        corrections = season_corrections(season)
        out["corrected"] = (sorted(corrections.entries), corrections.by_level)
    return out
