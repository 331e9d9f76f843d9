"""Settings of the games app: each function reads one from Django settings, where a site
may override its default (docs/operating.md lists them)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.utils.module_loading import import_string

from engine.bots import BOT_STEPS, Level

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from games.models import Table

VacationPolicy = Callable[["User", datetime, datetime], "str | None"]
TablePolicy = Callable[["User", "Table"], "str | None"]
SightPolicy = Callable[["User | AnonymousUser", "Table"], int]

DEFAULT_BOT_DELAY_SECONDS = (1.0, 2.5)


def bot_delay() -> float:
    """Seconds a bot waits before moving: a random time in ``GAMES_BOT_DELAY_SECONDS``,
    ``(low, high)``, so that a human sees the turn pass instead of a blink. Tests set
    ``(0, 0)``."""
    low, high = getattr(settings, "GAMES_BOT_DELAY_SECONDS", DEFAULT_BOT_DELAY_SECONDS)
    return random.uniform(float(low), float(high)) if high > 0 else 0.0


def vacation_days_per_year() -> int:
    """``GAMES_VACATION_DAYS_PER_YEAR``: vacation days each member has a year (14)."""
    return int(getattr(settings, "GAMES_VACATION_DAYS_PER_YEAR", 14))


def vacation_policy() -> VacationPolicy | None:
    """``GAMES_VACATION_POLICY``: the dotted path of a further check of a vacation a
    member plans (unset: none), called as ``policy(user, starts_at, ends_at)`` under the
    member's lock; it returns ``None`` to allow it, or the sentence that refuses it. The
    leagues set it to count vacations against their seasons' allowances without games
    knowing leagues."""
    path = getattr(settings, "GAMES_VACATION_POLICY", "")
    policy: VacationPolicy | None = import_string(path) if path else None
    return policy


def chat_policy() -> TablePolicy | None:
    """``GAMES_CHAT_POLICY``: the dotted path of a further check of a member's chat at a
    table (unset: none), called as ``policy(user, table)``; it returns ``None`` to allow
    it, or the sentence that refuses it. Moderation sets it to enforce suspensions
    without games knowing moderation."""
    return _table_policy("GAMES_CHAT_POLICY")


def play_policy() -> TablePolicy | None:
    """``GAMES_PLAY_POLICY``: as :func:`chat_policy`, for taking a seat and for moves."""
    return _table_policy("GAMES_PLAY_POLICY")


def sight_policy() -> SightPolicy | None:
    """``GAMES_SIGHT_POLICY``: the dotted path of what the apps above games add to the
    sight of a private table (unset: nothing), called as ``policy(user, table)`` for a
    table marked ``private``; it returns a :class:`games.selectors.sight.Sight`. The leagues let a
    private club's members see its fixtures' tables, and moderation adds the site
    moderators of a case, without games knowing either."""
    path = getattr(settings, "GAMES_SIGHT_POLICY", "")
    policy: SightPolicy | None = import_string(path) if path else None
    return policy


def hidden_belongs_to() -> str:
    """``GAMES_HIDDEN_BELONGS_TO``: what a viewer without full sight of a private table
    reads instead of what the table belongs to, named by the app that marks tables
    private (unset: "a private event")."""
    return str(getattr(settings, "GAMES_HIDDEN_BELONGS_TO", "a private event"))


def _table_policy(name: str) -> TablePolicy | None:
    path = getattr(settings, name, "")
    policy: TablePolicy | None = import_string(path) if path else None
    return policy


def chat_burst() -> tuple[int, float]:
    """``GAMES_CHAT_BURST``: at most this many messages of a member in this many seconds,
    across tables (``(5, 10.0)``)."""
    count, seconds = getattr(settings, "GAMES_CHAT_BURST", (5, 10.0))
    return int(count), float(seconds)


def chat_per_day() -> int:
    """``GAMES_CHAT_PER_DAY``: a member's messages in any 24 hours, across tables (300)."""
    return int(getattr(settings, "GAMES_CHAT_PER_DAY", 300))


def eta_horizon_seconds() -> float:
    """``GAMES_ETA_HORIZON_SECONDS``: the furthest ahead a task is queued to run at a
    moment (900): a standing order's draw, and the cap of a turn's timeout (or reminder),
    which is queued only within the sweeps' look-ahead
    (:func:`games.services.sweeps.look_ahead`).

    A Redis broker re-delivers a task it has held longer than its visibility timeout (an
    hour), so tasks due days ahead are never queued.
    """
    return float(getattr(settings, "GAMES_ETA_HORIZON_SECONDS", 900))


def sweep_seconds() -> float:
    """``GAMES_SWEEP_SECONDS``: how often Celery beat runs the sweeps (5): the longest a
    due turn waits when its task was lost, and the look-ahead of the sweep's queueing."""
    return float(getattr(settings, "GAMES_SWEEP_SECONDS", 5))


def presence_seconds() -> float:
    """``GAMES_PRESENCE_SECONDS``: how long a game page's presence lasts without a
    heartbeat (60); a player whose page is open on a game gets no email about it."""
    return float(getattr(settings, "GAMES_PRESENCE_SECONDS", 60))


def connection_days() -> float:
    """``GAMES_CONNECTION_DAYS``: how long the history of players' connections to a
    game's page is kept for moderators (90 days; :mod:`games.page_connections`)."""
    return float(getattr(settings, "GAMES_CONNECTION_DAYS", 90))


def help_steps() -> int:
    """``GAMES_HELP_STEPS``: the solver's work for a hint, "arrange for me" or a River
    take (500,000 search steps, about 2 s on a quiet server). Past it the best play
    found is used, marked as not proven best; the same position always gets the same
    answer, whatever the server's load."""
    return int(getattr(settings, "GAMES_HELP_STEPS", 500_000))


def help_seconds() -> float:
    """``GAMES_HELP_SECONDS``: the last stop in wall time for the work of
    :func:`help_steps` (20.0, ten times what it takes on a quiet server). An answer it
    stops is shown as cut short, and is not kept."""
    return float(getattr(settings, "GAMES_HELP_SECONDS", 20.0))


def play_now_bot_seconds() -> float:
    """``GAMES_PLAY_NOW_BOT_SECONDS``: how long a member who asked to play now waits for
    another member before a bot takes the seat (20)."""
    return float(getattr(settings, "GAMES_PLAY_NOW_BOT_SECONDS", 20))


def analysis_steps() -> int:
    """``GAMES_ANALYSIS_STEPS``: the solver's work for the best play of one turn of a
    replay (200,000 search steps, about 1 s on a quiet server; they bound its memory
    too). Each answer is kept, so a turn is analysed once."""
    return int(getattr(settings, "GAMES_ANALYSIS_STEPS", 200_000))


def analysis_seconds() -> float:
    """``GAMES_ANALYSIS_SECONDS``: the last stop in wall time for one turn's analysis
    (10.0); an analysis it stops is shown as cut short, and is not kept."""
    return float(getattr(settings, "GAMES_ANALYSIS_SECONDS", 10.0))


def forced_steps() -> int:
    """``GAMES_FORCED_STEPS``: the solver's work for proving that a member's turn has no
    legal play, before their standing order draws for them (500,000 search steps, as a
    hint's). A proof it cannot finish in them draws nothing: the turn is the member's."""
    return int(getattr(settings, "GAMES_FORCED_STEPS", 500_000))


def forced_draw_bounds() -> tuple[float, float]:
    """``GAMES_FORCED_DRAW_SECONDS``: the shortest and longest wait, ``(low, high)``,
    before a standing order draws for a member (``(2, 43200)``: 2 s to 12 hours): the
    wait is taken from the table's recent turn times, within these bounds (and within
    half of the turn's time left). A wait past the horizon of queued tasks
    (:func:`eta_horizon_seconds`) is made by the sweep."""
    low, high = getattr(settings, "GAMES_FORCED_DRAW_SECONDS", (2.0, 43_200.0))
    return float(low), float(high)


def bot_steps(level: str) -> int:
    """``GAMES_BOT_STEPS``: the solver's work for a bot's whole move, by level (the
    engine's ``BOT_STEPS``, ``{"easy": 200_000, "normal": 500_000, "strong":
    1_500_000}``, for the levels the setting does not name). The same position gets
    the same move whatever the load."""
    named: dict[str, int] = getattr(settings, "GAMES_BOT_STEPS", {})
    return int(named[level]) if level in named else BOT_STEPS[cast(Level, level)]


def bot_seconds() -> float:
    """``GAMES_BOT_SECONDS``: the last stop in wall time for a bot's move (50.0), as
    :func:`help_seconds` is for a player's: a move it stops is the best found by then."""
    return float(getattr(settings, "GAMES_BOT_SECONDS", 50.0))


def new_round_seed(table: Table) -> str:
    """The secret seed of ``table``'s new round: 128 random bits.

    ``GAMES_ROUND_SEED`` is for tests only: a function of the table that gives the seed
    (and so who starts the round). The seed deals every game of the round: a site that
    set this would deal predictable games.
    """
    source = getattr(settings, "GAMES_ROUND_SEED", None)
    return str(source(table)) if source is not None else secrets.token_hex(16)
