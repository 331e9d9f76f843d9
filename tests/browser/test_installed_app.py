"""The site as an installed app, in Chromium: it meets the browser's installability
criteria (Chromium's own check, over the DevTools protocol: the manifest and its icons,
a service worker with a fetch handler controlling the page); without a network it shows
the last "your move" list the member opened and, for any other page, the offline page;
a push is shown as a notification of its game; and the notices page turns push on for
the device. On a server of its own that has a VAPID key (a site that pushes)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from games import services
from games.models import Game
from notifications import vapid
from tests.browser.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    REPORT_VIOLATIONS,
    Violations,
    daphne,
    log_in,
    new_page,
    wait_until,
)
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.browser

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")


@pytest.fixture(scope="module")
def push_server_url(
    django_db_setup: None, static_root: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WEBPUSH_VAPID_PRIVATE_KEY", vapid.new_private_key())
        with daphne(static_root, tmp_path_factory, debug=False) as url:
            yield url


def app_page(browser: Browser, url: str, violations: Violations, **options: Any) -> Iterator[Page]:
    page = new_page(browser, url, violations, **options)
    yield page
    page.context.close()
    assert not violations, violations


@pytest.fixture
def desktop(
    browser: Browser, push_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    yield from app_page(browser, push_server_url, csp_violations)


@pytest.fixture
def handset(
    browser: Browser, push_server_url: str, transactional_db: None, csp_violations: Violations
) -> Iterator[Page]:
    yield from app_page(browser, push_server_url, csp_violations, **PHONE)


def controlled(page: Page) -> None:
    """Wait until the service worker is active, and controls the page: a page that
    started loading before the worker was active is controlled from its next load."""
    wait_until(page, "() => navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("() => !!navigator.serviceWorker.controller"):
        page.reload()
    wait_until(page, "() => !!navigator.serviceWorker.controller")


def awaiting(user: User, opponent: User) -> Game:
    """A correspondence game where it is ``user``'s turn."""
    game = current_game(start_table(user, opponent, clock="correspondence"))
    if user_at(game, game.current_seat or 0) != user:
        services.draw(game.pk, opponent, game.version)
    return Game.objects.get(pk=game.pk)


def shoot(page: Page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/{name}.png", full_page=True)


@pytest.fixture
def profile_page(
    browser: Browser,
    push_server_url: str,
    transactional_db: None,
    csp_violations: Violations,
    tmp_path: Path,
) -> Iterator[Page]:
    """A page of a Chromium profile on disk: Chromium installs no app from an incognito
    context (Playwright's usual ones)."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        base_url=push_server_url,
    )
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.pages[0] if context.pages else context.new_page()
    page.set_default_timeout(15_000)
    page.on("console", csp_violations.record)
    yield page
    context.close()
    assert not csp_violations, csp_violations


def test_chromium_finds_the_site_installable(profile_page: Page, alice: User) -> None:
    page = profile_page
    log_in(page, alice)
    controlled(page)
    cdp = page.context.new_cdp_session(page)

    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["url"].endswith("/manifest.webmanifest")
    parsed = json.loads(manifest["data"])
    assert (parsed["name"], parsed["display"]) == ("Rummikub Club", "standalone")
    # Chromium's installability check: the manifest's fields, its icons fetched and
    # decoded at their sizes, a service worker with a fetch handler controlling the page.
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

    worker = page.evaluate(
        """() => navigator.serviceWorker.ready.then((reg) => ({
             scope: reg.scope, script: reg.active.scriptURL,
             controller: navigator.serviceWorker.controller.scriptURL }))"""
    )
    origin = re.match(r"https?://[^/]+", page.url).group(0)  # type: ignore[union-attr]
    assert worker == {
        "scope": f"{origin}/",
        "script": f"{origin}/sw.js",
        "controller": f"{origin}/sw.js",
    }


def test_without_a_network_the_app_shows_the_last_your_move_list(
    handset: Page, alice: User, bob: User
) -> None:
    game = awaiting(alice, bob)
    log_in(handset, alice)
    controlled(handset)
    handset.goto("/games/your-move/")
    expect(handset.locator(".your-move-item")).to_have_count(1)

    handset.context.set_offline(True)
    handset.goto("/games/your-move/")

    expect(handset.get_by_role("heading", name="1 game awaiting you")).to_be_visible()
    expect(handset.locator(".your-move-item")).to_contain_text("Bob")
    expect(handset.locator(f'.your-move-item[data-game="{game.pk}"]')).to_be_visible()
    shoot(handset, "offline-your-move-phone")

    handset.goto("/games/")
    expect(handset.get_by_role("heading", name="You are offline")).to_be_visible()
    shoot(handset, "offline-phone")
    handset.get_by_role("link", name="The last list of games awaiting your move").click()
    expect(handset.locator(".your-move-item")).to_have_count(1)


def test_logging_out_forgets_the_kept_list(desktop: Page, alice: User, bob: User) -> None:
    awaiting(alice, bob)
    log_in(desktop, alice)
    controlled(desktop)
    desktop.goto("/games/your-move/")
    expect(desktop.locator(".your-move-item")).to_have_count(1)
    desktop.locator(".user-menu summary").click()
    desktop.get_by_role("button", name="Log out").click()
    expect(desktop.get_by_role("link", name="Log in")).to_be_visible()

    desktop.context.set_offline(True)
    desktop.goto("/games/your-move/")

    expect(desktop.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(desktop.locator(".your-move-item")).to_have_count(0)


def test_a_push_is_shown_as_a_notification_of_its_game(desktop: Page, alice: User) -> None:
    desktop.context.grant_permissions(["notifications"])
    log_in(desktop, alice)
    controlled(desktop)
    cdp = desktop.context.new_cdp_session(desktop)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    desktop.wait_for_timeout(200)
    (registration,) = [r for r in registrations if not r.get("isDeleted")][:1]
    origin = re.match(r"https?://[^/]+", desktop.url).group(0)  # type: ignore[union-attr]
    payload = {
        "title": "Your turn",
        "body": "Your turn 3 against Bob.",
        "url": "/games/7/",
        "tag": "game-7",
    }

    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": origin,
            "registrationId": registration["registrationId"],
            "data": json.dumps(payload),
        },
    )

    wait_until(
        desktop,
        "() => navigator.serviceWorker.ready"
        ".then((r) => r.getNotifications()).then((n) => n.length > 0)",
    )
    shown = desktop.evaluate(
        """() => navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) =>
             list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url })))"""
    )
    assert shown == [
        {
            "title": "Your turn",
            "body": "Your turn 3 against Bob.",
            "tag": "game-7",
            "url": "/games/7/",
        }
    ]

    # A tap on it (the event the browser sends the worker) opens its game. A script's
    # event carries no user activation, which opening a window needs: the worker's
    # openWindow is watched instead.
    (worker,) = desktop.context.service_workers
    opened = worker.evaluate(
        """() => new Promise((resolve) => {
             self.clients.openWindow = (url) => { resolve(url); return Promise.resolve(null); };
             self.registration.getNotifications().then(([notification]) => {
               self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
             });
           })"""
    )
    assert opened == f"{origin}/games/7/"
    # The tapped notification is closed.
    wait_until(
        desktop,
        "() => navigator.serviceWorker.ready"
        ".then((r) => r.getNotifications()).then((n) => n.length === 0)",
    )


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_notices_page_offers_push_on_this_device(
    size: str, desktop: Page, handset: Page, alice: User
) -> None:
    page = desktop if size == "desktop" else handset
    log_in(page, alice)
    controlled(page)

    page.goto("/games/notifications/")

    section = page.locator("#push-device")
    expect(section.get_by_role("heading", name="Push on this device")).to_be_visible()
    expect(section.get_by_role("status")).to_have_text("Push is off for this device.")
    expect(section.get_by_role("button", name="Turn on push here")).to_be_visible()
    expect(page.get_by_role("radio", name="Push to my devices").first).to_be_visible()
    shoot(page, f"notices-push-{size}")
