"""The errors a member can meet in clubs and leagues.

Every service of ``leagues`` raises a :class:`LeaguesError`, a
:class:`~common.errors.Refusal` whose ``message`` is a sentence meant for the member,
shown as it is. ``status`` is the HTTP status a view
answers it with: a club or row the member may not see is "not found" (a private club's
existence is never revealed), an action their role does not allow is "forbidden", one
that the state of things refuses now (answered already, already a member) a conflict,
and a request that is malformed (no reason given, a deadline in the past) the base class.
"""

from __future__ import annotations

from common.errors import Refusal

ORGANISERS_ONLY = "Only the club's organisers may do that."


class LeaguesError(Refusal):
    """Base class: what the member asked for cannot be done; nothing changed."""


class NotFound(LeaguesError):
    """No such club, invitation or request, or one the member may not see."""

    status = 404


class NotAllowed(LeaguesError):
    """The member's role in the club does not allow it."""

    status = 403


class Conflict(LeaguesError):
    """Not now: answered already, a member already, the owner still owns the club."""

    status = 409


class TooMany(LeaguesError):
    """Past a rate limit of a member or a club (``LEAGUES_*`` settings): later, not now."""

    status = 429
