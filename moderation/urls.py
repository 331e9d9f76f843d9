"""The moderation pages, under /moderation/."""

from django.urls import URLPattern, path

import games.urls  # noqa: F401  (registers the "id" converter: digits within a bigint)
from moderation.views import evidence

app_name = "moderation"

urlpatterns: list[URLPattern] = [
    # The evidence of a case (its moderator only).
    path("cases/<id:pk>/evidence/", evidence.evidence, name="evidence"),
]
