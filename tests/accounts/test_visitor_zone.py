"""Issue 26: a visitor reads the site's times in their browser's zone, which
static/js/visitor-zone.js tells in the cookie ``tz``; a zone the IANA database does not
list is no zone (the site's, UTC); a signed-in member keeps their profile's zone,
whatever the cookie says."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client

from accounts.models import User
from common.zones import ZONE_COOKIE, zone_from_cookie
from tests.conftest import client_as
from tests.leagues.conftest import running_season

pytestmark = pytest.mark.django_db

# Tue 15 Jan 2036 03:47 UTC: 12:47 in Tokyo.
DEADLINE = datetime(2036, 1, 15, 3, 47, tzinfo=UTC)
SEASON = "/clubs/tile-club/winter/1/"


@pytest.fixture
def season(alice: User, bob: User, dave: User) -> None:
    running_season(alice, [bob, dave], deadline=DEADLINE)


def season_page(client: Client, cookie: str | None) -> tuple[str, str]:
    if cookie is not None:
        client.cookies[ZONE_COOKIE] = cookie
    response = client.get(SEASON)
    assert response.status_code == 200
    return response.content.decode(), response.headers.get("Vary", "")


@pytest.mark.usefixtures("season")
def test_a_visitor_reads_times_in_the_zone_their_browser_tells() -> None:
    page, vary = season_page(Client(), "Asia/Tokyo")

    assert "deadline Tue 15 Jan, 12:47 JST" in page
    assert "03:47 UTC" not in page
    # The script knows the page was written in Tokyo time: it loads nothing again.
    assert "visitor-zone" in page and 'data-zone="Asia/Tokyo" data-reload' in page
    assert "Cookie" in vary  # a cache keeps one visitor's zone from another


@pytest.mark.usefixtures("season")
@pytest.mark.parametrize("cookie", [None, "", "Mars/Base", "../../etc/passwd", "localtime"])
def test_a_visitor_without_a_known_zone_reads_the_sites(cookie: str | None) -> None:
    page, _ = season_page(Client(), cookie)

    assert "deadline Tue 15 Jan, 03:47 UTC" in page
    assert 'data-zone="UTC"' in page


@pytest.mark.usefixtures("season")
def test_a_member_keeps_their_profiles_zone_whatever_the_cookie_says(bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(time_zone="Europe/Lisbon")

    page, _ = season_page(client_as(User.objects.get(pk=bob.pk)), "Asia/Tokyo")

    assert "deadline Tue 15 Jan, 03:47 WET" in page
    assert "JST" not in page
    assert "visitor-zone.js" not in page  # a member's zone is their profile's


def test_the_cookie_names_a_zone_only_by_its_iana_name() -> None:
    tokyo = zone_from_cookie("Asia/Tokyo")
    assert tokyo is not None and tokyo.key == "Asia/Tokyo"
    encoded = zone_from_cookie("America%2FArgentina%2FBuenos_Aires")
    assert encoded is not None and encoded.key == "America/Argentina/Buenos_Aires"
    for refused in (None, "", " ", "asia/tokyo", "UTC+9", "/etc/localtime", "A" * 400):
        assert zone_from_cookie(refused) is None, refused
