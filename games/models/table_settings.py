"""A table's settings as one value: its rules, its clock, its round and its forfeit rule.

:class:`TableSettings` is what :func:`~games.services.lobby.create_table` takes and what
the new-table form produces. :meth:`~TableSettings.to_dict` and
:meth:`~TableSettings.from_dict` turn it into plain JSON and back, so a league season
can keep the settings of its tables and use them again. A value that could not make a
table cannot be built: the constructor refuses it with a sentence for the player
(:class:`~games.errors.TableError`), so stored settings are checked again when read.

    >>> settings = TableSettings(preset="keadle_house", options={"joker_penalty": 25})
    >>> settings.to_dict()["options"], settings.turn_seconds
    ({'joker_penalty': 25}, 60)
    >>> TableSettings.from_dict(settings.to_dict()) == settings
    True
    >>> TableSettings(clock="correspondence").turn_seconds
    86400
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, TypeGuard

from engine.clock import CORRESPONDENCE, DAY, HOUR, LIVE, TimeControl
from engine.options import OPTIONS
from engine.ruleset import PRESETS, Ruleset, RulesetError
from games.errors import TableError
from games.models import Table

MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 24 * 3600
MIN_CORRESPONDENCE_SECONDS = HOUR
MAX_CORRESPONDENCE_SECONDS = 14 * DAY
DEFAULT_CORRESPONDENCE_SECONDS = DAY
MAX_TIME_BANK_SECONDS = 14 * DAY
MAX_TIMEOUTS_TO_FORFEIT = 10
MAX_GAMES_IN_ROUND = 20


@dataclass(frozen=True)
class TableSettings:
    """How a table plays, apart from who sits at it.

    - Rules: ``preset`` (a name of :data:`engine.options.PRESETS`) and ``options``, the
      house rules: ruleset options that differ from it (one given at the preset's value
      is dropped). The number of players comes from the seats and the time for a turn
      from the clock, so neither is an option here.
    - Time control: ``clock`` is ``"live"`` (``turn_seconds`` from 10 s to 24 h, by
      default the preset's turn time limit) or ``"correspondence"`` (from 1 hour to 14
      days, by default a day; vacations stop it); ``time_bank_seconds`` is each seat's
      bank (0: none, at most 14 days); ``weekend_pause``, correspondence only: the clock
      stands still from Saturday 00:00 to Monday 00:00 in the mover's zone.
    - ``games_in_round``: 1 to 20, or ``None`` for one game per seat (every player
      starts once).
    - Forfeits: after ``timeouts_to_forfeit`` turns in a row run out of time (1-10) a
      player forfeits the game; ``on_forfeit`` says whether they drop out
      (``"drop_out"``) or a bot takes the seat (``"bot"``).
    """

    preset: str = "standard"
    options: Mapping[str, Any] = field(default_factory=dict)
    clock: str = Table.Clock.LIVE.value
    turn_seconds: int | None = None
    time_bank_seconds: int = 0
    weekend_pause: bool = False
    games_in_round: int | None = None
    timeouts_to_forfeit: int = 3
    on_forfeit: str = Table.OnForfeit.DROP_OUT.value

    def __post_init__(self) -> None:
        if not isinstance(self.preset, str) or self.preset not in PRESETS:
            raise TableError(f"Unknown rules {self.preset!r}; choose one of {', '.join(PRESETS)}.")
        _check_options(self.options)
        if self.clock not in Table.Clock.values:
            raise TableError("A table's clock is live or correspondence.")
        if self.turn_seconds is None:
            object.__setattr__(self, "turn_seconds", self._usual_turn_seconds())
        _check_turn(self.clock, self.turn_seconds)
        _check_weekend_pause(self.clock, self.weekend_pause)
        # Normalised once here, so that equal settings compare (and store) equal: the
        # house rules only, in a read-only mapping.
        differences = self.ruleset(players=2).differences(self.preset)
        house_rules = {
            name: value for name, value in differences.items() if not OPTIONS[name].set_by_table
        }
        object.__setattr__(self, "options", MappingProxyType(house_rules))
        _check_forfeits(self.time_bank_seconds, self.timeouts_to_forfeit, self.on_forfeit)
        games = self.games_in_round
        if games is not None and (not _whole(games) or not 1 <= games <= MAX_GAMES_IN_ROUND):
            raise TableError(f"A round has between 1 and {MAX_GAMES_IN_ROUND} games.")

    def __hash__(self) -> int:
        # The options mapping cannot be hashed; its JSON can.
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    @property
    def time_control(self) -> TimeControl:
        """The clock's kind, time per turn and bank, as the clock computes with them."""
        assert self.turn_seconds is not None  # filled in by __post_init__
        kind = CORRESPONDENCE if self.clock == Table.Clock.CORRESPONDENCE else LIVE
        return TimeControl(kind, self.turn_seconds, self.time_bank_seconds, self.weekend_pause)

    def ruleset(self, players: int) -> Ruleset:
        """The rules of a table of ``players`` seats: the preset, the house rules, and
        the clock's time for a turn."""
        resolved = {**self.options, "players": players, "turn_time_limit_s": self.turn_seconds}
        try:
            return Ruleset.from_dict(resolved, self.preset)
        except RulesetError as err:
            raise TableError(f"{str(err)[0].upper()}{str(err)[1:]}.") from None

    def games_for(self, seats: int) -> int:
        """The games of a round at a table of ``seats`` seats."""
        return seats if self.games_in_round is None else self.games_in_round

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: what a league season stores."""
        values = {setting.name: getattr(self, setting.name) for setting in fields(self)}
        return values | {"options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSettings:
        """Settings from :meth:`to_dict`'s JSON, checked as when built; a setting left
        out takes its default, an unknown one is refused."""
        if not isinstance(data, Mapping):
            raise TableError("Table settings are an object of settings.")
        names = [setting.name for setting in fields(cls)]
        unknown = [key for key in data if key not in names]
        if unknown:
            raise TableError(
                f"Unknown table setting {unknown[0]!r}; the settings are {', '.join(names)}."
            )
        return cls(**data)

    @classmethod
    def of_table(cls, table: Table) -> TableSettings:
        """The settings ``table`` was created with (to set up another one like it): each
        setting is the table's field of the same name."""
        return cls(**{setting.name: getattr(table, setting.name) for setting in fields(cls)})

    def _usual_turn_seconds(self) -> int:
        if self.clock == Table.Clock.CORRESPONDENCE:
            return DEFAULT_CORRESPONDENCE_SECONDS
        return Ruleset.preset(self.preset).turn_time_limit_s


def _check_options(options: object) -> None:
    if not isinstance(options, Mapping):
        raise TableError("House rules are an object of options.")
    if "players" in options:
        raise TableError("The number of players is the number of seats.")
    if "turn_time_limit_s" in options:
        raise TableError("The time for a turn is the clock's: give turn_seconds.")


def _check_turn(clock: str, seconds: object) -> None:
    if not _whole(seconds):
        raise TableError("The time for a turn is a whole number of seconds.")
    if clock == Table.Clock.CORRESPONDENCE:
        if not MIN_CORRESPONDENCE_SECONDS <= seconds <= MAX_CORRESPONDENCE_SECONDS:
            raise TableError(
                "A correspondence turn lasts between 1 hour and "
                f"{MAX_CORRESPONDENCE_SECONDS // DAY} days."
            )
    elif not MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS:
        raise TableError(
            f"A turn lasts between {MIN_TURN_SECONDS} seconds and {MAX_TURN_SECONDS // 3600} hours."
        )


def _check_weekend_pause(clock: str, pause: object) -> None:
    if type(pause) is not bool:
        raise TableError("The weekend pause is on or off.")
    # A live game is played while everyone is there: a clock that stopped at midnight on
    # Friday would hold a game in the middle of a turn.
    if pause and clock != Table.Clock.CORRESPONDENCE:
        raise TableError("Only a correspondence clock pauses on weekends.")


def _check_forfeits(bank: object, timeouts: object, on_forfeit: object) -> None:
    if not _whole(bank) or not 0 <= bank <= MAX_TIME_BANK_SECONDS:
        raise TableError(f"A time bank holds from 0 to {MAX_TIME_BANK_SECONDS // DAY} days.")
    if not _whole(timeouts) or not 1 <= timeouts <= MAX_TIMEOUTS_TO_FORFEIT:
        raise TableError(
            f"A player forfeits after 1 to {MAX_TIMEOUTS_TO_FORFEIT} timed-out turns in a row."
        )
    if on_forfeit not in Table.OnForfeit.values:
        raise TableError("A player who forfeits drops out, or a bot takes the seat.")


def _whole(value: object) -> TypeGuard[int]:
    # type() rather than isinstance(): True is an int, but not a number of anything here.
    return type(value) is int
