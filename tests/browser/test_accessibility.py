"""Every page of the site measured by axe-core, at a desktop's size and a phone's (issue 26,
item 5): a serious or critical violation of any of axe's default rules fails the test,
which names the page, the rule and the elements; so does a page wider than the screen,
and markup the HTML checker refuses (a <time> without a valid datetime, aria-label on an
element that has no role to carry it).

axe-core is not ours: ``vendor/axe.min.js`` is the npm package's file, unchanged (see
``vendor/README.md``). It is evaluated in the page through the browser's devtools
protocol, which the site's Content-Security-Policy does not govern, so the pages are
measured as they are served, under their policy (an injected <script> would be refused).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, Page

from accounts.models import User
from games.models import Game
from leagues.models import Club, Membership, Role
from leagues.notices import LeagueNotice
from moderation.models import Case
from notifications.models import Notification
from tests.browser.conftest import PHONE, Violations, log_in, new_page
from tests.factories import UserFactory
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.leagues.conftest import RunningSeason, running_season
from tests.moderation.conftest import finished_league_game, open_case
from tests.moderation.evidence_support import claim

pytestmark = pytest.mark.browser

__all__ = ["_eager_celery"]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SHOTS = os.environ.get("SCREENSHOTS_DIR")

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
SIZES = {"desktop": DESKTOP, "phone": PHONE}

# What fails the test: axe's two worst levels. "moderate" and "minor" are printed, not
# held against a page.
FAILING = ("serious", "critical")

RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary})),
  }));
}"""


WIDEST = "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"


# What the HTML checker held against the pages and axe only suspects: a <time> whose
# datetime is missing or finer than milliseconds, aria-label where it is not read.
MARKUP = """() => {
  const found = [];
  for (const time of document.querySelectorAll("time")) {
    const value = time.getAttribute("datetime");
    if (value === null) found.push("a <time> without datetime: " + time.outerHTML.slice(0, 100));
    else if (/\\.\\d{4,}/.test(value)) found.push("a <time> finer than milliseconds: " + value);
  }
  const bare = "span[aria-label]:not([role]), div[aria-label]:not([role]), time[aria-label]";
  for (const element of document.querySelectorAll(bare)) {
    found.push(`aria-label on a bare <${element.localName}>: ${element.outerHTML.slice(0, 100)}`);
  }
  return found;
}"""


@cache
def axe_source() -> str:
    return AXE.read_text()


@dataclass
class Site:
    """Everything the pages need: a club with a season under way (alice owns it; bob,
    dave and erin play), a finished league game and a case on it that mo moderates, and
    a casual game in play between alice and carol that dave watches."""

    running: RunningSeason
    league_game: Game
    casual_game: Game
    case: Case
    alice: User
    dave: User
    mo: User

    @property
    def club(self) -> Club:
        return self.running.club


@pytest.fixture
def site(transactional_db: None) -> Site:
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    dave = UserFactory(username="dave", display_name="Dave")
    erin = UserFactory(username="erin", display_name="Erin")
    carol = UserFactory(username="carol", display_name="Carol")
    running = running_season(alice, [bob, dave, erin, alice])
    mo = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=running.club, user=mo, role=Role.MODERATOR)
    league_game = finished_league_game(running.fixtures[0])
    case = claim(open_case(league_game, bob, fixture=running.fixtures[0]), mo)
    casual_game = current_game(start_table(alice, carol, first=0))
    # The notice with the longest kind ("League matchdays: your fixtures and their
    # deadlines"), read and unread: its tag made the list 463 px wide on a phone.
    for read in (False, True):
        Notification.objects.create(
            user=alice,
            kind=LeagueNotice.LEAGUE_MATCHDAY,
            text="Matchday 1 of Winter league is open: you play Erin, due in 2 days.",
            link=f"/clubs/{running.club.slug}/",
            read_at=timezone.now() if read else None,
        )
    return Site(running, league_game, casual_game, case, alice, dave, mo)


def pages_of(site: Site) -> Iterator[tuple[User | None, str]]:
    """(who looks, the address) for every page of the site: a visitor's, a player's, an
    organiser's, a spectator's and a moderator's. A page listed twice is measured again
    with something opened (:data:`OPENED`)."""
    club = site.club.slug
    season = site.running.season
    league = season.league.slug
    season_page = f"/clubs/{club}/{league}/{season.number}/"
    casual = site.casual_game
    for path in (
        "/",
        reverse("login"),
        reverse("signup"),
        reverse("password_reset"),
        reverse("leagues:clubs"),
        f"/clubs/{club}/",
        f"{season_page}standings/",
        "/no-such-page/",
    ):
        yield None, path
    for path in (
        "/",
        "/#user-menu",
        reverse("games:lobby"),
        reverse("games:new_table"),
        reverse("games:new_table") + "#options",
        f"/games/{casual.pk}/",
        f"/games/tables/{casual.table_id}/",
        f"/games/{site.league_game.pk}/replay/",
        reverse("games:your_move"),
        reverse("notifications:list"),
        reverse("games:vacation"),
        reverse("profile"),
        reverse("password_change"),
        reverse("leagues:player"),
        f"/clubs/{club}/",
        f"/clubs/{club}/members/",
        f"/clubs/{club}/settings/",
        f"/clubs/{club}/leagues/new/",
        f"/clubs/{club}/{league}/",
        season_page,
        f"{season_page}standings/",
        f"{season_page}standings/#crosstable",
        f"{season_page}organiser/",
        f"{season_page}history/",
        f"/moderation/report/game/{casual.pk}/",
        reverse("moderation:my_cases"),
        reverse("moderation:log"),
    ):
        yield site.alice, path
    yield site.dave, f"/games/{casual.pk}/"  # a spectator
    yield site.dave, reverse("moderation:queue")  # not his: 403
    for path in (
        reverse("moderation:queue"),
        f"/moderation/cases/{site.case.pk}/",
        f"/moderation/cases/{site.case.pk}/evidence/",
        f"/moderation/cases/{site.case.pk}/rulings/new/",
        "/moderation/members/bob/",
        reverse("moderation:archive"),
    ):
        yield site.mo, path


# What a page's address ending in this fragment opens before it is measured: the states
# that show what the page hides at first.
OPENED = {
    "#user-menu": ".user-menu summary",
    "#options": "details.options summary",
    "#crosstable": "details.crosstable summary",
}


def open_part(page: Page, path: str) -> None:
    fragment = "#" + path.partition("#")[2]
    if fragment in OPENED:
        page.locator(OPENED[fragment]).first.click()
        page.wait_for_load_state("networkidle")


def settle(page: Page) -> None:
    """Wait for what the page loads after itself: htmx's `load` requests and a game
    page's socket (a page that is current is sent nothing when it connects)."""
    page.wait_for_load_state("networkidle")
    if page.locator(".game-page[data-game]").count():
        page.locator('.live-pill[data-live="open"]').wait_for(state="attached")
    page.wait_for_timeout(200)


def violations_of(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    result: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return result


def shot_name(size: str, who: str, path: str) -> str:
    return f"{size}-{who}{re.sub(r'[^a-z0-9]+', '-', path).rstrip('-')}.png"


@pytest.mark.parametrize("size", SIZES)
def test_no_page_has_a_serious_or_critical_violation(
    browser: Browser, live_server_url: str, site: Site, size: str
) -> None:
    csp_violations = Violations()
    page = new_page(browser, live_server_url, csp_violations, **SIZES[size])
    found: list[str] = []
    visited = 0
    who: User | None = None
    for viewer, path in pages_of(site):
        if viewer != who:
            page.context.clear_cookies()
            if viewer is not None:
                log_in(page, viewer)
            who = viewer
        page.goto(path)
        settle(page)
        open_part(page, path)
        visited += 1
        as_who = viewer.username if viewer else "visitor"
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/{shot_name(size, as_who, path)}", full_page=True)
        width = page.evaluate(WIDEST)
        if width > SIZES[size]["viewport"]["width"]:
            found.append(f"{size} {path} ({as_who}): the page is {width} px wide")
        for fault in page.evaluate(MARKUP):
            found.append(f"{size} {path} ({as_who}): {fault}")
        for violation in violations_of(page):
            if violation["impact"] not in FAILING:
                print(f"{size} {path} ({as_who}): {violation['rule']} ({violation['impact']})")
                continue
            for node in violation["nodes"]:
                found.append(
                    f"{size} {path} ({as_who}): {violation['rule']} ({violation['impact']}:"
                    f" {violation['help']}) at {node['target']}: {node['summary']}"
                )
    page.context.close()
    assert visited >= 20
    assert not found, "\n".join(found)
    assert not csp_violations, csp_violations


# A clock with seconds left, its beat held at its farthest point: what axe saw on a loaded
# machine when a game's turn ran low while the pages were measured.
LOW_CLOCK = """() => {
  const clock = document.querySelector(".status time.countdown[data-deadline]");
  clock.dataset.deadline = new Date(Date.now() + 8000).toISOString();
  clock.dataset.offset = "0";
  window.RummikubClock.tick();
  for (const beat of clock.getAnimations()) {
    beat.pause();
    beat.currentTime = beat.effect.getComputedTiming().duration;
  }
  return clock.className;
}"""

CONTRAST_OF_CLOCK = """async () => {
  const results = await axe.run(".status time.countdown", {runOnly: ["color-contrast"]});
  if (!results.passes.length && !results.violations.length) return ["not measured"];
  return results.violations.map((v) => v.nodes.map((n) => n.failureSummary).join("; "));
}"""


@pytest.mark.parametrize("size", SIZES)
def test_a_clock_running_low_keeps_its_contrast_through_its_beat(
    browser: Browser, live_server_url: str, transactional_db: None, size: str
) -> None:
    alice = UserFactory(username="alice", display_name="Alice")
    carol = UserFactory(username="carol", display_name="Carol")
    dave = UserFactory(username="dave", display_name="Dave")
    game = current_game(start_table(alice, carol, first=0))
    page = new_page(browser, live_server_url, Violations(), **SIZES[size])
    # A spectator's status bar is plain white: a player's, when it is their turn, has a
    # gradient behind the clock, where axe cannot measure.
    log_in(page, dave)
    page.goto(f"/games/{game.pk}/")
    settle(page)
    assert "is-low" in page.evaluate(LOW_CLOCK).split()
    page.evaluate(axe_source())
    assert page.evaluate(CONTRAST_OF_CLOCK) == []
    page.context.close()
