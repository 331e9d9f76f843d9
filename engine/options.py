"""One description of every ruleset option, read by everything that shows or checks one.

Each :class:`Option` says what an option of RULES.md §12 (and the few a table adds) is:
its name, its kind (``bool``, ``choice``, or ``int`` with bounds), its choices with
their labels, its default in each preset, a short label and a help sentence for
players. :class:`~engine.ruleset.Ruleset` checks values against it and takes its
defaults from it; the web app builds the new-table form and the rules summary from it.
Checks that join several options (a single-set meld cannot exceed the largest set)
stay in the ruleset.

>>> option = OPTIONS["initial_meld_min"]
>>> option.kind, option.low, option.high, option.default
('int', 0, 150, 30)
>>> option.bounds()
'From 0 to 150 points.'
>>> OPTIONS["meld_values"].value_label("house")
'House values'
>>> OPTIONS["allow_wrap"].default, OPTIONS["allow_wrap"].default_in("keadle_house")
(False, True)
>>> OPTIONS["joker_penalty"].refusal(40)
'joker_penalty must be one of 25, 30; got 40'
>>> [option.name for option in house_rule_options()][:3]
['initial_meld_min', 'initial_meld_single_set', 'initial_meld_same_turn_manipulation']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["bool", "choice", "int"]
Value = bool | int | str

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

MAX_TURN_TIME_LIMIT = 366 * 24 * 3600
"""The longest turn a ruleset accepts (a year); tables set narrower bounds per clock."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One value an option may take, and how it reads for players."""

    value: Value
    label: str


@dataclass(frozen=True, slots=True)
class Option:
    """One ruleset option (see the module's docstring).

    ``choices`` lists every value of a ``bool`` or ``choice`` option; an ``int`` option
    takes any whole number from ``low`` to ``high``, counted in ``unit``. An option
    with ``set_by_table`` is not a house rule: the table's seats or clock give it.
    """

    name: str
    kind: Kind
    group: str
    label: str
    help: str
    default: Value
    choices: tuple[Choice, ...] = ()
    low: int = 0
    high: int = 0
    unit: str = ""
    set_by_table: bool = False

    def default_in(self, preset: str) -> Value:
        """The option's value in ``preset`` (``KeyError`` for an unknown preset).

        >>> OPTIONS["score_mode"].default_in("keadle_house")
        'penalty_only'
        """
        value: Value = PRESETS[preset].get(self.name, self.default)
        return value

    def values(self) -> tuple[Value, ...]:
        """Every value of a ``bool`` or ``choice`` option (empty for an ``int``)."""
        return tuple(choice.value for choice in self.choices)

    def refusal(self, value: object) -> str | None:
        """Why ``value`` is refused for this option, or ``None`` if it is allowed.

        Types count: ``1`` is not ``True``, nor ``30.0`` a whole number.

        >>> OPTIONS["allow_wrap"].refusal(1)
        'allow_wrap must be one of false, true; got 1'
        >>> OPTIONS["failed_turn_penalty_draw"].refusal(4)
        'failed_turn_penalty_draw must be a whole number from 0 to 3; got 4'
        >>> OPTIONS["draw_mode"].refusal("river") is None
        True
        """
        if self.kind == "int":
            # type() rather than isinstance(): True is an int, but not a whole number here.
            if type(value) is int and self.low <= value <= self.high:
                return None
            return (
                f"{self.name} must be a whole number from {self.low} to {self.high}; got {value!r}"
            )
        # bool is a subclass of int: compare types too, so 1 is not accepted for True.
        if any(value == allowed and type(value) is type(allowed) for allowed in self.values()):
            return None
        shown = ", ".join(show(allowed) for allowed in self.values())
        return f"{self.name} must be one of {shown}; got {show(value)}"

    def value_label(self, value: Value) -> str:
        """``value`` in players' words.

        >>> OPTIONS["initial_meld_min"].value_label(50)
        '50 points'
        >>> OPTIONS["overtime_penalty_draw"].value_label(1)
        '1 tile'
        >>> OPTIONS["initial_meld_single_set"].value_label(True)
        'A single set'
        """
        if self.kind == "int":
            unit = self.unit[:-1] if value == 1 and self.unit.endswith("s") else self.unit
            return f"{value} {unit}".strip()
        for choice in self.choices:
            if choice.value == value and type(choice.value) is type(value):
                return choice.label
        return show(value)

    def bounds(self) -> str:
        """The bounds of an ``int`` option as a sentence (empty for the others)."""
        if self.kind != "int":
            return ""
        return f"From {self.low} to {self.high} {self.unit}.".replace(" .", ".")


def show(value: object) -> str:
    """A value as JSON writes it: ``true``, ``"house"``, ``30``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _bool_option(name: str, group: str, label: str, words: tuple[str, str], help: str) -> Option:
    """A ``bool`` option, off by default; ``words`` says what off and on mean."""
    no, yes = words
    choices = (Choice(False, no), Choice(True, yes))
    return Option(name, "bool", group, label, help, default=False, choices=choices)


def _choice_option(
    name: str, group: str, label: str, words: Mapping[Value, str], help: str, *, default: Value
) -> Option:
    """A ``choice`` option; ``words`` says what each value means, in the order players
    read them."""
    choices = tuple(Choice(value, meaning) for value, meaning in words.items())
    return Option(name, "choice", group, label, help, default, choices)


def _int_option(
    name: str,
    group: str,
    label: str,
    bounds: tuple[int, int, str],
    help: str,
    *,
    default: int,
    set_by_table: bool = False,
) -> Option:
    """An ``int`` option; ``bounds`` is ``(low, high, unit)``."""
    low, high, unit = bounds
    return Option(
        name,
        "int",
        group,
        label,
        help,
        default,
        low=low,
        high=high,
        unit=unit,
        set_by_table=set_by_table,
    )


_FIRST_MELD = "Initial meld"
_SETS = "Sets and jokers"
_TURNS = "Dealing and turns"
_SCORING = "Scoring"
_EMPTY_POOL = "When the pool is empty"
_TABLE = "Table"

# One constructor per kind, each taking the option's name, group and label, then its
# values (the words for no and yes; each choice's words; the bounds and unit), the help
# sentence for players, and its default where the kind has no fixed one.
_DESCRIPTION = (
    _int_option(
        "initial_meld_min",
        _FIRST_MELD,
        "Initial meld",
        (0, MAX_INITIAL_MELD, "points"),
        "The least a player's first sets must be worth. With a single-set meld at most "
        f"{LARGEST_SET_VALUE['face']} (face values) or {LARGEST_SET_VALUE['house']} (house "
        "values), as no set is worth more.",
        default=30,
    ),
    _bool_option(
        "initial_meld_single_set",
        _FIRST_MELD,
        "Initial meld in one set",
        ("One or more sets", "A single set"),
        "The initial meld must be a single set worth the minimum on its own.",
    ),
    _bool_option(
        "initial_meld_same_turn_manipulation",
        _FIRST_MELD,
        "Rearrange on the initial meld turn",
        ("Not allowed", "Allowed"),
        "The turn of the initial meld may also rearrange the sets on the table; only "
        "tiles from the rack count toward the minimum.",
    ),
    _choice_option(
        "meld_values",
        _FIRST_MELD,
        "Meld values",
        {"face": "Face value", "house": "House values"},
        "How tiles count toward the initial meld. House values: 1 counts 15, 2-9 count 5, "
        "10-13 count 10.",
        default="face",
    ),
    _bool_option(
        "allow_wrap",
        _SETS,
        "13-1 runs",
        ("Not allowed", "Allowed"),
        "Runs may go on from 13 to 1, like 12 13 1.",
    ),
    _choice_option(
        "joker_set_rule",
        _SETS,
        "Sets with a joker",
        {"free": "Free to rearrange", "locked": "Only extended"},
        "Only extended: a set holding a joker may only grow, or have its joker replaced "
        "by the tile it stands for; nothing may be taken from it.",
        default="free",
    ),
    _choice_option(
        "joker_replacement_source",
        _SETS,
        "Joker replaced from",
        {"rack_or_table": "Rack or table", "rack_only": "Rack only"},
        "Where the tile that takes a joker's place may come from.",
        default="rack_or_table",
    ),
    _choice_option(
        "joker_group_retrieval",
        _SETS,
        "Joker taken from a group of 3 needs",
        {"either_missing": "Either missing colour", "both_missing": "Both missing colours"},
        "What takes a joker out of a three-tile group: one of the missing colours, or "
        "both (the group becomes four real tiles).",
        default="either_missing",
    ),
    _choice_option(
        "rack_size",
        _TURNS,
        "Tiles dealt",
        {14: "14 tiles", 16: "16 tiles"},
        "The tiles each player is dealt at the start of a game.",
        default=14,
    ),
    _choice_option(
        "direction",
        _TURNS,
        "Direction of play",
        {"clockwise": "Clockwise", "counter_clockwise": "Counter-clockwise"},
        "Which way the turn passes around the table.",
        default="clockwise",
    ),
    _choice_option(
        "draw_mode",
        _TURNS,
        "Drawing",
        {"single": "One tile", "river": "Two, one to the River"},
        "With the River a player draws two tiles and discards one face up; a discarded "
        "tile can be taken later together with every tile discarded after it.",
        default="single",
    ),
    _int_option(
        "failed_turn_penalty_draw",
        _TURNS,
        "Penalty for a failed turn",
        (0, MAX_PENALTY_DRAW, "tiles"),
        "Tiles drawn when time runs out in the middle of a rearrangement (the table is "
        "put back as it was).",
        default=3,
    ),
    _int_option(
        "overtime_penalty_draw",
        _TURNS,
        "Penalty for overtime",
        (0, MAX_PENALTY_DRAW, "tiles"),
        "Tiles drawn when time runs out and nothing was changed.",
        default=1,
    ),
    _choice_option(
        "score_mode",
        _SCORING,
        "Scoring",
        {"zero_sum": "Zero-sum", "penalty_only": "Penalty points"},
        "Zero-sum: the winner scores what the others lose. Penalty points: the others "
        "score what is left on their racks, and the lowest total wins.",
        default="zero_sum",
    ),
    _choice_option(
        "score_values",
        _SCORING,
        "Score values",
        {"face": "Face value", "house": "House values"},
        "How tiles left on a rack count at the end of a game (house values as for the meld).",
        default="face",
    ),
    _choice_option(
        "joker_penalty",
        _SCORING,
        "Joker left on a rack",
        {25: "25 points", 30: "30 points"},
        "What a joker still on a rack costs at the end of a game.",
        default=30,
    ),
    _choice_option(
        "pool_empty_end",
        _EMPTY_POOL,
        "The game ends",
        {
            "play_until_blocked": "When nobody can play",
            "one_more_round": "After one more round",
            "immediate": "At once",
        },
        "When the last tile is drawn and nobody has gone out.",
        default="play_until_blocked",
    ),
    _choice_option(
        "pool_empty_winner",
        _EMPTY_POOL,
        "The winner has",
        {"lowest_value": "The lowest rack value", "fewest_tiles": "The fewest tiles"},
        "Who wins a game that ends with tiles on every rack.",
        default="lowest_value",
    ),
    _choice_option(
        "pool_empty_scoring",
        _EMPTY_POOL,
        "Scores",
        {
            "difference": "Difference to the winner",
            "face": "Face value",
            "winner_difference": "Winner gets the differences",
        },
        "Difference: each loser pays the difference between their rack and the winner's, "
        "and the winner gets it all. Face value: as when a player goes out. Winner gets "
        "the differences: losers pay their whole rack, the winner gets the differences.",
        default="difference",
    ),
    _int_option(
        "players",
        _TABLE,
        "Players",
        (2, 4, "players"),
        "The table's seats decide it.",
        default=4,
        set_by_table=True,
    ),
    _int_option(
        "turn_time_limit_s",
        _TABLE,
        "Time for a turn",
        (1, MAX_TURN_TIME_LIMIT, "seconds"),
        "The table's clock decides it.",
        default=60,
        set_by_table=True,
    ),
)

OPTIONS: Mapping[str, Option] = {option.name: option for option in _DESCRIPTION}
"""Every option by name, in the order players read them (grouped)."""

DEFAULTS: Mapping[str, Any] = {name: option.default for name, option in OPTIONS.items()}
"""The standard value of every option: the ruleset's field defaults (typed ``Any`` so
that each field keeps its own narrower type)."""

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
"""The named presets (RULES.md §12): each one's options that differ from the defaults."""


def house_rule_options() -> Iterator[Option]:
    """The options a table chooses (house rules), leaving out those its seats and
    clock set."""
    return (option for option in OPTIONS.values() if not option.set_by_table)


def groups() -> list[tuple[str, list[Option]]]:
    """The house-rule options by group, in order: ``[(title, [option, ...]), ...]``.

    >>> [title for title, _ in groups()]
    ['Initial meld', 'Sets and jokers', 'Dealing and turns', 'Scoring', 'When the pool is empty']
    """
    grouped: dict[str, list[Option]] = {}
    for option in house_rule_options():
        grouped.setdefault(option.group, []).append(option)
    return list(grouped.items())
