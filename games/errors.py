"""The errors a player can meet when acting on a table or a game.

Every service raises a subclass of :class:`GameActionError`, a
:class:`~common.errors.Refusal`: its ``message`` is a sentence meant for the player, so a
view can show it as it is (``str(err)`` is the same sentence), and its ``status`` the HTTP
status it is answered with (400 unless the kind says otherwise). ``code`` is a short
stable name for tests and for the front end. Messages never quote anything the player
may not see: at most the player's own tiles or play.
"""

from __future__ import annotations

from common.errors import Refusal


class GameActionError(Refusal):
    """Base class: something the player asked for cannot be done; nothing changed."""

    code = "refused"


class NotFound(GameActionError):
    """No such table or game (also what outsiders are told about private ones)."""

    code = "not_found"
    status = 404


class StaleVersion(GameActionError):
    """The move was made on an old view of the game (or sent twice)."""

    code = "stale"
    status = 409


class NotYourTurn(GameActionError):
    """The user has a seat, but it is another seat's turn."""

    code = "not_your_turn"
    status = 409


class NotSeated(GameActionError):
    """The user has no seat in this game."""

    code = "not_seated"
    status = 403


class TimeUp(GameActionError):
    """The turn's deadline has passed: the clock, not the player, ends this turn."""

    code = "time_up"


class GameHeld(GameActionError):
    """A moderator holds the game's clocks while a case about it is open: nobody moves."""

    code = "held"
    status = 409


class GameFinished(GameActionError):
    """The game is over."""

    code = "game_over"
    status = 409


class IllegalPlay(GameActionError):
    """A well-formed play against the rules; ``reason`` is the RULES.md §11.1 code."""

    code = "illegal"
    status = 422

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class InvalidMove(GameActionError):
    """A malformed action, or one that cannot be taken now (a pass with tiles in the pool)."""

    code = "invalid"


class DraftError(GameActionError):
    """An edit of the turn in progress that cannot be made (no such tile there, ...)."""

    code = "draft"


class NoArrangement(GameActionError):
    """The solver found no legal table with the tiles asked for."""

    code = "no_arrangement"
    status = 422


class HelpBusy(GameActionError):
    """The solver is still working on another request of the same member."""

    code = "busy"
    status = 429


class TableError(GameActionError):
    """A lobby request that cannot be granted (seat taken, table full, bad settings)."""

    code = "table"
    status = 409


class InvalidRuling(GameActionError):
    """A correction of a game's result that cannot be made (see services.results)."""

    code = "invalid_ruling"


class Barred(GameActionError):
    """A member kept from playing or chatting at this table (a moderator's suspension,
    through ``GAMES_PLAY_POLICY`` / ``GAMES_CHAT_POLICY``). They may still read."""

    code = "barred"
    status = 403


class ChatRefused(GameActionError):
    """A chat message that cannot be said as it is (empty, too long)."""

    code = "chat"


class ChatTooFast(GameActionError):
    """A member past the chat's rate limits: a burst, or the day's cap."""

    code = "chat_too_fast"
    status = 429
