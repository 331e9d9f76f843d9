"""Each request in its reader's time zone (D7): pages show times there, and forms read
the times entered there."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from common.zones import ZONE_COOKIE, zone_from_cookie


class TimeZoneMiddleware:
    """Activates the signed-in member's time zone (``User.time_zone``) for the request.
    A visitor's is their browser's, from the ``tz`` cookie (``static/js/visitor-zone.js``
    sets it; :func:`common.zones.zone_from_cookie` reads it), else the site's
    (``TIME_ZONE``, UTC). A member keeps their profile's zone whatever the cookie says:
    the zone they chose is the one their deadlines are read in. After
    ``AuthenticationMiddleware``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        visitor = user is None or not user.is_authenticated
        if user is not None and not visitor:
            timezone.activate(user.zone)
        else:
            zone = zone_from_cookie(request.COOKIES.get(ZONE_COOKIE))
            if zone is None:
                timezone.deactivate()
            else:
                timezone.activate(zone)
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        if visitor:
            # A cache must not give one visitor's page, in their zone, to another.
            patch_vary_headers(response, ["Cookie"])
        return response
