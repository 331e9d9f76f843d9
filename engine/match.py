"""Bot against bot: ``python -m engine match``.

    python -m engine match --bots strong,normal --games 200 --seed 1
    python -m engine match --bots strong,normal,easy --games 90 --preset keadle_house

Each deal is played once per seating: in game ``g`` the deal is ``g // players`` and
the entrants sit rotated by ``g % players``, so every entrant plays every rack of a
deal and, with seat 0 always starting, starts equally often. Luck of the deal cancels
out this way, which makes small samples meaningful. Everything is derived from
``--seed``, so a match replays exactly. A game that passes ``--max-turns`` is stopped
and counted as capped: no winner, score 0 for everyone.

Each bot thinks within the solver's steps its level has on the server
(:data:`engine.bots.BOT_STEPS`, the default of ``GAMES_BOT_STEPS``), counted in steps
and never in time: the bots measured are the ones members play, and a match gives the
same games on any machine and under any load.

Figures (standard rules, two players, 200 games, ``--seed 1``, under the bots' budget):

=================  =============  =============  ==========================
match              win rates      avg scores     avg tiles left (per bot)
=================  =============  =============  ==========================
normal vs easy     100% / 0%      +102 / -102    0.01 / 14.75
strong vs easy     100% / 0%      +102 / -102    0.01 / 14.76
strong vs normal   69.5% / 30.5%  +2.5 / -2.5    1.47 / 1.93
=================  =============  =============  ==========================

The budget leaves these the games played without one: no bot's move ran out of its
level's steps in them (the most a move spent was 74%, in strong against normal; one
part of a move ran out of its share once, in normal against easy, to the same play).
Strong against normal with ``--seed 2`` (measured without the budget): 68.0% / 32.0%,
+3.65 / -3.65. Between the two solver bots the games are close and end with few tiles
left, so the scores are small; what decides them is mostly who goes out first, and
strong refuses to open the way for the other (:mod:`engine.bots._strong`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.bots import BOT_STEPS, LEVELS, Level, choose_for
from engine.game import apply, new_game
from engine.ruleset import PRESETS, Ruleset
from engine.solver import Budget
from engine.state import GameState

DEFAULT_MAX_TURNS = 1000

Steps = Mapping[Level, int]
"""The solver's steps for a bot's whole move, by level (:data:`engine.bots.BOT_STEPS`)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished (or capped) game: per entrant, in entrant order, its score,
    tiles left and whether it won."""

    index: int
    scores: tuple[int, ...]
    tiles_left: tuple[int, ...]
    winner: int | None
    turns: int
    capped: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's results over a match."""

    name: str
    games: int
    wins: int
    total_score: int
    total_tiles_left: int

    @property
    def win_rate(self) -> float:
        """Wins per game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        """Score per game."""
        return self.total_score / self.games if self.games else 0.0

    @property
    def average_tiles_left(self) -> float:
        """Tiles left on the rack per game."""
        return self.total_tiles_left / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class MatchResult:
    """All games of a match and the standings they add up to."""

    entrants: tuple[Level, ...]
    records: tuple[GameRecord, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Entrant names: the level, numbered when a level plays more than once."""
        return entrant_names(self.entrants)

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Per entrant, in entrant order."""
        return tuple(
            Standing(
                name=name,
                games=len(self.records),
                wins=sum(1 for r in self.records if r.winner == i),
                total_score=sum(r.scores[i] for r in self.records),
                total_tiles_left=sum(r.tiles_left[i] for r in self.records),
            )
            for i, name in enumerate(self.names)
        )

    @property
    def capped(self) -> int:
        """Games stopped at the turn cap."""
        return sum(1 for r in self.records if r.capped)


def parse_levels(text: str) -> tuple[Level, ...]:
    """Levels from a comma-separated list.

    >>> parse_levels("strong, normal")
    ('strong', 'normal')
    >>> parse_levels("strong,expert")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot level 'expert'; the levels are easy, normal, strong
    """
    by_name: dict[str, Level] = {level: level for level in LEVELS}
    levels = []
    for name in text.split(","):
        level = by_name.get(name.strip())
        if level is None:
            raise ValueError(
                f"unknown bot level {name.strip()!r}; the levels are {', '.join(LEVELS)}"
            )
        levels.append(level)
    return tuple(levels)


def entrant_names(entrants: Sequence[Level]) -> tuple[str, ...]:
    """Names for a list of levels, numbered where a level repeats.

    >>> entrant_names(["strong", "normal", "strong"])
    ('strong#1', 'normal', 'strong#2')
    """
    names = []
    for i, level in enumerate(entrants):
        if entrants.count(level) > 1:
            names.append(f"{level}#{entrants[: i + 1].count(level)}")
        else:
            names.append(level)
    return tuple(names)


def play_game(
    entrants: Sequence[Level],
    ruleset: Ruleset,
    seed: int | str,
    index: int,
    max_turns: int = DEFAULT_MAX_TURNS,
    steps: Steps = BOT_STEPS,
) -> GameRecord:
    """Play game ``index`` of a match; the record lists entrants in the given order.
    Each move of a bot of level ``L`` is bounded by ``steps[L]`` solver steps (only
    steps: a move does not depend on the machine).

    >>> record = play_game(["normal", "easy"], Ruleset(players=2), seed=5, index=0)
    >>> record.winner in (0, 1, None), len(record.scores), record.capped
    (True, 2, False)
    """
    players = len(entrants)
    if ruleset.players != players:
        raise ValueError(f"{players} entrants for a table of {ruleset.players}")
    deal, rotation = divmod(index, players)
    # Seat s holds entrant (s + rotation) % players.
    seated = [entrants[(seat + rotation) % players] for seat in range(players)]
    rngs = [random.Random(f"{seed}:{index}:{seat}") for seat in range(players)]
    budgets = [Budget(steps=steps[level]) for level in seated]
    state = new_game(ruleset, f"{seed}:{deal}", starting_player=0)
    turns = 0
    while not state.is_over and turns < max_turns:
        seat = state.current_player
        action = choose_for(state, seat, seated[seat], rngs[seat], budgets[seat])
        before = state.turn_number
        state = apply(state, action, seat)
        turns += state.turn_number - before
    return _record(state, index, rotation, turns)


def _record(state: GameState, index: int, rotation: int, turns: int) -> GameRecord:
    players = state.players
    seat_of = [(entrant - rotation) % players for entrant in range(players)]
    outcome = state.outcome
    scores = (0,) * players if outcome is None else tuple(outcome.scores[s] for s in seat_of)
    winner_seat = None if outcome is None else outcome.winner
    return GameRecord(
        index=index,
        scores=scores,
        tiles_left=tuple(len(state.racks[s]) for s in seat_of),
        winner=None if winner_seat is None else seat_of.index(winner_seat),
        turns=turns,
        capped=outcome is None,
    )


def run_match(
    entrants: Sequence[Level],
    games: int,
    seed: int | str,
    ruleset: Ruleset,
    max_turns: int = DEFAULT_MAX_TURNS,
    jobs: int = 1,
    progress: Callable[[GameRecord], None] | None = None,
    steps: Steps = BOT_STEPS,
) -> MatchResult:
    """Play ``games`` games among ``entrants`` (one per seat) and collect the results;
    each bot's move within ``steps`` of its level (:func:`play_game`).

    ``jobs`` > 1 plays games in that many processes; the results do not depend on it.

    >>> result = run_match(["normal", "easy"], 2, seed=1, ruleset=Ruleset(players=2))
    >>> [s.games for s in result.standings], sum(s.wins for s in result.standings) <= 2
    ([2, 2], True)
    """
    for level in entrants:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    records = []
    for record in _play_all(tuple(entrants), games, seed, ruleset, max_turns, jobs, steps):
        records.append(record)
        if progress is not None:
            progress(record)
    records.sort(key=lambda r: r.index)
    return MatchResult(tuple(entrants), tuple(records))


def _play_all(
    entrants: tuple[Level, ...],
    games: int,
    seed: int | str,
    ruleset: Ruleset,
    max_turns: int,
    jobs: int,
    steps: Steps,
) -> Iterator[GameRecord]:
    if jobs <= 1:
        for index in range(games):
            yield play_game(entrants, ruleset, seed, index, max_turns, steps)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(
            play_game,
            [entrants] * games,
            [ruleset] * games,
            [seed] * games,
            range(games),
            [max_turns] * games,
            [dict(steps)] * games,
            chunksize=4,
        )


def format_result(result: MatchResult, seconds: float | None = None) -> str:
    """The standings as a table, and a summary line.

    >>> record = GameRecord(0, (12, -12), (0, 3), 0, 40, False)
    >>> print(format_result(MatchResult(("strong", "normal"), (record,))))
    bot       games  wins  win rate  avg score  avg tiles left
    strong        1     1    100.0%     +12.00            0.00
    normal        1     0      0.0%     -12.00            3.00
    1 games, 0 capped: strong wins 100.0% (avg +12.00), normal wins 0.0% (avg -12.00)
    """
    lines = [
        f"{'bot':<8} {'games':>6} {'wins':>5} {'win rate':>9} {'avg score':>10} "
        f"{'avg tiles left':>15}"
    ]
    for s in result.standings:
        lines.append(
            f"{s.name:<8} {s.games:>6} {s.wins:>5} {s.win_rate:>9.1%} "
            f"{s.average_score:>+10.2f} {s.average_tiles_left:>15.2f}"
        )
    parts = ", ".join(
        f"{s.name} wins {s.win_rate:.1%} (avg {s.average_score:+.2f})" for s in result.standings
    )
    took = "" if seconds is None else f" in {seconds:.0f} s"
    lines.append(f"{len(result.records)} games, {result.capped} capped{took}: {parts}")
    return "\n".join(lines)


# --- the command line ------------------------------------------------------------------


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``match`` to the ``python -m engine`` command line."""
    parser = commands.add_parser(
        "match",
        help="play bots against each other and print win rates and scores",
        description="Play bots against each other; seats rotate between games.",
    )
    parser.add_argument(
        "--bots",
        required=True,
        help=f"comma-separated levels, one per seat ({', '.join(LEVELS)})",
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seed", default="1", help="match seed (default 1)")
    parser.add_argument(
        "--preset", default="standard", choices=sorted(PRESETS), help="ruleset preset"
    )
    parser.add_argument(
        "--players",
        type=int,
        help="seats at the table; bots are repeated in order to fill them (default: one each)",
    )
    parser.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        help=f"stop a game after this many turns (default {DEFAULT_MAX_TURNS})",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    parser.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    """Run the ``match`` command from parsed arguments."""
    try:
        levels = parse_levels(args.bots)
        players = args.players or len(levels)
        ruleset = Ruleset.preset(args.preset).with_options(players=players)
    except ValueError as error:
        print(f"python -m engine match: {error}", file=sys.stderr)
        return 2
    entrants = tuple(levels[i % len(levels)] for i in range(players))
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    start = time.monotonic()
    result = run_match(entrants, args.games, seed, ruleset, args.max_turns, args.jobs)
    print(format_result(result, time.monotonic() - start))
    return 0
