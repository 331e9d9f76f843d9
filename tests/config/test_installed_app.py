"""The installed app's files as a browser fetches them: the web app manifest (what
installability asks of it: a name, a start URL, a standalone display, PNG icons of 192
and 512 pixels that are what they say), the service worker at the site's root with its
fetch handler, the offline page without any member's data; and the VAPID key `make run`
makes once and keeps with its data."""

import json
import os
import struct
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from accounts.models import User
from config import runstack
from notifications import vapid
from tests.conftest import client_as

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    head = Path(path).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def static_file(url: str) -> str:
    found = finders.find(url.removeprefix(settings.STATIC_URL).removeprefix("/static/"))
    assert isinstance(found, str), url
    return found


def test_the_manifest_says_what_installing_needs(client: Client) -> None:
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Rummikub Club"
    assert manifest["short_name"] == "Rummikub"
    assert manifest["start_url"] == reverse("games:your_move")
    assert manifest["display"] == "standalone"
    assert manifest["scope"] == "/"
    icons = {(i["sizes"], i["purpose"]): i for i in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), icon in icons.items():
        assert icon["type"] == "image/png"
        width, height = png_size(static_file(icon["src"]))
        assert f"{width}x{height}" == sizes


def test_every_page_links_the_manifest_and_registers_the_worker(client: Client) -> None:
    html = client.get(reverse("home")).text

    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert "js/service-worker.js" in html


def test_the_service_worker_is_served_from_the_root_uncached(client: Client) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
    assert response["Cache-Control"] == "no-cache"
    script = response.text
    for listener in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'self.addEventListener("{listener}"' in script
    assert 'const OFFLINE_URL = "/offline/";' in script
    assert 'const YOUR_MOVE_URL = "/games/your-move/";' in script
    # The policy lets the site's own worker and manifest in.
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


def test_the_offline_page_holds_nothing_of_the_member(alice: User) -> None:
    html = client_as(alice).get("/offline/").text

    assert "You are offline" in html
    assert alice.username not in html
    assert "csrfmiddlewaretoken" not in html


@pytest.mark.parametrize("path", ["/manifest.webmanifest", "/sw.js", "/offline/"])
def test_the_app_files_take_no_post(client: Client, path: str) -> None:
    assert client.post(path).status_code == 405


# --- make run's VAPID key ----------------------------------------------------------------


def test_make_run_makes_the_key_once_and_keeps_it(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.delenv("WEBPUSH_VAPID_PRIVATE_KEY", raising=False)

    runstack.use_vapid_key(tmp_path)
    first = os.environ["WEBPUSH_VAPID_PRIVATE_KEY"]
    monkeypatch.delenv("WEBPUSH_VAPID_PRIVATE_KEY")
    runstack.use_vapid_key(tmp_path)

    assert os.environ["WEBPUSH_VAPID_PRIVATE_KEY"] == first
    kept = tmp_path / runstack.VAPID_KEY_FILE
    assert kept.read_text().strip() == first
    assert kept.stat().st_mode & 0o777 == 0o600
    assert len(vapid.public_key_of(first)) == 87  # a P-256 point, base64url


def test_a_deployments_key_is_used_as_given(tmp_path: Path, monkeypatch: Any) -> None:
    given = vapid.new_private_key()
    monkeypatch.setenv("WEBPUSH_VAPID_PRIVATE_KEY", given)

    runstack.use_vapid_key(tmp_path)

    assert os.environ["WEBPUSH_VAPID_PRIVATE_KEY"] == given
    assert not (tmp_path / runstack.VAPID_KEY_FILE).exists()
