"""Rulesets: every option of RULES.md section 12 and a table's own, and the presets.

What each option is (kind, choices, bounds, defaults, labels) is described once in
:mod:`engine.options`; this module checks a whole ruleset against it.

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

from engine.options import DEFAULTS, OPTIONS
from engine.options import LARGEST_SET_VALUE as LARGEST_SET_VALUE
from engine.options import MAX_INITIAL_MELD as MAX_INITIAL_MELD
from engine.options import MAX_PENALTY_DRAW as MAX_PENALTY_DRAW
from engine.options import PRESETS as PRESETS

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


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a table plays by. Field names and defaults are those of RULES.md §12;
    the defaults, bounds and choices come from the options' description,
    :data:`engine.options.OPTIONS`.

    Beyond §12 it carries what a table needs: ``players`` (2-4), ``rack_size``
    (14, or 16 as a variant), ``direction`` of play, and ``overtime_penalty_draw``:
    the tiles drawn when a turn times out with nothing changed (SEED3: a player
    merely over time draws one tile), while ``failed_turn_penalty_draw`` applies
    when the player had started a rearrangement (RULES.md R4.6).
    """

    initial_meld_min: int = DEFAULTS["initial_meld_min"]
    initial_meld_single_set: bool = DEFAULTS["initial_meld_single_set"]
    initial_meld_same_turn_manipulation: bool = DEFAULTS["initial_meld_same_turn_manipulation"]
    meld_values: MeldValues = DEFAULTS["meld_values"]
    score_values: MeldValues = DEFAULTS["score_values"]
    joker_penalty: int = DEFAULTS["joker_penalty"]
    allow_wrap: bool = DEFAULTS["allow_wrap"]
    joker_set_rule: JokerSetRule = DEFAULTS["joker_set_rule"]
    joker_replacement_source: JokerReplacementSource = DEFAULTS["joker_replacement_source"]
    joker_group_retrieval: JokerGroupRetrieval = DEFAULTS["joker_group_retrieval"]
    score_mode: ScoreMode = DEFAULTS["score_mode"]
    pool_empty_winner: PoolEmptyWinner = DEFAULTS["pool_empty_winner"]
    pool_empty_scoring: PoolEmptyScoring = DEFAULTS["pool_empty_scoring"]
    pool_empty_end: PoolEmptyEnd = DEFAULTS["pool_empty_end"]
    turn_time_limit_s: int = DEFAULTS["turn_time_limit_s"]
    failed_turn_penalty_draw: int = DEFAULTS["failed_turn_penalty_draw"]
    overtime_penalty_draw: int = DEFAULTS["overtime_penalty_draw"]
    draw_mode: DrawMode = DEFAULTS["draw_mode"]
    players: int = DEFAULTS["players"]
    rack_size: int = DEFAULTS["rack_size"]
    direction: Direction = DEFAULTS["direction"]

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
    refusal = OPTIONS[name].refusal(value)
    if refusal is not None:
        raise RulesetError(refusal, name)
