"""The JSON line protocol: ``python -m engine <command>``.

The engine talks JSON Lines on standard input and output, so any program (the test
harness, a bot written in another language, a shell pipe) can use it.

Usage::

    python -m engine --help          # lists the commands
    python -m engine judge < cases.jsonl

Lines
-----
Each input line is one JSON object; each answer is one JSON object on one line,
written and flushed as soon as its input line has been read, in the same order as
the input. Blank lines are skipped and get no answer. A line that cannot be answered
(not JSON, not an object, unknown ``kind``, a missing field, a malformed tile, an
unknown ruleset option or a bad option value, an impossible score input) gets::

    {"id": <the line's id, or null if it has none>, "error": "<what is wrong>"}

and the engine carries on with the next line. The process ends at end of input with
exit status 0.

``judge``
---------
Answers the cases of ``sample-cases.json`` (RULES.md §14) given without their
``expect``. A line carries:

* ``id`` (required; echoed in the answer),
* ``kind``: ``"set"``, ``"turn"`` or ``"score"`` (required),
* ``ruleset``: an object of the options that differ from the standard rules
  (RULES.md §12); optional, ``{}`` when left out,
* ``input`` (required), as in RULES.md §14.

Any other field (``expect``, ``why``, ``rules``, ``tags``) is ignored, so whole cases
may be sent. Tiles are written ``R7``, ``K13``, ``J`` (RULES.md R1.2).

``set`` — input ``{"tiles": [...]}``. Answer::

    {"id": "set-007", "verdict": "valid", "value": 15, "set_types": ["run"]}
    {"id": "set-012", "verdict": "valid", "value": null, "set_types": ["group", "run"],
     "possible_values": [6, 9, 12]}
    {"id": "set-022", "verdict": "invalid"}

``value`` is the value under ``meld_values`` when every reading of the set agrees,
else null and ``possible_values`` lists the distinct values ascending. ``set_types``
lists the kinds of set the tiles can be read as, sorted.

``turn`` — input ``{"table_before": [[...], ...], "rack_before": [...],
"table_after": [[...], ...], "initial_meld_done": true|false}``. Answer::

    {"id": "turn-im-02", "verdict": "valid", "detail": "Plays 3 tiles (initial meld ..."}
    {"id": "turn-im-30", "verdict": "invalid", "reason": "tile_not_owned",
     "detail": "R12 is not on your rack (a tile drawn this turn cannot be played)"}

``reason`` (only for an invalid turn) is a reason code of RULES.md §11.1; ``detail``
is a sentence for a player.

``score`` — input ``{"ending": "out"|"pool_empty", "racks": {"A": [...], ...},
"winner": "A"}`` (``winner`` required for ``"out"``, whose rack must be empty).
Answer::

    {"id": "score-22", "winner": "B", "rack_values": {"A": 30, "B": 26},
     "scores": {"A": -4, "B": 4}}

``solve``
---------
The best play for a position (the exact solver, :func:`engine.solver.solve`). A line::

    {"id": "p1", "table": [["R5", "R6", "R7", "R8"]], "rack": ["J", "R9", "B2"],
     "initial_meld_done": true, "objective": "tiles", "ruleset": {},
     "budget_steps": 500000, "budget_ms": 20000}

``table`` (a valid arrangement: a list of sets) and ``rack`` are required;
``initial_meld_done`` defaults to true, ``objective`` to ``"tiles"`` (most rack tiles,
ties broken by the highest face value) or may be ``"value"`` (highest face value, ties
broken by most tiles); ``ruleset`` as for ``judge``. ``budget_steps`` is the work the
solver may do on the line, in search steps (:class:`engine.solver.Budget`), a whole
number from 1 to 100000000; it defaults to 500000 (the web's budget, about 2 s on a
quiet machine), so the same line gets the same answer on any machine and load.
``budget_ms`` is only a last stop in wall-clock time, a whole number of milliseconds
from 1 to 600000, default 20000, so no line runs without a bound. Answer::

    {"id": "p1", "played": ["R9", "J"], "table_after": [["J", "R5", "R6", "R7", "R8", "R9"]],
     "n": 2, "value": 9, "exact": true, "steps": 83, "cut_short": false}

``played`` lists the rack tiles laid (empty when nothing is legal, and then
``table_after`` is the table as given), ``n`` their number (jokers included) and
``value`` the face value of the numbered tiles laid (jokers count 0). ``exact`` is
true when the play is proven best, false when the budget ran out first and it is the
best legal play found (an empty play then means none was found). ``steps`` is the work
done; ``cut_short`` is true when ``budget_ms``, not the steps, stopped the search (the
answer may then differ on another machine or load). A table with an invalid set, or
more copies of a tile than the game has, is an ``error`` line.

Adding a command
----------------
A command is a handler taking one input line's object and returning the answer
object (without ``id``: it is added from the input line); it raises
:class:`ProtocolError` (or any ``ValueError``) for a line it cannot answer. Add it
to :data:`COMMANDS` with :func:`register_command`; ``--help`` lists it.

>>> answer_line(judge, '{"id": "a", "kind": "set", "input": {"tiles": ["R5", "J", "R7"]}}')
{'id': 'a', 'verdict': 'valid', 'value': 18, 'set_types': ['run']}
>>> answer_line(judge, '{"id": "b", "kind": "set", "input": {"tiles": ["X7"]}}')
{'id': 'b', 'error': "input.tiles[0]: 'X7' is not a tile: the colour must be one of R, B, K, ..."}
>>> answer_line(judge, "   ") is None
True
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from engine.ruleset import Ruleset
from engine.scoring import ENDINGS, score_game
from engine.sets import analyse_set
from engine.solver import Budget
from engine.solver import solve as solve_position
from engine.tiles import COPIES, JOKER, JOKER_COUNT, NotationError, Tile, format_tiles, parse_tile
from engine.verdict import judge_turn

Answer = dict[str, Any]
Handler = Callable[[Mapping[str, Any]], Answer]


class ProtocolError(ValueError):
    """An input line that cannot be answered: a missing field, a value of the wrong shape."""


@dataclass(frozen=True, slots=True)
class Command:
    """A protocol command: a one-line summary for ``--help`` and the line handler."""

    summary: str
    handle: Handler


COMMANDS: dict[str, Command] = {}


def register_command(name: str, summary: str) -> Callable[[Handler], Handler]:
    """Register ``handler`` as the command ``name`` (a decorator).

    >>> @register_command("echo-kind", "answers each line with its kind")
    ... def echo_kind(line):
    ...     return {"kind": line.get("kind")}
    >>> answer_line(COMMANDS["echo-kind"].handle, '{"id": 1, "kind": "x"}')
    {'id': 1, 'kind': 'x'}
    >>> del COMMANDS["echo-kind"]
    """

    def register(handler: Handler) -> Handler:
        COMMANDS[name] = Command(summary, handler)
        return handler

    return register


# -- running a command over lines ------------------------------------------------------


def answer_line(handler: Handler, line: str) -> Answer | None:
    """The answer to one input line; None for a blank line.

    Never raises for bad input: the problem is reported in an ``error`` answer.

    >>> answer_line(judge, '{"id": 9, "kind": "set", "input": {"tiles": ["R1", "B2", "K3"]}}')
    {'id': 9, 'verdict': 'invalid'}
    >>> answer_line(judge, '{"id": 9, "kind": "set"}')
    {'id': 9, 'error': 'missing field input'}
    """
    if not line.strip():
        return None
    try:
        obj = json.loads(line)
    except ValueError as error:
        return {"id": None, "error": f"the line is not JSON: {error}"}
    if not isinstance(obj, dict):
        return {"id": None, "error": "a line must be a JSON object"}
    line_id = obj.get("id")
    try:
        answer = handler(obj)
    except ValueError as error:  # ProtocolError, NotationError, RulesetError, ScoringError
        return {"id": line_id, "error": str(error)}
    except Exception as error:  # one bad line must not stop the stream
        return {"id": line_id, "error": f"internal error: {type(error).__name__}: {error}"}
    return {"id": line_id, **answer}


def serve(handler: Handler, lines: Iterable[str], out: TextIO) -> None:
    """Answer each line in order, flushing after every answer so a caller can
    converse line by line.

    >>> serve(judge, ['{"id": 1, "kind": "set", "input": {"tiles": ["J", "R12", "R13"]}}',
    ...               "", "oops"], sys.stdout)
    {"id": 1, "verdict": "valid", "value": 36, "set_types": ["run"]}
    {"id": null, "error": "the line is not JSON: Expecting value: line 1 column 1 (char 0)"}
    """
    for line in lines:
        answer = answer_line(handler, line)
        if answer is None:
            continue
        out.write(json.dumps(answer) + "\n")
        out.flush()


def run(command: str, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Run ``command`` over standard input (read line by line, not all at once).

    >>> import io
    >>> run("judge", io.StringIO('{"id": "a", "kind": "set", "input": {"tiles": ["R7"]}}\\n'))
    {"id": "a", "verdict": "invalid"}
    """
    source = stdin if stdin is not None else sys.stdin
    serve(COMMANDS[command].handle, iter(source.readline, ""), stdout or sys.stdout)


# -- judge -------------------------------------------------------------------------------


@register_command("judge", "answer conformance cases (set, turn, score) one JSON object per line")
def judge(line: Mapping[str, Any]) -> Answer:
    """Answer one case of the conformance format (RULES.md §14) without its ``expect``.

    >>> judge({"id": "t", "kind": "score", "ruleset": {},
    ...        "input": {"ending": "out", "racks": {"A": [], "B": ["J"]}, "winner": "A"}})
    {'winner': 'A', 'rack_values': {'A': 0, 'B': 30}, 'scores': {'A': 30, 'B': -30}}
    """
    _require(line, "id", "")
    kind = _require(line, "kind", "")
    handler = _KINDS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        kinds = ", ".join(_KINDS)
        raise ProtocolError(f"unknown kind {kind!r}; the kinds are {kinds}")
    ruleset = Ruleset.from_dict(line.get("ruleset", {}))
    case_input = _require(line, "input", "")
    if not isinstance(case_input, dict):
        raise ProtocolError("input must be an object")
    return handler(case_input, ruleset)


def _judge_set(case: Mapping[str, Any], ruleset: Ruleset) -> Answer:
    analysis = analyse_set(_tile_list(case, "tiles", "input."), ruleset)
    if not analysis.valid:
        return {"verdict": "invalid"}
    answer: Answer = {
        "verdict": "valid",
        "value": analysis.value,
        "set_types": list(analysis.set_types),
    }
    if analysis.value is None:
        answer["possible_values"] = list(analysis.values)
    return answer


def _judge_turn(case: Mapping[str, Any], ruleset: Ruleset) -> Answer:
    done = _require(case, "initial_meld_done", "input.")
    if not isinstance(done, bool):
        raise ProtocolError("input.initial_meld_done must be true or false")
    verdict = judge_turn(
        _set_list(case, "table_before"),
        _tile_list(case, "rack_before", "input."),
        _set_list(case, "table_after"),
        done,
        ruleset,
    )
    if verdict.valid:
        return {"verdict": "valid", "detail": verdict.detail}
    assert verdict.reason is not None
    return {"verdict": "invalid", "reason": verdict.reason.value, "detail": verdict.detail}


def _judge_score(case: Mapping[str, Any], ruleset: Ruleset) -> Answer:
    ending = _require(case, "ending", "input.")
    if ending not in ENDINGS:
        raise ProtocolError(f'input.ending must be "out" or "pool_empty"; got {ending!r}')
    racks_in = _require(case, "racks", "input.")
    if not isinstance(racks_in, dict) or not racks_in:
        raise ProtocolError("input.racks must be an object with one rack per player")
    racks = {player: _tile_list(racks_in, player, "input.racks.") for player in racks_in}
    winner = None
    if ending == "out":
        winner = _require(case, "winner", "input.")
        if not isinstance(winner, str):
            raise ProtocolError("input.winner must be the name of a player in input.racks")
    score = score_game(ending, racks, winner, ruleset)
    return {"winner": score.winner, "rack_values": score.rack_values, "scores": score.scores}


_KINDS: dict[str, Callable[[Mapping[str, Any], Ruleset], Answer]] = {
    "set": _judge_set,
    "turn": _judge_turn,
    "score": _judge_score,
}


# -- solve -----------------------------------------------------------------------------

SOLVE_BUDGET_STEPS = 500_000
"""The solver's work per ``solve`` line when the line gives no ``budget_steps``."""
SOLVE_BUDGET_MS = 20_000
"""The last stop in wall time per ``solve`` line when the line gives no ``budget_ms``."""


@register_command("solve", "the best play for a table and a rack (exact solver), one per line")
def solve(line: Mapping[str, Any]) -> Answer:
    """Answer one solver position.

    >>> answer = solve({"id": "e", "table": [["R5", "R6", "R7", "R8"]], "rack": ["J", "R9"]})
    >>> answer["played"], answer["n"], answer["value"]
    (['R9', 'J'], 2, 9)
    >>> answer["table_after"], answer["exact"]
    ([['J', 'R5', 'R6', 'R7', 'R8', 'R9']], True)
    >>> solve({"id": "x", "table": [], "rack": ["R7"], "budget_ms": 0})
    Traceback (most recent call last):
    ...
    engine.protocol.ProtocolError: budget_ms must be a whole number from 1 to 600000; got 0
    >>> solve({"id": "x", "table": [["R5", "R6"]], "rack": ["R7"]})
    Traceback (most recent call last):
    ...
    engine.protocol.ProtocolError: table[0] is not a valid set: R5 R6 has only 2 tiles: a set ...
    """
    _require(line, "id", "")
    ruleset = Ruleset.from_dict(line.get("ruleset", {}))
    table = _set_list(line, "table", "")
    rack = _tile_list(line, "rack", "")
    done = line.get("initial_meld_done", True)
    if not isinstance(done, bool):
        raise ProtocolError("initial_meld_done must be true or false")
    objective = line.get("objective", "tiles")
    if objective not in ("tiles", "value"):
        raise ProtocolError(f'objective must be "tiles" or "value"; got {objective!r}')
    budget_steps = _whole(line, "budget_steps", SOLVE_BUDGET_STEPS, 100_000_000)
    budget_ms = _whole(line, "budget_ms", SOLVE_BUDGET_MS, 600_000)
    for i, tiles in enumerate(table):
        analysis = analyse_set(tiles, ruleset)
        if not analysis.valid:
            raise ProtocolError(f"table[{i}] is not a valid set: {analysis.problem}")
    _check_tile_counts([*(tile for tiles in table for tile in tiles), *rack])
    budget = Budget(steps=budget_steps, seconds=budget_ms / 1000)
    solution = solve_position(table, rack, done, ruleset, objective, budget)
    return {
        "played": format_tiles(solution.played),
        "table_after": [format_tiles(tiles) for tiles in solution.table_after],
        "n": solution.n,
        "value": solution.value,
        "exact": solution.exact,
        "steps": solution.steps,
        "cut_short": solution.cut_short,
    }


def _whole(line: Mapping[str, Any], name: str, default: int, most: int) -> int:
    """The whole number ``line[name]`` from 1 to ``most`` (``default`` when absent)."""
    value = line.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= most:
        raise ProtocolError(f"{name} must be a whole number from 1 to {most}; got {value!r}")
    return value


def _check_tile_counts(tiles: list[Tile]) -> None:
    for tile, count in Counter(tiles).items():
        allowed = JOKER_COUNT if tile == JOKER else COPIES
        if count > allowed:
            raise ProtocolError(
                f"{count} copies of {tile} between the table and the rack; the game has {allowed}"
            )


# -- reading fields -------------------------------------------------------------------


def _require(obj: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in obj:
        raise ProtocolError(f"missing field {where}{name}")
    return obj[name]


def _tile_list(obj: Mapping[str, Any], name: str, where: str) -> list[Tile]:
    value = _require(obj, name, where)
    if not isinstance(value, list):
        raise ProtocolError(f"{where}{name} must be a list of tiles")
    return _parse_all(value, f"{where}{name}")


def _set_list(obj: Mapping[str, Any], name: str, where: str = "input.") -> list[list[Tile]]:
    value = _require(obj, name, where)
    if not isinstance(value, list) or not all(isinstance(tiles, list) for tiles in value):
        raise ProtocolError(f"{where}{name} must be a list of sets, each a list of tiles")
    return [_parse_all(tiles, f"{where}{name}[{i}]") for i, tiles in enumerate(value)]


def _parse_all(texts: list[Any], where: str) -> list[Tile]:
    tiles = []
    for i, text in enumerate(texts):
        try:
            tiles.append(parse_tile(text))
        except NotationError as error:
            raise ProtocolError(f"{where}[{i}]: {error}") from None
    return tiles
