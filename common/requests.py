"""The request a view behind ``@login_required`` receives, typed once for every app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    # django-stubs' name for the model of settings.AUTH_USER_MODEL (its mypy plugin reads
    # the setting): the request knows its member's type without common naming an app.
    from django.contrib.auth.models import _User


class AuthenticatedRequest(HttpRequest):
    """What a view behind ``@login_required`` receives: a signed-in member, and
    ``htmx`` (django-htmx's middleware: falsy unless htmx sent the request)."""

    user: _User
    htmx: HtmxDetails
