import hashlib
import json
from datetime import timedelta

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_safe

from games.selectors import listing

NEW_FOR = timedelta(days=1)
"""A member is greeted as new on the day they joined, and welcomed back after."""


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    new_member = user.is_authenticated and timezone.now() - user.date_joined < NEW_FOR
    context: dict[str, object] = {"new_member": new_member}
    if user.is_authenticated:
        context.update(listing.my_lists(user))
    return render(request, "home.html", context)


# --- the installed app: its manifest, its service worker, its page without a network ---

MANIFEST_TYPE = "application/manifest+json"


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest (templates/manifest.webmanifest): what a browser needs to
    install the site as an app, with its icons from static/."""
    response = render(request, "manifest.webmanifest", content_type=MANIFEST_TYPE)
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (templates/sw.js), served from the site's root so its scope is
    the whole site. Never cached by HTTP: a browser then checks for a new one at each
    navigation, and a deploy reaches every installed app at its next start."""
    context = {
        "precache": json.dumps(_precache()),
        "version": hashlib.sha256("\n".join(_precache()).encode()).hexdigest()[:12],
        "icon": static("img/icon-192.png"),
        "badge": static("img/badge-96.png"),
    }
    response = render(request, "sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


def _precache() -> list[str]:
    """What the service worker keeps at its install: the offline page and what it and
    the "your move" list look with (their names change with each deploy's files, and so
    then does the worker, which replaces its copies)."""
    files = ["css/app.css", "css/game.css", "img/logo.svg", "img/icon-192.png"]
    return [reverse("offline"), *(static(name) for name in files)]


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the installed app shows without a network (the service worker keeps it): no
    member's data, so one copy serves whoever is signed in."""
    return render(request, "offline.html")
