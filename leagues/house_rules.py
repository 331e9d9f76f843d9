"""A league's house rules: the checks they must pass, and the same rules in words.

:func:`check_house_rules` is what the league's form and its service both call, so a
league is never saved with rules no season could be played by; :func:`pace_warning` says
(without refusing) when a fixture cannot be played out within a matchday at the rules'
turn time. :func:`house_rules_in_words` is what the league and season pages show.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from common.errors import Refusal
from engine.clock import DAY, HOUR
from games.models.table_settings import TableSettings
from games.selectors.listing import turn_label
from games.selectors.rules_summary import RulesSummary, rules_summary
from leagues.conf import close_grace
from leagues.models import (
    TIEBREAKS,
    HouseRules,
    OnDeadline,
    OnSuspension,
    OnWithdrawal,
    Scoring,
)
from leagues.scheduling import SEATS

MAX_DIVISION_SIZE = 40
"""The most players of a division (the scheduler is measured up to 40)."""
MAX_VACATION_DAYS = 60
MATCHDAY_DAYS = (1, 60)


class HouseRulesError(ValueError):
    """House rules no season could be played by; ``field`` names the rule."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field, self.message = field, message


def check_house_rules(rules: Mapping[str, Any]) -> None:
    """Refuse (:class:`HouseRulesError`) house rules that do not fit together.

    ``rules`` has a value for each of :attr:`HouseRules.HOUSE_RULES`.

    >>> check_house_rules({**DEFAULTS, "scoring": "placement", "placement_points": [4, 2, 1]})
    Traceback (most recent call last):
    ...
    leagues.house_rules.HouseRulesError: Give points for each of the 4 places, 1st first.
    """
    seats = rules["seats"]
    if seats not in SEATS:
        raise HouseRulesError("seats", "A fixture's table has 2, 3 or 4 seats.")
    try:
        TableSettings.from_dict(rules["table_settings"]).ruleset(players=seats)
    except Refusal as error:  # games' TableError: settings that could not make a table
        raise HouseRulesError("table_settings", error.message) from None
    _check_scoring(rules["scoring"], rules["placement_points"], seats)
    _check_tiebreaks(rules["tiebreaks"])
    _check_divisions(rules["division_size"], rules["promotion"], seats)
    low, high = MATCHDAY_DAYS
    if not _whole(rules["matchday_days"]) or not low <= rules["matchday_days"] <= high:
        raise HouseRulesError("matchday_days", f"A matchday lasts {low} to {high} days.")
    if not _whole(rules["vacation_days"]) or not 0 <= rules["vacation_days"] <= MAX_VACATION_DAYS:
        raise HouseRulesError(
            "vacation_days", f"A season allows 0 to {MAX_VACATION_DAYS} vacation days."
        )
    if rules["on_deadline"] not in OnDeadline.values:
        raise HouseRulesError("on_deadline", "Choose how a late fixture is settled.")
    if rules["on_withdrawal"] not in OnWithdrawal.values:
        raise HouseRulesError("on_withdrawal", "Choose what becomes of a withdrawn player's games.")
    if rules["on_suspension"] not in OnSuspension.values:
        raise HouseRulesError("on_suspension", "Choose what becomes of a suspended player's games.")


def _check_scoring(scoring: object, points: object, seats: int) -> None:
    if scoring == Scoring.CUMULATIVE:
        if points:
            raise HouseRulesError(
                "placement_points", "Cumulative scoring gives no placement points."
            )
        return
    if scoring != Scoring.PLACEMENT:
        raise HouseRulesError("scoring", "Scoring is cumulative or by placement.")
    if not isinstance(points, list) or len(points) != seats or not all(map(_whole, points)):
        raise HouseRulesError(
            "placement_points", f"Give points for each of the {seats} places, 1st first."
        )
    if any(p < 0 or p > 100 for p in points):
        raise HouseRulesError("placement_points", "Placement points run from 0 to 100.")
    if any(better < worse for better, worse in itertools.pairwise(points)):
        raise HouseRulesError(
            "placement_points", "A better place never earns fewer points than a worse one."
        )
    if points[0] == points[-1]:
        raise HouseRulesError("placement_points", "The 1st place must earn more than the last.")


def _check_tiebreaks(tiebreaks: object) -> None:
    if not isinstance(tiebreaks, list) or not all(name in TIEBREAKS for name in tiebreaks):
        raise HouseRulesError("tiebreaks", f"Tiebreaks are among: {', '.join(TIEBREAKS)}.")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise HouseRulesError("tiebreaks", "Each tiebreak counts once.")


def _check_divisions(size: object, promotion: object, seats: int) -> None:
    if size is not None and (not _whole(size) or not seats <= size <= MAX_DIVISION_SIZE):
        raise HouseRulesError(
            "division_size",
            f"A division holds {seats} to {MAX_DIVISION_SIZE} players (at least a table).",
        )
    if not _whole(promotion) or promotion < 0:
        raise HouseRulesError("promotion", "Promotion is a number of players, 0 or more.")
    if isinstance(size, int) and promotion > size // 2:
        raise HouseRulesError(
            "promotion", f"At most half a division ({size // 2}) goes up or down."
        )


def _whole(value: object) -> TypeGuard[int]:
    # type() rather than isinstance(): True is an int, but no number of anything here.
    return type(value) is int


DEFAULTS: dict[str, Any] = {
    "seats": 4,
    "table_settings": TableSettings().to_dict(),
    "scoring": Scoring.CUMULATIVE.value,
    "placement_points": [],
    "tiebreaks": ["games_won", "head_to_head", "total_score"],
    "registration_approval": False,
    "division_size": None,
    "promotion": 2,
    "matchday_days": 7,
    "vacation_days": 7,
    "vacations_extend": True,
    "on_deadline": OnDeadline.AS_IT_STANDS.value,
    "on_withdrawal": OnWithdrawal.BOT.value,
    "on_suspension": OnSuspension.BOT.value,
}
"""House rules a new league starts from (a doctest's, and the form's initial values)."""


WEEKDAYS = 5
"""The days of a week a clock that pauses on weekends runs."""

TURNS_PER_PLAYER = 12
"""The turns each player takes in a game, as the pace warning estimates them (a game of
Rummikub lasts about 10 to 15 rounds)."""


def pace_warning(seats: int, table_settings: Mapping[str, Any], matchday_days: int) -> str:
    """A warning when a fixture, each turn using its whole time, outlasts a matchday
    (``""`` when it does not): its players may not finish it by the deadline.

    >>> import textwrap
    >>> pace_warning(3, TableSettings(clock="correspondence", games_in_round=2).to_dict(), 7)
    'A fixture takes about 72 turns...'
    >>> print(textwrap.fill(_, 88))
    A fixture takes about 72 turns (3 players, 2 games, about 12 turns each a game): at 1
    day a turn, up to 72 days, longer than a matchday of 7 days. Fixtures whose players take
    their time will be settled at the deadline: shorten the turn time, play fewer games a
    fixture or lengthen the matchdays.
    >>> pace_warning(4, TableSettings(clock="live").to_dict(), 1)
    ''
    >>> weekly = TableSettings(clock="correspondence", turn_seconds=6 * HOUR, games_in_round=1)
    >>> pace_warning(2, weekly.to_dict(), 7)
    ''
    >>> paused = TableSettings(**{**weekly.to_dict(), "weekend_pause": True}).to_dict()
    >>> pace_warning(2, paused, 7)
    'A fixture takes about 24 turns ... up to 6 days of clock time (weekends paused), ...'
    """
    settings = TableSettings.from_dict(dict(table_settings))
    assert settings.turn_seconds is not None  # filled in by TableSettings
    games = settings.games_for(seats)
    turns = seats * games * TURNS_PER_PLAYER
    needs = turns * settings.turn_seconds
    # Paused on weekends, turn clocks run on five days of seven, and a turn lasts a
    # calendar week for each five days of its time; the matchday's deadline does not move.
    clock_days = matchday_days * DAY * (WEEKDAYS / 7 if settings.weekend_pause else 1)
    if needs <= clock_days:
        return ""
    span = f"{-(-needs // DAY)} days" if needs > DAY else f"{-(-needs // HOUR)} h"
    weekdays = " of clock time (weekends paused)" if settings.weekend_pause else ""
    return (
        f"A fixture takes about {turns} turns ({seats} players, {games} "
        f"game{'s' * (games != 1)}, about {TURNS_PER_PLAYER} turns each a game): at "
        f"{turn_label(settings.turn_seconds)} a turn, up to {span}{weekdays}, longer than a "
        f"matchday of {matchday_days} day{'s' * (matchday_days != 1)}. Fixtures whose players take "
        "their time will be settled at the deadline: shorten the turn time, play fewer "
        "games a fixture or lengthen the matchdays."
    )


@dataclass(frozen=True)
class HouseRulesInWords:
    """What a page says of a league's or season's house rules."""

    lines: tuple[tuple[str, str], ...]
    """(what, how) pairs: "Tables", "3 players, 3 games a fixture", ..."""
    rules: RulesSummary
    """The game rules: the preset and its house rules."""
    pace: str = ""
    """:func:`pace_warning`: a fixture may outlast its matchday."""


def house_rules_in_words(holder: HouseRules) -> HouseRulesInWords:
    """A league's (or a season's) house rules as a page states them."""
    settings = TableSettings.from_dict(holder.table_settings)
    games = settings.games_for(holder.seats)
    return HouseRulesInWords(
        lines=(
            ("Tables", f"{holder.seats} players, {games} game{'s' * (games != 1)} a fixture"),
            ("Clock", _clock_words(settings)),
            ("Forfeits", _forfeit_words(settings)),
            ("Scoring", _scoring_words(holder, settings)),
            *_standings_words(holder),
            ("Tiebreaks", ", then ".join(TIEBREAKS[name] for name in holder.tiebreaks) or "None"),
            ("Matchdays", _matchday_words(holder, settings)),
            ("Late fixtures", OnDeadline(holder.on_deadline).label),
            ("Withdrawals", OnWithdrawal(holder.on_withdrawal).label),
            ("Suspensions", OnSuspension(holder.on_suspension).label),
            ("Vacations", _vacation_words(holder)),
            ("Divisions", _division_words(holder)),
            ("Season close", _close_words()),
            (
                "Registration",
                "An organiser approves each one"
                if holder.registration_approval
                else "Any member may register",
            ),
        ),
        rules=rules_summary(settings.ruleset(players=holder.seats), settings.preset),
        pace=pace_warning(holder.seats, holder.table_settings, holder.matchday_days),
    )


def _vacation_words(holder: HouseRules) -> str:
    allowance = f"{holder.vacation_days} days a season"
    if holder.vacations_extend:
        return (
            f"{allowance}; a vacation during a matchday extends its player's fixture by the "
            "days it overlaps the matchday, at most the matchday's length"
        )
    return f"{allowance}; fixtures keep their deadline (the close preview names who was away)"


def _close_words() -> str:
    hours = int(close_grace().total_seconds() // 3600)
    grace = f"{hours // 24} days" if hours % 24 == 0 and hours >= 48 else f"{hours} hours"
    return (
        "When an organiser confirms it, or at a close announced in advance, at least "
        f"{grace} after the last deadline; disputes may be reported until then"
    )


def _clock_words(settings: TableSettings) -> str:
    assert settings.turn_seconds is not None  # filled in by TableSettings
    turn = f"{turn_label(settings.turn_seconds)} a turn"
    kind = "Correspondence" if settings.clock == "correspondence" else "Live, at agreed times"
    bank = f", {turn_label(settings.time_bank_seconds)} bank" if settings.time_bank_seconds else ""
    weekend = (
        "; paused on weekends: a turn's clock stands still from Saturday 00:00 to Monday "
        "00:00 in the time zone of the player whose turn it is"
        if settings.weekend_pause
        else ""
    )
    return f"{kind}: {turn}{bank}{weekend}"


def _matchday_words(holder: HouseRules, settings: TableSettings) -> str:
    """A matchday's length, and (when the clocks pause on weekends) that its deadline
    does not: the organiser set a date, which every player reads in their own zone, and
    a deadline that moved with each player's weekends would be a different moment for
    each of a fixture's players."""
    days = f"{holder.matchday_days} day{'s' * (holder.matchday_days != 1)} each"
    if not settings.weekend_pause:
        return days
    return f"{days}, weekends included: the weekend pause stops turn clocks, not matchday deadlines"


def _forfeit_words(settings: TableSettings) -> str:
    then = "a bot takes the seat" if settings.on_forfeit == "bot" else "the player drops out"
    count = settings.timeouts_to_forfeit
    return f"After {count} timed-out turn{'s' * (count != 1)} in a row; {then}"


def _scoring_words(holder: HouseRules, settings: TableSettings) -> str:
    if holder.scoring == Scoring.PLACEMENT:
        return "Placement points per fixture: " + "/".join(map(str, holder.placement_points))
    if settings.ruleset(players=holder.seats).score_mode == "penalty_only":
        return "Cumulative game scores: penalty points, the lowest total wins"
    return "Cumulative game scores: zero-sum, the highest total wins"


def _standings_words(holder: HouseRules) -> tuple[tuple[str, str], ...]:
    if not getattr(holder, "per_game", False):
        return ()
    played = "complete fixture" if holder.scoring == Scoring.PLACEMENT else "game"
    return (
        (
            "Standings",
            f"By points per {played} played: this season's length gives players unequal "
            "numbers of fixtures",
        ),
    )


def _division_words(holder: HouseRules) -> str:
    if holder.division_size is None:
        return "Everyone in one division"
    return (
        f"About {holder.division_size} players each, at least a table; "
        f"{holder.promotion} up and down each season"
    )
