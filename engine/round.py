"""A round: several games among the same seats, with scores added up (RULES.md R9.5).

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

Players still tied after that share the win: :attr:`Round.winners` lists them all and
:attr:`Round.winner` is ``None``.

>>> from engine.game import apply, new_game
>>> from engine.ruleset import Ruleset
>>> rnd = Round.start(Ruleset(players=2), seed="club-night")
>>> rnd.games, rnd.game_seed(0), rnd.is_over
(2, 'club-night:1', False)
>>> rnd.next_game() == new_game(Ruleset(players=2), "club-night:1")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Seed, new_game
from engine.ruleset import Ruleset
from engine.state import GameState, Outcome, seat_after


class RoundError(ValueError):
    """A game that does not belong in the round at this point, or a finished round."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a round: who started it and how it ended."""

    starting_player: int
    outcome: Outcome

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"starting_player": self.starting_player, "outcome": self.outcome.to_dict()}


@dataclass(frozen=True, slots=True)
class Round:
    """The games of one round so far. Immutable: :meth:`record` returns a new round."""

    ruleset: Ruleset
    seed: Seed
    games: int
    results: tuple[GameResult, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise RoundError(f"a round has at least one game, got {self.games!r}")
        if len(self.results) > self.games:
            raise RoundError(f"a round of {self.games} games cannot hold {len(self.results)}")

    @classmethod
    def start(cls, ruleset: Ruleset, seed: Seed, games: int | None = None) -> Round:
        """A round with no games played; ``games`` defaults to the number of players.

        >>> Round.start(Ruleset(players=3), seed=1).games
        3
        """
        return cls(ruleset, seed, ruleset.players if games is None else games)

    @property
    def is_over(self) -> bool:
        """True once every game of the round has been recorded."""
        return len(self.results) == self.games

    def game_seed(self, index: int) -> str:
        """The seed of game ``index`` (counting from 0)."""
        return f"{self.seed}:{index + 1}"

    def next_starting_player(self) -> int | None:
        """Who starts the next game; ``None`` for the first (decided by the draw).

        >>> Round.start(Ruleset(players=3), 1).next_starting_player() is None
        True
        """
        if not self.results:
            return None
        return seat_after(self.results[-1].starting_player, self.ruleset)

    def next_game(self) -> GameState:
        """The start of the next game of the round."""
        if self.is_over:
            raise RoundError("the round is over")
        index = len(self.results)
        return new_game(self.ruleset, self.game_seed(index), self.next_starting_player())

    def record(self, state: GameState) -> Round:
        """The round with the finished game ``state`` added as its next game."""
        if self.is_over:
            raise RoundError("the round is over")
        if state.outcome is None:
            raise RoundError("only a finished game can be recorded")
        if state.ruleset != self.ruleset:
            raise RoundError("the game was played under another ruleset than the round")
        expected = self.next_starting_player()
        if expected is None:
            expected = self.next_game().starting_player
        if state.starting_player != expected:
            raise RoundError(
                f"game {len(self.results) + 1} of the round starts with player {expected}, "
                f"not player {state.starting_player}"
            )
        result = GameResult(state.starting_player, state.outcome)
        return Round(self.ruleset, self.seed, self.games, (*self.results, result))

    @property
    def totals(self) -> tuple[int, ...]:
        """Cumulative scores by seat.

        >>> Round.start(Ruleset(players=2), 1).totals
        (0, 0)
        """
        totals = [0] * self.ruleset.players
        for result in self.results:
            for seat, score in enumerate(result.outcome.scores):
                totals[seat] += score
        return tuple(totals)

    @property
    def wins(self) -> tuple[int, ...]:
        """Games won by each seat."""
        wins = [0] * self.ruleset.players
        for result in self.results:
            if result.outcome.winner is not None:
                wins[result.outcome.winner] += 1
        return tuple(wins)

    def _rank_key(self, seat: int) -> tuple[int, int]:
        """Smaller is better."""
        if self.ruleset.score_mode == "penalty_only":
            return (self.totals[seat], -self.wins[seat])
        return (-self.wins[seat], -self.totals[seat])

    @property
    def standings(self) -> tuple[int, ...]:
        """Seats from best to worst so far (tied seats in seat order)."""
        return tuple(sorted(range(self.ruleset.players), key=self._rank_key))

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats sharing first place so far (one seat unless a tie remains)."""
        best = self._rank_key(self.standings[0])
        return tuple(seat for seat in self.standings if self._rank_key(seat) == best)

    @property
    def winner(self) -> int | None:
        """The round's winner once it is over; ``None`` before, or if first place is shared."""
        if not self.is_over or len(self.winners) != 1:
            return None
        return self.winners[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "ruleset": self.ruleset.to_dict(),
            "seed": self.seed,
            "games": self.games,
            "results": [result.to_dict() for result in self.results],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        """Read the form written by :meth:`to_dict`."""
        try:
            results = tuple(
                GameResult(r["starting_player"], Outcome.from_dict(r["outcome"]))
                for r in data["results"]
            )
            return cls(Ruleset.from_dict(data["ruleset"]), data["seed"], data["games"], results)
        except (KeyError, TypeError) as err:
            raise RoundError(f"not a round: {err}") from err
