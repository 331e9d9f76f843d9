"""The header's "Moderation" link: shown to moderators, with their open cases' count
(``settings.TEMPLATES`` lists :func:`moderation_nav`)."""

from __future__ import annotations

from functools import cached_property

from django.http import HttpRequest

from accounts.models import User
from moderation.selectors.queue import is_moderator, open_count


class ModerationNav:
    """``shown`` (the member moderates something) and ``open_cases``, queried on first use."""

    def __init__(self, user: User) -> None:
        self.user = user

    @cached_property
    def shown(self) -> bool:
        return is_moderator(self.user)

    @cached_property
    def open_cases(self) -> int:
        return open_count(self.user) if self.shown else 0


def moderation_nav(request: HttpRequest) -> dict[str, ModerationNav | None]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"moderation_nav": None}
    return {"moderation_nav": ModerationNav(user)}
