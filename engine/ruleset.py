"""Rulesets: every option of RULES.md section 12, the presets, and table settings.

A :class:`Ruleset` is immutable. Build one from a preset and a dict of options that
differ from it; unknown options and bad values are refused with a message naming
the valid ones.

>>> r = Ruleset.from_dict({"allow_wrap": True})
>>> r.allow_wrap, r.initial_meld_min
(True, 30)
>>> Ruleset.preset("keadle_house").score_values
'house'
>>> Ruleset.from_dict({"joker_penalty": 40})
Traceback (most recent call last):
...
engine.ruleset.RulesetError: joker_penalty must be one of 25, 30; got 40

Options that could never be met, or would let racks grow without bound, are refused:
the initial-meld minimum is at most :data:`MAX_INITIAL_MELD` (and with a single-set
meld at most the largest value one set can have, :data:`LARGEST_SET_VALUE`), and a
timed-out turn draws at most :data:`MAX_PENALTY_DRAW` tiles.

>>> Ruleset.from_dict({"initial_meld_single_set": True, "initial_meld_min": 100})
Traceback (most recent call last):
...
engine.ruleset.RulesetError: initial_meld_min must be at most 91 with a single-set initial meld ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

MeldValues = Literal["face", "house"]
JokerSetRule = Literal["free", "locked"]
JokerReplacementSource = Literal["rack_or_table", "rack_only"]
JokerGroupRetrieval = Literal["either_missing", "both_missing"]
ScoreMode = Literal["zero_sum", "penalty_only"]
PoolEmptyWinner = Literal["lowest_value", "fewest_tiles"]
PoolEmptyScoring = Literal["difference", "face", "winner_difference"]
PoolEmptyEnd = Literal["play_until_blocked", "one_more_round", "immediate"]
DrawMode = Literal["single", "river"]
Direction = Literal["clockwise", "counter_clockwise"]


class RulesetError(ValueError):
    """An unknown option, a bad value or an unknown preset; ``option`` names the
    option at fault, when there is one."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


MAX_INITIAL_MELD = 150
"""The highest initial-meld minimum: a starting rack of high tiles can reach it (eight
13s and six 12s make 176), while a higher one would keep players drawing until their
racks held enough, and the solver searching ever larger racks."""

MAX_PENALTY_DRAW = 3
"""The most tiles a timed-out turn draws (RULES.md R4.6 has 3): more would grow the
rack of a player who is away faster than anyone can play it down."""

LARGEST_SET_VALUE = {"face": 91, "house": 95}
"""The largest value a single set can have under ``meld_values``: the run 1-13 (with or
without 13-1 wrap a run holds each number once); a group of four is worth less."""


# Allowed values per option: a tuple lists every choice; a (min, max) range for
# integers is given as a range object so the message can name its bounds.
_CHOICES: dict[str, tuple[Any, ...] | range] = {
    "initial_meld_min": range(0, MAX_INITIAL_MELD + 1),
    "initial_meld_single_set": (False, True),
    "initial_meld_same_turn_manipulation": (False, True),
    "meld_values": ("face", "house"),
    "score_values": ("face", "house"),
    "joker_penalty": (25, 30),
    "allow_wrap": (False, True),
    "joker_set_rule": ("free", "locked"),
    "joker_replacement_source": ("rack_or_table", "rack_only"),
    "joker_group_retrieval": ("either_missing", "both_missing"),
    "score_mode": ("zero_sum", "penalty_only"),
    "pool_empty_winner": ("lowest_value", "fewest_tiles"),
    "pool_empty_scoring": ("difference", "face", "winner_difference"),
    "pool_empty_end": ("play_until_blocked", "one_more_round", "immediate"),
    "turn_time_limit_s": range(1, 366 * 24 * 3600 + 1),
    "failed_turn_penalty_draw": range(0, MAX_PENALTY_DRAW + 1),
    "overtime_penalty_draw": range(0, MAX_PENALTY_DRAW + 1),
    "draw_mode": ("single", "river"),
    "players": range(2, 5),
    "rack_size": (14, 16),
    "direction": ("clockwise", "counter_clockwise"),
}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a table plays by. Field names and defaults are those of RULES.md §12.

    Beyond §12 it carries what a table needs: ``players`` (2-4), ``rack_size``
    (14, or 16 as a variant), ``direction`` of play, and ``overtime_penalty_draw``:
    the tiles drawn when a turn times out with nothing changed (SEED3: a player
    merely over time draws one tile), while ``failed_turn_penalty_draw`` applies
    when the player had started a rearrangement (RULES.md R4.6).
    """

    initial_meld_min: int = 30
    initial_meld_single_set: bool = False
    initial_meld_same_turn_manipulation: bool = False
    meld_values: MeldValues = "face"
    score_values: MeldValues = "face"
    joker_penalty: int = 30
    allow_wrap: bool = False
    joker_set_rule: JokerSetRule = "free"
    joker_replacement_source: JokerReplacementSource = "rack_or_table"
    joker_group_retrieval: JokerGroupRetrieval = "either_missing"
    score_mode: ScoreMode = "zero_sum"
    pool_empty_winner: PoolEmptyWinner = "lowest_value"
    pool_empty_scoring: PoolEmptyScoring = "difference"
    pool_empty_end: PoolEmptyEnd = "play_until_blocked"
    turn_time_limit_s: int = 60
    failed_turn_penalty_draw: int = 3
    overtime_penalty_draw: int = 1
    draw_mode: DrawMode = "single"
    players: int = 4
    rack_size: int = 14
    direction: Direction = "clockwise"

    def __post_init__(self) -> None:
        for field in fields(self):
            _check(field.name, getattr(self, field.name))
        largest = LARGEST_SET_VALUE[self.meld_values]
        if self.initial_meld_single_set and self.initial_meld_min > largest:
            raise RulesetError(
                f"initial_meld_min must be at most {largest} with a single-set initial meld "
                f"and {self.meld_values} values: no set is worth more; "
                f"got {self.initial_meld_min}",
                "initial_meld_min",
            )

    @classmethod
    def preset(cls, name: str) -> Ruleset:
        """One of the named presets: ``standard``, ``keadle_house``, ``classic_locked``.

        >>> Ruleset.preset("classic_locked").joker_set_rule
        'locked'
        """
        try:
            options = PRESETS[name]
        except KeyError:
            raise RulesetError(
                f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}"
            ) from None
        return cls(**options)

    @classmethod
    def from_dict(cls, options: Mapping[str, Any], preset: str = "standard") -> Ruleset:
        """The preset with ``options`` laid over it; unknown keys are refused.

        >>> Ruleset.from_dict({"joker_penalty": 25}, preset="classic_locked").joker_penalty
        25
        >>> Ruleset.from_dict({"wrap": True})
        Traceback (most recent call last):
        ...
        engine.ruleset.RulesetError: unknown option 'wrap'; the options are initial_meld_min, ...
        """
        if not isinstance(options, Mapping):
            raise RulesetError(f"a ruleset must be an object of options, got {options!r}")
        base = cls.preset(preset)
        known = {field.name for field in fields(cls)}
        for key in options:
            if key not in known:
                names = ", ".join(field.name for field in fields(cls))
                raise RulesetError(f"unknown option {key!r}; the options are {names}")
        return replace(base, **options)

    def with_options(self, **options: Any) -> Ruleset:
        """A copy with some options changed (checked like :meth:`from_dict`).

        >>> Ruleset().with_options(players=2).players
        2
        """
        return Ruleset.from_dict({**self.to_dict(), **options})

    def to_dict(self) -> dict[str, Any]:
        """Every option and its value, ready for JSON.

        >>> Ruleset().to_dict()["draw_mode"]
        'single'
        """
        return asdict(self)

    def differences(self, preset: str = "standard") -> dict[str, Any]:
        """Only the options that differ from ``preset``.

        >>> Ruleset.preset("classic_locked").differences()
        {'joker_set_rule': 'locked', 'joker_replacement_source': 'rack_only'}
        """
        base = Ruleset.preset(preset).to_dict()
        return {key: value for key, value in self.to_dict().items() if base[key] != value}


def _check(name: str, value: Any) -> None:
    choices = _CHOICES[name]
    if isinstance(choices, range):
        if isinstance(value, bool) or not isinstance(value, int) or value not in choices:
            raise RulesetError(
                f"{name} must be a whole number from {choices.start} to {choices.stop - 1}; "
                f"got {value!r}",
                name,
            )
        return
    # bool is a subclass of int: compare types too, so 1 is not accepted for True.
    if not any(value == choice and type(value) is type(choice) for choice in choices):
        allowed = ", ".join(_show(choice) for choice in choices)
        raise RulesetError(f"{name} must be one of {allowed}; got {_show(value)}", name)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "keadle_house": {
        "meld_values": "house",
        "score_values": "house",
        "allow_wrap": True,
        "score_mode": "penalty_only",
        "turn_time_limit_s": 60,
        "failed_turn_penalty_draw": 3,
    },
    "classic_locked": {
        "joker_set_rule": "locked",
        "joker_replacement_source": "rack_only",
    },
}
