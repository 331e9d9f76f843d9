"""Moderation's refusals (:class:`~common.errors.Refusal`): a sentence for the person who
asked, and its status."""

from __future__ import annotations

from common.errors import Refusal


class ModerationError(Refusal):
    """A request moderation refuses; nothing was changed. ``str()`` is the sentence shown."""


class NotFound(ModerationError):
    """No such case, or one the asker may not know of (answered as if it did not exist)."""

    status = 404


class NotAllowed(ModerationError):
    """The asker may see the case but not do this (a conflict of interest, a role)."""

    status = 403


class Conflict(ModerationError):
    """The case moved on since the asker looked (claimed by another, already ruled)."""

    status = 409


class TooMany(ModerationError):
    """A member's limit of reports or messages for the day is reached."""

    status = 429
