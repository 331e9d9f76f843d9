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


def renew_calendar_token_if_any(user: User) -> None:
    """A new secret for ``user``'s feed address if they have one (after a password
    change: the address travels in calendar apps and access logs, and whoever took over
    the account may have copied it)."""
    if CalendarToken.objects.filter(user=user).exists():
        renew_calendar_token(user)
