"""The secret address of a member's calendar feed (:mod:`leagues.selectors.calendar`)."""

from __future__ import annotations

from accounts.models import User
from leagues.models import CalendarToken, new_calendar_token


def calendar_token(user: User) -> str:
    """The secret of ``user``'s feed address, made the first time it is asked for."""
    row, _ = CalendarToken.objects.get_or_create(user=user)
    return row.token


def renew_calendar_token(user: User) -> str:
    """A new secret for ``user``'s feed address: the old address stops working."""
    token = new_calendar_token()
    CalendarToken.objects.update_or_create(user=user, defaults={"token": token})
    return token
