"""Moderation's pages write a moment one way, the site's: "Fri 27 Nov 2026, 03:46 UTC"
(with seconds where the evidence needs them, the day alone where the time says nothing)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import dateformat

from accounts.models import User
from moderation.models import SITE_FORMAT, Case, Ruling
from tests.conftest import client_as
from tests.moderation.test_rulings import league_case, ruled

pytestmark = pytest.mark.django_db

__all__ = ["league_case"]

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "moderation"
ALLOWED = {SITE_FORMAT, "D j M Y", "D j M Y, H:i:s T", "H:i:s T", "c"}


def test_every_moderation_template_writes_dates_in_the_sites_format() -> None:
    found = {
        (path.name, fmt)
        for path in TEMPLATES.glob("*.html")
        for fmt in re.findall(r"\|date:[\"']([^\"']*)[\"']", path.read_text())
    }
    assert found
    assert {(name, fmt) for name, fmt in found if fmt not in ALLOWED} == set()
    for path in TEMPLATES.glob("*.html"):
        # A moment written bare takes Django's own format ("Nov. 27, 2026, 3:43 a.m.").
        assert not re.search(r"\{\{ [\w.]*(_at|\.at) \}\}", path.read_text()), path.name


def test_a_rulings_page_says_when_it_was_applied_in_the_sites_format(
    league_case: Case, club_moderator: User
) -> None:
    ruling = ruled(league_case, club_moderator, Ruling.Kind.DISMISS)
    client = client_as(club_moderator)
    page = client.get(reverse("moderation:ruling", args=[ruling.pk])).content.decode()
    assert ruling.applied_at is not None
    assert dateformat.format(ruling.applied_at, SITE_FORMAT) in page
    assert " a.m." not in page and " p.m." not in page
