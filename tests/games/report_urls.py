"""The site's addresses with moderation's report address in place, for the chat's tests
on a branch where moderation's filing pages are not there yet: the chat links to the
address by its agreed name only (games never imports moderation)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from config.urls import urlpatterns as site


def _report_form(request: HttpRequest, message_id: int) -> HttpResponse:
    return HttpResponse(f"report of message {message_id}")


_moderation = (
    [path("report/message/<int:message_id>/", _report_form, name="file_message")],
    "moderation",
)

urlpatterns = [
    *[pattern for pattern in site if str(pattern.pattern) != "moderation/"],
    path("moderation/", include(_moderation)),
]
