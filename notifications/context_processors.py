"""The header's counts in every page's context (``settings.TEMPLATES`` lists
:func:`header_counts`); what they are is :class:`notifications.selectors.header.HeaderCounts`."""

from __future__ import annotations

from django.http import HttpRequest

from notifications.selectors.header import HeaderCounts


def header_counts(request: HttpRequest) -> dict[str, HeaderCounts | None]:
    """``header_counts``: a :class:`HeaderCounts` for a member, ``None`` for a visitor."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"header_counts": None}
    return {"header_counts": HeaderCounts(user)}
