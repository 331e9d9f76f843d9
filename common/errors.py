"""The one refusal: a sentence for the member who asked, and the HTTP status it is
answered with. Nothing was changed.

Each app's ``errors.py`` derives its own kinds from :class:`Refusal` (games'
``GameActionError``, leagues' ``LeaguesError``, moderation's ``ModerationError``), each
with its status; a view answers any of them one way (:func:`common.refusals.refused`).

>>> error = Refusal("That seat is taken.")
>>> error.message, error.status, str(error)
('That seat is taken.', 400, 'That seat is taken.')
"""

from __future__ import annotations


class Refusal(Exception):
    """Base class: what the member asked for cannot be done; nothing changed.

    ``message`` (also ``str()``) is a sentence meant for them, shown as it is; ``status``
    is the HTTP status a view answers it with: a malformed or impossible request is 400,
    a kind of refusal sets its own (403 not allowed, 404 not there or not to be seen, 409
    not now, 422 against the rules, 429 too many).
    """

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
