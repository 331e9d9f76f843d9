"""A round: several games among the same seats, with scores added up (RULES.md R9.5).

Two separate things live here. :class:`Round` is the round's *schedule*: how many
games, each game's seed and who starts it. :class:`Tally` adds up finished games'
scores and says who leads: pure arithmetic on numbers, so the results of a game
corrected after the fact (which has no engine state to go with them) count exactly
like played ones, and the web app's stored results and the engine use the same rules.

By default a round has as many games as there are players (SEED3: "with four players
a round is made up of four games"). The first game's starting player comes from the
draw for the first player; each later game starts with the seat after the previous
game's starting player, in the direction of play. Each game's seed is derived from
the round's seed, so a whole round replays from one seed and the games' actions.

Who wins the round:

* ``score_mode: "zero_sum"`` (PRESS): the player who won most games; a tie is broken
  by the highest cumulative score.
* ``score_mode: "penalty_only"`` (SEED3): the lowest cumulative total; a tie is broken
  by most games won.

Players still tied after that share the win: :attr:`Tally.winners` lists them all and
:attr:`Tally.winner` is ``None``.

>>> from engine.game import new_game
>>> from engine.ruleset import Ruleset
>>> rnd = Round.start(Ruleset(players=2), seed="club-night")
>>> rnd.games, rnd.game_seed(0)
(2, 'club-night:1')
>>> rnd.game(0) == new_game(Ruleset(players=2), "club-night:1")
True
>>> tally = Tally.of("zero_sum", 2, [GameScores((-12, 12), 1), GameScores((30, -30), 0)])
>>> tally.totals, tally.wins, tally.standings, tally.winner
((18, -18), (1, 1), (0, 1), 0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.game import Seed, new_game
from engine.ruleset import Ruleset
from engine.state import GameState, seat_after


class RoundError(ValueError):
    """A game that does not belong in the round, or scores that do not add up."""


@dataclass(frozen=True, slots=True)
class Round:
    """The schedule of one round: its games' seeds and starting players."""

    ruleset: Ruleset
    seed: Seed
    games: int

    def __post_init__(self) -> None:
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise RoundError(f"a round has at least one game, got {self.games!r}")

    @classmethod
    def start(cls, ruleset: Ruleset, seed: Seed, games: int | None = None) -> Round:
        """A round of ``games`` games; ``games`` defaults to the number of players.

        >>> Round.start(Ruleset(players=3), seed=1).games
        3
        """
        return cls(ruleset, seed, ruleset.players if games is None else games)

    def game_seed(self, index: int) -> str:
        """The seed of game ``index`` (counting from 0)."""
        return f"{self.seed}:{index + 1}"

    def is_last(self, index: int) -> bool:
        """True when game ``index`` (counting from 0) is the round's last."""
        return index == self.games - 1

    def starting_player(self, index: int, previous_starter: int | None = None) -> int | None:
        """Who starts game ``index``: ``None`` for the first (decided by the draw), else
        the seat after ``previous_starter``, who started game ``index - 1``.

        >>> rnd = Round.start(Ruleset(players=3), 1)
        >>> rnd.starting_player(0) is None, rnd.starting_player(1, previous_starter=2)
        (True, 0)
        """
        self._check_index(index)
        if index == 0:
            return None
        if previous_starter is None:
            raise RoundError(f"game {index + 1} of the round needs the previous game's starter")
        return seat_after(previous_starter, self.ruleset)

    def game(self, index: int, previous_starter: int | None = None) -> GameState:
        """The start of game ``index``; see :meth:`starting_player` for ``previous_starter``."""
        starter = self.starting_player(index, previous_starter)
        return new_game(self.ruleset, self.game_seed(index), starter)

    def _check_index(self, index: int) -> None:
        if not 0 <= index < self.games:
            raise RoundError(f"a round of {self.games} games has no game {index + 1}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"ruleset": self.ruleset.to_dict(), "seed": self.seed, "games": self.games}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        """Read the form written by :meth:`to_dict`."""
        try:
            return cls(Ruleset.from_dict(data["ruleset"]), data["seed"], data["games"])
        except (KeyError, TypeError) as err:
            raise RoundError(f"not a round: {err}") from err


@dataclass(frozen=True, slots=True)
class GameScores:
    """One finished game as a round counts it: each seat's score and the winner."""

    scores: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class Tally:
    """Each seat's cumulative score and games won, and what follows from them.

    ``score_mode`` is the ruleset's (``"zero_sum"`` or ``"penalty_only"``);
    ``totals`` and ``wins`` are indexed by seat.
    """

    score_mode: str
    totals: tuple[int, ...]
    wins: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.totals) != len(self.wins):
            raise RoundError("totals and wins must name the same seats")

    @classmethod
    def of(cls, score_mode: str, players: int, games: Iterable[GameScores]) -> Tally:
        """Add up finished games.

        >>> Tally.of("zero_sum", 2, []).totals
        (0, 0)
        """
        totals, wins = [0] * players, [0] * players
        for game in games:
            if len(game.scores) != players:
                raise RoundError(f"a game of {len(game.scores)} seats in a round of {players}")
            for seat, score in enumerate(game.scores):
                totals[seat] += score
            if game.winner is not None:
                wins[game.winner] += 1
        return cls(score_mode, tuple(totals), tuple(wins))

    def rank_key(self, seat: int) -> tuple[int, int]:
        """Smaller is better; equal keys share a place."""
        if self.score_mode == "penalty_only":
            return (self.totals[seat], -self.wins[seat])
        return (-self.wins[seat], -self.totals[seat])

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats from best to worst (tied seats in seat order)."""
        return tuple(sorted(range(len(self.totals)), key=self.rank_key))

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's place, from 1; tied seats share the better place.

        >>> Tally("zero_sum", (5, 5, -10), (1, 1, 0)).places
        (1, 1, 3)
        """
        return _places(len(self.totals), self.rank_key)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats sharing first place (one seat unless a tie remains)."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    @property
    def winner(self) -> int | None:
        """The seat in first place alone; ``None`` if first place is shared.

        Whether the round is over is for the caller to say: a leader is not a winner
        before the last game ends.
        """
        winners = self.winners
        return winners[0] if len(winners) == 1 else None


def game_places(score_mode: str, scores: Sequence[int], winner: int | None) -> tuple[int, ...]:
    """Each seat's place in one game, from 1: the winner first, then by score (highest
    first under ``zero_sum``, lowest penalty first under ``penalty_only``); seats with
    equal scores share the better place.

    >>> game_places("zero_sum", (-5, 12, -7), winner=1)
    (2, 1, 3)
    >>> game_places("penalty_only", (0, 0, 9), winner=1)
    (2, 1, 3)
    >>> game_places("zero_sum", (-4, -4), winner=None)
    (1, 1)
    """
    if winner is not None and not 0 <= winner < len(scores):
        raise RoundError(f"no seat {winner} among {len(scores)}")
    sign = 1 if score_mode == "penalty_only" else -1

    def key(seat: int) -> tuple[int, int]:
        return (0 if seat == winner else 1, sign * scores[seat])

    return _places(len(scores), key)


@dataclass(frozen=True)
class Forfeit:
    """One game's result once a seat forfeits it: scores, winner and places by seat."""

    scores: tuple[int, ...]
    winner: int | None
    places: tuple[int, ...]


def forfeit(score_mode: str, scores: Sequence[int], winner: int | None, seat: int) -> Forfeit:
    """``seat`` forfeits a finished game: it loses its win and takes the last place,
    below every other seat, and scores the game's worst score (the lowest, or the
    highest penalty).

    Under ``zero_sum`` what the forfeiter loses goes to the winner, as a loser's rack
    does (R9.2): to the seat that won, or, when the forfeiter had won, to the best of
    the others, who wins instead; the game still sums to what it summed to. Under
    ``penalty_only`` nothing is shared (penalties are not a transfer) and a seat that
    wins instead of the forfeiter scores what a winner scores, 0. The other seats keep
    their order.

    >>> forfeit("zero_sum", (125, -125), winner=0, seat=0)
    Forfeit(scores=(-125, 125), winner=1, places=(2, 1))
    >>> forfeit("zero_sum", (100, -100, 0), winner=0, seat=2)
    Forfeit(scores=(200, -100, -100), winner=0, places=(1, 2, 3))
    >>> forfeit("penalty_only", (0, 12, 30), winner=0, seat=0)
    Forfeit(scores=(30, 0, 30), winner=1, places=(3, 1, 2))
    """
    players = len(scores)
    if not 0 <= seat < players or players < 2:
        raise RoundError(f"no seat {seat} among {players} to forfeit")
    penalty = score_mode == "penalty_only"
    new = list(scores)
    new[seat] = max(scores) if penalty else min(scores)
    others = [s for s in range(players) if s != seat]
    sign = 1 if penalty else -1
    best = min(others, key=lambda s: (s != winner, sign * scores[s], s))
    gets = best if winner is None or winner == seat else winner
    if penalty:
        if winner == seat:
            new[gets] = 0
    else:
        new[gets] += scores[seat] - new[seat]
    now_winner = None if winner is None else gets
    order = game_places(
        score_mode,
        [new[s] for s in others],
        None if now_winner is None else others.index(now_winner),
    )
    places = [0] * players
    for index, s in enumerate(others):
        places[s] = order[index]
    places[seat] = players
    return Forfeit(tuple(new), now_winner, tuple(places))


def _places(seats: int, key: Callable[[int], tuple[int, int]]) -> tuple[int, ...]:
    """Places from 1 by ``key`` (smaller is better), equal keys sharing a place."""
    keys = [key(seat) for seat in range(seats)]
    return tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)
