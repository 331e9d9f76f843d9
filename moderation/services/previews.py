"""What a ruling would change, shown to the moderator before they make it: the game's
result seat by seat and the league division's standings, before and after (rank,
points, and which side of the promotion and relegation lines each player stands).

The ruling is really made, through the same service and checks as :func:`~.rulings.rule`,
inside a savepoint that is then rolled back: the preview cannot differ from what the
ruling will do, because it *is* what the ruling does. Nothing of it outlives the
savepoint (its log entries and rows go with it, and the facts it would announce are
dropped with the savepoint's ``on_commit`` callbacks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from accounts.models import User
from games.models import Game, Result
from games.selectors.players import seat_names
from leagues.models import Division, Season
from leagues.promotion import zones
from leagues.selectors.standings import DivisionStandings, compute_season, season_standings
from leagues.services.season_end import late_correction_note
from moderation.models import Case, Ruling
from moderation.selectors.effects import in_words
from moderation.services.effects import current_rows
from moderation.services.rulings import confirm, make


@dataclass(frozen=True)
class SeatLine:
    """One seat of the game: its player, and score, place and win before and after."""

    seat: int
    name: str
    before: tuple[int, int, bool, bool] | None
    after: tuple[int, int, bool, bool] | None
    """Score, place, winner?, counts? (``False``: the game is void)."""

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class StandingLine:
    """One player of the division: rank, points and zone before and after."""

    name: str
    rank_before: int
    points_before: str
    zone_before: str
    rank_after: int
    points_after: str
    zone_after: str

    @property
    def changed(self) -> bool:
        return (self.rank_before, self.points_before, self.zone_before) != (
            self.rank_after,
            self.points_after,
            self.zone_after,
        )


@dataclass
class Preview:
    """What the ruling would do; ``division`` is empty for a game of no league."""

    seats: list[SeatLine]
    division: str = ""
    promotion: int = 0
    standings: list[StandingLine] = field(default_factory=list)
    proposed: bool = False
    """Whether the ruling will wait for a second moderator's confirmation."""
    clocks: str = ""
    """What happens to the game's clocks, for a game in play ("" once it is over)."""
    effects: list[str] = field(default_factory=list)
    """Everything the ruling would do, in the words its page and the log will use."""
    cannot_hide: str = ""
    """For a rewind: what it cannot hide from the players (:data:`REWIND_CANNOT_HIDE`)."""
    after_close: str = ""
    """For a game of a closed season: that the final order changes and that promotion
    does not follow (:func:`leagues.services.season_end.late_correction_note`)."""

    @property
    def standings_change(self) -> bool:
        return any(line.changed for line in self.standings)


REWIND_CANNOT_HIDE = (
    "What a rewind cannot hide: the tiles laid on the table in the turns it undoes were "
    "seen by everyone at the table, and they go back to the racks they came from. The rest "
    "it hides: the players' move log leaves out the undone turns, and the pool is shuffled "
    "afresh. If what was seen spoils the game, void it instead (a game is voided once it "
    "has ended: pause it meanwhile)."
)
"""Said on the ruling form beside a rewind, and in its preview."""


class _RollBack(Exception):
    """Raised to leave the preview's savepoint, undoing everything in it."""


def preview(
    case: Case,
    by: User,
    kind: str,
    note: str,
    *,
    details: Mapping[str, Any] | None = None,
    target: User | None = None,
    supersedes_id: int | None = None,
) -> Preview:
    """What ``by``'s ruling would change in ``case``. Raises the ruling's own refusals."""
    from moderation.services.checks import needs_second

    def run() -> tuple[bool, Ruling]:
        ruling = make(case.pk, by, kind, note, details, target, supersedes_id, None, True)
        return needs_second(case, kind, ruling.supersedes, by), ruling

    return _compared(case, run)


def preview_confirmation(ruling: Ruling, by: User) -> Preview:
    """What confirming the proposed ``ruling`` would change, as ``by`` (the second
    moderator) would confirm it. Raises the confirmation's own refusals."""

    def run() -> tuple[bool, Ruling]:
        return False, confirm(ruling.pk, by)

    return _compared(ruling.case, run)


def _compared(case: Case, run: Callable[[], tuple[bool, Ruling]]) -> Preview:
    """The game and its division before and after ``run`` (which returns whether the
    ruling waits for a second moderator, and the ruling), run in a savepoint that is
    rolled back."""
    before_rows = _seat_values(case.game_id)
    before_standings = _division(case, cached=True)
    held_before = _held(case.game_id)
    result: dict[str, Any] = {}
    try:
        with transaction.atomic():
            result["proposed"], ruling = run()
            result["after_rows"] = _seat_values(case.game_id)
            result["after_standings"] = _division(case)
            result["clocks"] = _clocks(held_before, _held(case.game_id))
            result["effects"] = in_words(ruling.effects or {})
            result["kind"] = ruling.kind
            raise _RollBack
    except _RollBack:
        pass
    names = seat_names(case.game_id)
    seats = [
        SeatLine(seat, names[seat], before_rows.get(seat), result["after_rows"].get(seat))
        for seat in range(len(names))
        if seat in before_rows or seat in result["after_rows"]
    ]
    out = Preview(
        seats=seats,
        proposed=result["proposed"],
        clocks=result["clocks"],
        effects=result["effects"],
        cannot_hide=REWIND_CANNOT_HIDE if result["kind"] == Ruling.Kind.REWIND else "",
    )
    if before_standings is not None and result["after_standings"] is not None:
        out.division = before_standings[0].name
        out.promotion = before_standings[1]
        out.standings = _lines(before_standings, result["after_standings"])
        season = case.fixture.matchday.season if case.fixture is not None else None
        if season is not None and season.status == Season.Status.FINISHED:
            out.after_close = late_correction_note(season)
    return out


def _held(game_id: int) -> bool | None:
    """Whether the game is held; ``None`` once it is over (it has no clock)."""
    game = Game.objects.only("held_at", "status").get(pk=game_id)
    return None if game.is_over else game.held_at is not None


def _clocks(before: bool | None, after: bool | None) -> str:
    if before is None or after is None:
        return ""
    if after and not before:
        return "The game's clocks stop: nobody moves while this case is open."
    if before and not after:
        return "The game's clocks run again: no open case holds the game any more."
    if before:
        return "The game's clocks stay stopped: an open case still holds the game."
    return "The game's clocks keep running."


def _seat_values(game_id: int) -> dict[int, tuple[int, int, bool, bool]]:
    return {
        seat: (row.score, row.place, row.is_winner, row.source != Result.Source.VOID)
        for seat, row in current_rows(game_id).items()
    }


Zoned = tuple[DivisionStandings, int, dict[int, str]]


def _division(case: Case, cached: bool = False) -> Zoned | None:
    """The standings of the case's fixture's division, with the season's promotion and
    each entry's zone (up, down, or neither).

    ``cached``: "before", read from the season's cached standings (computed once for
    every page; the cache is dropped after any change's commit, never by the rolled back
    ruling); else "after", the division alone computed afresh, inside the savepoint:
    neither grows with the rest of the league."""
    if case.fixture_id is None:
        return None
    fixture = case.fixture
    assert fixture is not None
    season = fixture.matchday.season
    division = Division.objects.get(pk=fixture.division_id)
    levels = Division.objects.filter(season=season).count()
    computed = season_standings(season) if cached else compute_season(season, division.pk)
    for standings in computed:
        if standings.level == division.level:
            rows = standings.standings.rows
            return (
                standings,
                season.promotion,
                zones(rows, division.level, levels, season.promotion),
            )
    return None


def _lines(before: Zoned, after: Zoned) -> list[StandingLine]:
    old = {row.entry: row for row in before[0].standings.rows}
    lines = []
    for row in after[0].standings.rows:
        was = old.get(row.entry, row)
        lines.append(
            StandingLine(
                name=row.name,
                rank_before=was.rank,
                points_before=was.points_text,
                zone_before=before[2].get(row.entry, ""),
                rank_after=row.rank,
                points_after=row.points_text,
                zone_after=after[2].get(row.entry, ""),
            )
        )
    return lines
