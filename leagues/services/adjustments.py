"""An organiser's score adjustment: a ruling in all but name.

:func:`propose` refuses a game the organiser plays in (or whose fixture they do, in any
way) or is a party to a case about (:mod:`leagues.conflicts`); otherwise the change is
stored ``proposed`` and waits for a second organiser or moderator of the club free of
those conflicts, who confirms it (:func:`confirm`: it is applied) or declines it
(:func:`decline`: nothing changes). Where nobody else could decide it, it is applied at
once, and the organiser is told so. Once the season is closed every score change is
refused: its results change only through a moderation ruling. Applying it supersedes the
seat's result row through the results service (the old row stays); the round's totals
and the standings follow from the rows. The proposer and the game's players are told of
the outcome, and every step is in the season's history (the adjustment's own events, and
the result rows).

Under zero-sum scoring a game sums to what it summed to: the winner scores what the
others lose (R9.2), so a loser's score changed moves the winner's by as much the other
way (:func:`corrections`), and the winner's own score is not changed alone.

Lock order: the close's (:mod:`leagues.services.locks`): the season row, its matchday,
the fixture, then the adjustment row, then the game (and, in the results service, its
table). The season lock orders a change with the season's close: applied before the
close reads the final order, or refused as closed after it. The fixture lock orders two
organisers proposing for one game, and a confirmation with a decline of the same
proposal; the game lock, taken before the current score is compared, orders it with a
moderators' ruling on the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from games.selectors.players import seat_names
from games.services import InvalidRuling
from games.services.locking import lock_game
from games.services.results import SeatCorrection, supersede
from leagues.conflicts import game_conflicts, refuse_conflicts
from leagues.errors import Conflict, LeaguesError, NotFound
from leagues.models import Division, Entry, Fixture, ScoreAdjustment, Season
from leagues.notices import LeagueNotice
from leagues.selectors.adjustments import deciders, why_not_decide
from leagues.selectors.standings import compute_season
from leagues.services.deadlines import audited
from leagues.services.locks import lock_fixture
from leagues.signals import announce, score_adjusted
from leagues.standings import ZERO_SUM
from notifications.services import notices

Status = ScoreAdjustment.Status


def _required(text: str, sentence: str) -> str:
    if not text.strip():
        raise LeaguesError(sentence)
    return text.strip()


def propose(
    season: Season,
    game_id: int,
    seat: int,
    score: int,
    by: User,
    reason: str,
    now: datetime | None = None,
) -> ScoreAdjustment:
    """Propose that seat ``seat`` of finished game ``game_id`` scored ``score``: stored
    for a second organiser, or applied at once where nobody else could decide it (its
    ``status`` says which). Raises :class:`~leagues.errors.LeaguesError` (nothing
    changed) when it is refused."""
    why = _required(reason, "Give the reason: it is kept in the season's history.")
    now = timezone.now() if now is None else now
    with transaction.atomic(), audited(why, by):
        fixture_id = (
            Fixture.objects.filter(matchday__season=season, table__games__pk=game_id)
            .values_list("pk", flat=True)
            .first()
        )
        if fixture_id is None:
            raise NotFound("That game is not one of this season's fixtures.")
        held = lock_fixture(fixture_id)
        _refuse_closed(held.season)
        game = Game.objects.get(pk=game_id)
        refuse_conflicts(game_conflicts(by, game, held.fixture))
        lock_game(game.pk)
        if ScoreAdjustment.objects.filter(game=game, status=Status.PROPOSED).exists():
            raise Conflict(
                "A score change of this game awaits a second organiser: confirm or decline "
                "it first."
            )
        before = _current_score(game, seat)
        if before == score:
            raise LeaguesError(f"Seat {seat + 1} scored {score} already: nothing would change.")
        corrections(game, seat, before, score)  # refuses a change that breaks the sum
        adjustment = ScoreAdjustment.objects.create(
            season=season,
            fixture=held.fixture,
            game=game,
            seat=seat,
            score_before=before,
            score=score,
            reason=why,
            proposed_by=by,
            created_at=now,
        )
        others = deciders(adjustment)
        if not others:
            return _apply(adjustment, None, now)
        text = f"{by} proposes {_describe(adjustment)}: confirm or decline it."
        for user in others:
            notices.create(
                user.pk,
                LeagueNotice.LEAGUE_SEASON,
                text,
                adjustment_url(adjustment),
                subject=adjustment,
                key=f"league-adjustment-proposed:{adjustment.pk}",
            )
    return adjustment


def confirm(adjustment_id: int, by: User, now: datetime | None = None) -> ScoreAdjustment:
    """A second organiser or moderator confirms a proposed score change: it is applied."""
    now = timezone.now() if now is None else now
    with transaction.atomic(), audited("Confirmed by a second organiser.", by):
        adjustment = _lock_proposed(adjustment_id, by)
        return _apply(adjustment, by, now)


def decline(
    adjustment_id: int, by: User, note: str, now: datetime | None = None
) -> ScoreAdjustment:
    """A second organiser or moderator declines a proposed score change: nothing of it
    happens."""
    why = _required(note, "Say why you decline it: the organiser who proposed it reads it.")
    now = timezone.now() if now is None else now
    with transaction.atomic(), audited(why, by):
        adjustment = _lock_proposed(adjustment_id, by)
        adjustment.status, adjustment.decided_by = Status.DECLINED, by
        adjustment.decision_note, adjustment.decided_at = why, now
        adjustment.save(update_fields=["status", "decided_by", "decision_note", "decided_at"])
        _tell_outcome(adjustment, f"{by} declined {_describe(adjustment)}: {why}")
    return adjustment


def _refuse_closed(season: Season) -> None:
    """After the close the standings are final: promotion was applied and the players
    told their rank. A result then changes only through a moderation ruling, whose
    preview shows its effect on the final order. ``season`` is locked (read under the
    lock, its status is the one the close leaves)."""
    if season.status == Season.Status.FINISHED:
        raise Conflict(
            f"{season} is closed: its results are final and change only through a "
            "moderators' ruling. Report the game to the moderators if it needs correcting."
        )


def _current(game: Game, seat: int) -> dict[int, Result]:
    current = {row.seat: row for row in Result.objects.current().of_game(game)}
    if not game.is_over or not current:
        raise LeaguesError("Only a finished game's score can be adjusted.")
    if seat not in current:
        raise LeaguesError(f"The game has no seat {seat + 1}.")
    return current


def _current_score(game: Game, seat: int) -> int:
    return _current(game, seat)[seat].score


def corrections(game: Game, seat: int, before: int, score: int) -> dict[int, SeatCorrection]:
    """What setting ``seat``'s score from ``before`` to ``score`` changes in ``game``.

    Under penalty points only that seat (a penalty is not a transfer). Under zero-sum
    the winner's score moves the other way by as much, so the game's sum stays; a
    winner's own score, a loser's above nothing, and a game without a winner are refused
    (:class:`~leagues.errors.LeaguesError`): there the sum could not stay."""
    change = {seat: SeatCorrection(score=score)}
    if game.engine_ruleset().score_mode != ZERO_SUM:
        return change
    current = _current(game, seat)
    winner = next((row for row in current.values() if row.is_winner), None)
    if winner is None:
        raise LeaguesError(
            "This game has no winner to balance a zero-sum score change against: report "
            "the game to the moderators if its result needs correcting."
        )
    if winner.seat == seat:
        raise LeaguesError(
            "Under zero-sum scoring the winner scores what the others lose: change a "
            "loser's score and the winner's follows."
        )
    if score > 0:
        raise LeaguesError(
            "Under zero-sum scoring a loser scores what is left on their rack, taken away: "
            "0 or less."
        )
    change[winner.seat] = SeatCorrection(score=winner.score - (score - before))
    return change


def _lock_proposed(adjustment_id: int, by: User) -> ScoreAdjustment:
    fixture_id = (
        ScoreAdjustment.objects.filter(pk=adjustment_id)
        .values_list("fixture_id", flat=True)
        .first()
    )
    if fixture_id is None:
        raise NotFound("No such score change.")
    lock_fixture(fixture_id)
    adjustment = (
        ScoreAdjustment.objects.select_for_update(of=("self",))
        .select_related("season", "fixture", "game", "proposed_by")
        .get(pk=adjustment_id)
    )
    if adjustment.status != Status.PROPOSED:
        raise Conflict(f"This score change is {adjustment.get_status_display().lower()}.")
    refuse_conflicts(why_not_decide(by, adjustment))
    return adjustment


def _apply(adjustment: ScoreAdjustment, by: User | None, now: datetime) -> ScoreAdjustment:
    """Supersede the seat's result row, and record and tell who decided it."""
    # Locked again where propose or confirm holds them already (a preview does not):
    # the season's status and the game's rows are read under the locks they change under.
    _refuse_closed(lock_fixture(adjustment.fixture_id).season)
    lock_game(adjustment.game_id)
    # A ruling (or another organiser) may have changed the game since it was proposed:
    # the second organiser confirmed a change from the score they were shown. A void
    # keeps every score, but the game counts for nobody: a change would make it count.
    current = _current(adjustment.game, adjustment.seat)
    if current[adjustment.seat].score != adjustment.score_before or any(
        row.source == Result.Source.VOID for row in current.values()
    ):
        raise Conflict(
            "The game's result changed since this score change was proposed: decline it, "
            "and propose it again if it is still needed."
        )
    change = corrections(
        adjustment.game, adjustment.seat, adjustment.score_before, adjustment.score
    )
    try:
        supersede(
            adjustment.game_id,
            change,
            Result.Source.RULING,
            adjustment.reason,
            adjustment.proposed_by,
            now,
        )
    except InvalidRuling as error:
        raise LeaguesError(error.message) from error
    adjustment.status = Status.APPLIED if by is None else Status.CONFIRMED
    adjustment.decided_by, adjustment.decided_at = by, now
    adjustment.save(update_fields=["status", "decided_by", "decided_at"])
    announce(
        score_adjusted,
        ScoreAdjustment,
        adjustment.season_id,
        refresh=False,
        adjustment_id=adjustment.pk,
        game_id=adjustment.game_id,
        seat=adjustment.seat,
    )
    if by is None:
        text = f"{adjustment.proposed_by} changed {_describe(adjustment)}: {adjustment.reason}"
    else:
        text = f"{by} confirmed {_describe(adjustment)}: the standings follow."
    _tell_outcome(adjustment, text)
    return adjustment


def _describe(adjustment: ScoreAdjustment) -> str:
    follows = adjustment.game.engine_ruleset().score_mode == ZERO_SUM
    return (
        f"the score of seat {adjustment.seat + 1} in game {adjustment.game.number} at table "
        f"{adjustment.game.table_id} from {adjustment.score_before} to {adjustment.score}"
        + (" (the winner's follows, zero-sum)" if follows else "")
    )


def _tell_outcome(adjustment: ScoreAdjustment, text: str) -> None:
    """The proposer (unless they decided it at once themself) and the game's players."""
    players = set(
        Entry.objects.filter(fixture_seats__fixture_id=adjustment.fixture_id).values_list(
            "user_id", flat=True
        )
    )
    players |= set(
        Result.objects.current()
        .of_game(adjustment.game_id)
        .exclude(member=None)
        .values_list("member_id", flat=True)
    )
    told = {adjustment.proposed_by_id} if adjustment.decided_by_id else set()
    season = adjustment.season
    standings = reverse(
        "leagues:standings",
        kwargs={
            "slug": season.league.club.slug,
            "league_slug": season.league.slug,
            "number": season.number,
        },
    )
    for user_id in sorted((told | players) - {adjustment.decided_by_id}):
        notices.create(
            user_id,
            LeagueNotice.LEAGUE_SEASON,
            text[:1].upper() + text[1:],
            adjustment_url(adjustment) if user_id in told else standings,
            subject=adjustment,
            key=f"league-adjustment-{adjustment.status}:{adjustment.pk}",
        )


def adjustment_url(adjustment: ScoreAdjustment) -> str:
    season = adjustment.season
    league = season.league
    return reverse(
        "leagues:adjustment", args=[league.club.slug, league.slug, season.number, adjustment.pk]
    )


# --- what it changes ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    """One seat of the game: its player, and score and place before and after."""

    seat: int
    name: str
    before: tuple[int, int]
    after: tuple[int, int]

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class StandingLine:
    """One player of the division: rank and points before and after."""

    name: str
    before: tuple[int, str]
    after: tuple[int, str]

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass
class Preview:
    """What applying a score change would do; ``refused`` says why it cannot be now."""

    seats: list[SeatLine] = field(default_factory=list)
    division: str = ""
    standings: list[StandingLine] = field(default_factory=list)
    refused: str = ""


class _RollBack(Exception):
    """Raised to leave the preview's savepoint, undoing everything in it."""


def preview(adjustment: ScoreAdjustment) -> Preview:
    """The game's seats and the division's standings before and after ``adjustment``
    applies: it is really applied, in a savepoint that is then rolled back (as
    moderation previews a ruling), so the preview is what applying it does."""
    game, division = adjustment.game, adjustment.fixture.division_id
    before = _seats(game), _standings(adjustment.season, division)
    after: tuple[dict[int, tuple[int, int]], dict[int, tuple[str, int, str]]] | None = None
    try:
        with transaction.atomic():
            _apply(adjustment, None, timezone.now())
            after = _seats(game), _standings(adjustment.season, division)
            raise _RollBack
    except _RollBack:
        pass
    except LeaguesError as error:
        return Preview(refused=error.message)
    finally:
        adjustment.refresh_from_db()
    assert after is not None
    names = seat_names(game)
    seats = [
        SeatLine(seat, names[seat] if seat < len(names) else "", before[0][seat], after[0][seat])
        for seat in sorted(before[0])
    ]
    standings = [
        StandingLine(name, before[1][entry][1:], (rank, points))
        for entry, (name, rank, points) in after[1].items()
        if entry in before[1]
    ]
    name = Division.objects.filter(pk=division).values_list("name", flat=True).first() or ""
    return Preview(seats=seats, division=name, standings=standings)


def _seats(game: Game) -> dict[int, tuple[int, int]]:
    return {row.seat: (row.score, row.place) for row in Result.objects.current().of_game(game)}


def _standings(season: Season, division_id: int) -> dict[int, tuple[str, int, str]]:
    level = Division.objects.filter(pk=division_id).values_list("level", flat=True).first()
    for division in compute_season(season):
        if division.level == level:
            return {
                row.entry: (row.name, row.rank, row.points_text) for row in division.standings.rows
            }
    return {}
