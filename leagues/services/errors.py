"""Why a league or season service refused a request, in a sentence for the person."""

from __future__ import annotations


class Refused(Exception):
    """A request that changes nothing: not allowed (``status`` 403), or not possible in
    the state things are in (409), or malformed (400)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def forbidden(message: str = "Only the club's organisers may do that.") -> Refused:
    return Refused(message, status=403)
