"""The weekend pause on the game page, at phone size: the clock says it stands still
until Monday 00:00 in the zone of the player to move, in Tokyo time for a member in
Asia/Tokyo, across the end of summer time for one in Europe/London, and in the reader's
own zone beside it when it differs.

The page's "now" must fall on a weekend whatever day the tests run: the server is one of
this module's own, whose clock starts on Saturday 24 October 2026 (``TESTS_SERVER_NOW``),
and each game's turn was started, as stored, the evening before. London leaves summer
time on Sunday 25 October 2026, so a London turn's weekend ends at 00:00 GMT.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games import services
from games.models import Game, Table
from tests.browser.conftest import PHONE, Violations, daphne, log_in, new_page
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery, current_game, start_table

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]

SERVER_NOW = datetime(2026, 10, 24, 12, tzinfo=UTC)
"""Saturday: 21:00 in Tokyo, 13:00 (summer time) in London."""
TOKYO, LONDON = ZoneInfo("Asia/Tokyo"), ZoneInfo("Europe/London")
SHOTS = os.environ.get("WEEKEND_SCREENSHOTS", "")
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

OpenPage = Callable[..., Page]


@pytest.fixture(scope="module")
def weekend_server_url(
    django_db_setup: None, static_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    env = {"TESTS_SERVER_NOW": SERVER_NOW.isoformat()}
    with daphne(static_root, tmp_path_factory, debug=False, extra_env=env) as url:
        yield url


@pytest.fixture
def open_page(
    browser: Browser, weekend_server_url: str, transactional_db: None
) -> Iterator[OpenPage]:
    """``open_page(**options)``: a page of the weekend's server; CSP refusals fail the test."""
    violations, pages = Violations(), []

    def make(**options: object) -> Page:
        page = new_page(browser, weekend_server_url, violations, **options)
        pages.append(page)
        return page

    yield make
    for page in pages:
        page.context.close()
    assert not violations, violations


def member(name: str, zone: ZoneInfo) -> User:
    return UserFactory(username=name.lower(), display_name=name, time_zone=zone.key)


def turn_started(mover: User, other: User, when: datetime) -> Game:
    """A correspondence game that pauses on weekends, ``mover``'s turn started at
    ``when``: ``other`` moved first and drew then."""
    with time_machine.travel(when - timedelta(hours=1), tick=False):
        table = start_table(
            mover, other, first=1, clock="correspondence", turn_seconds=86400, weekend_pause=True
        )
        game = current_game(table)
    with time_machine.travel(when, tick=False):
        services.draw(game.pk, other, game.version)
    game.refresh_from_db()
    return game


def shoot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/weekend-{name}.png", full_page=True)


def test_the_clock_says_it_stands_still_until_monday_in_the_movers_zone(
    open_page: OpenPage,
) -> None:
    aiko, bea = member("Aiko", TOKYO), member("Bea", LONDON)
    tokyo_game = turn_started(aiko, bea, datetime(2026, 10, 23, 20, tzinfo=TOKYO))
    london_game = turn_started(bea, aiko, datetime(2026, 10, 23, 20, tzinfo=LONDON))
    assert london_game.turn_deadline == datetime(2026, 10, 26, 20, tzinfo=UTC)  # 20:00 GMT

    phone = open_page(**PHONE)
    log_in(phone, aiko)
    phone.goto(f"/games/{tokyo_game.pk}/")
    status = phone.locator("#game-status")
    expect(status).to_contain_text(
        "Weekend: this turn's clock stands still until Mon 26 Oct, 00:00 JST."
    )
    expect(status).to_contain_text("due Mon 26 Oct, 20:00 JST")
    expect(phone.locator(".clock-weekend time")).to_have_attribute(
        "datetime", "2026-10-26T00:00:00+09:00"
    )
    expect(phone.locator(".rules-summary")).to_contain_text("weekends paused")
    # The countdown stands still too: the 20 h the turn will have left on Monday (it
    # counted down through the weekend).
    countdown = phone.locator(".turn-clock .countdown")
    expect(countdown).to_have_text("20 h 00 min")
    expect(countdown).to_have_class(re.compile(r"\bis-standing\b"))
    phone.wait_for_timeout(1500)
    expect(countdown).to_have_text("20 h 00 min")
    shoot(phone, "tokyo-phone")

    # Bea's weekend runs across the end of summer time: from 00:00 BST to 00:00 GMT.
    phone.context.clear_cookies()
    log_in(phone, bea)
    phone.goto(f"/games/{london_game.pk}/")
    status = phone.locator("#game-status")
    expect(status).to_contain_text(
        "Weekend: this turn's clock stands still until Mon 26 Oct, 00:00 GMT."
    )
    expect(status).to_contain_text("due Mon 26 Oct, 20:00 GMT")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(phone, "london-phone")

    # Aiko watches Bea's turn: Bea's Monday, and when that is for her.
    desktop = open_page(**DESKTOP)
    log_in(desktop, aiko)
    desktop.goto(f"/games/{london_game.pk}/")
    expect(desktop.locator("#game-status")).to_contain_text(
        "stands still until Mon 26 Oct, 00:00 GMT (Mon 26 Oct, 09:00 JST your time)."
    )
    expect(desktop.locator("#game-status")).to_contain_text("due Tue 27 Oct, 05:00 JST")
    shoot(desktop, "opponent-desktop")


def test_only_a_correspondence_table_offers_the_pause_on_the_new_table_page(
    open_page: OpenPage,
) -> None:
    aiko = member("Aiko", TOKYO)
    phone = open_page(**PHONE)
    log_in(phone, aiko)
    phone.goto("/games/new/")
    pause = phone.get_by_label("Pause on weekends")
    expect(pause).to_be_hidden()  # a live clock, the form's first choice
    # The private box's words stand beside it, not over its help (they overlapped when
    # the box was inside its label, in the grid's narrow first column).
    label = phone.locator("label[for=id_private]").bounding_box()
    help_text = phone.locator("#id_private_helptext").bounding_box()
    assert label is not None and help_text is not None
    assert label["y"] + label["height"] <= help_text["y"] + 1

    phone.get_by_text("Correspondence: a move when you have time").click()
    expect(pause).to_be_visible()
    pause.check()
    shoot(phone, "new-table-phone")
    phone.get_by_role("button", name="Create the table").click()

    expect(phone.locator(".lead")).to_contain_text("weekends paused")
    table = Table.objects.get()
    assert (table.clock, table.weekend_pause) == ("correspondence", True)
