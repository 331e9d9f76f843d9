"""The service layer: every write to a table or a game goes through these functions.

Views, consumers and Celery tasks stay thin and call one function each. A function is
one transaction: it locks the row it changes (``select_for_update``), checks the request
against what is committed, lets :mod:`engine` judge the rules, saves the state and the
move log together, and announces the facts it made (:mod:`games.signals`), which are
sent only after commit; pushes to watchers, tasks and notifications are receivers of
them (:mod:`games.receivers`).

Errors are :class:`games.errors.GameActionError` subclasses with a ``message`` for the
player; when one is raised nothing has changed. They are part of the services'
interface, so this package names them too: the apps above games catch them from here
(they may reach games only through its services, models, signals and selectors), while
games' own reads, which raise some of them, import :mod:`games.errors`.

Modules, by idea: :mod:`.locking` (the row locks and the checks made under them; a
leaf that imports no service), :mod:`.lobby` (tables and seats), :mod:`.turns` (moves by players,
bots and the turn clock), :mod:`.drafts` (the turn in progress), :mod:`.rounds`
(games of a round), :mod:`.results` (a game's result rows: played, or superseded by a
ruling; the round's standings are read from them), :mod:`.move` (the one path every
move takes: load the locked game with its seats, judge, clock, store, announce),
:mod:`.page_versions` (the counts a game page's socket compares).
Correspondence play: :mod:`.clock` (deadlines, banks), :mod:`.sweeps` (due turns),
:mod:`.abandonment` (timeouts in a row, forfeits, resigning), :mod:`.vacations`,
:mod:`.notifications`. Leagues: :mod:`.adjudication` (a round stopped at a deadline).

Only writes live here: what pages read (lists, "your move", the scoreboard, the replay,
the clock and the header) is in :mod:`games.selectors`, which never imports a service.
"""

from games.errors import (
    Barred,
    ChatRefused,
    ChatTooFast,
    DraftError,
    GameActionError,
    GameFinished,
    GameHeld,
    HelpBusy,
    IllegalPlay,
    InvalidMove,
    InvalidRuling,
    NoArrangement,
    NotFound,
    NotSeated,
    NotYourTurn,
    StaleVersion,
    TableError,
    TimeUp,
)
from games.services.abandonment import (
    forfeit_for_the_round,
    forfeit_seat,
    hand_seat_to_bot,
    resign,
)
from games.services.drafts import (
    NEW_SET,
    RACK,
    move_tiles,
    reset_draft,
    save_draft,
    undo_draft,
)
from games.services.lobby import (
    SeatPlan,
    cancel_table,
    change_seat,
    create_table,
    join_table,
    play_again,
    play_now,
)
from games.services.turns import (
    discard,
    draw,
    pass_turn,
    play,
    play_bot_move,
    take_from_river,
    time_out_turn,
)

__all__ = [
    "NEW_SET",
    "RACK",
    "Barred",
    "ChatRefused",
    "ChatTooFast",
    "DraftError",
    "GameActionError",
    "GameFinished",
    "GameHeld",
    "HelpBusy",
    "IllegalPlay",
    "InvalidMove",
    "InvalidRuling",
    "NoArrangement",
    "NotFound",
    "NotSeated",
    "NotYourTurn",
    "SeatPlan",
    "StaleVersion",
    "TableError",
    "TimeUp",
    "cancel_table",
    "change_seat",
    "create_table",
    "discard",
    "draw",
    "forfeit_for_the_round",
    "forfeit_seat",
    "hand_seat_to_bot",
    "join_table",
    "move_tiles",
    "pass_turn",
    "play",
    "play_again",
    "play_bot_move",
    "play_now",
    "reset_draft",
    "resign",
    "save_draft",
    "take_from_river",
    "time_out_turn",
    "undo_draft",
]
