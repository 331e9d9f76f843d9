"""Error reports: Sentry starts only with SENTRY_DSN, and no report it would send carries
a tile, a rack, the pool, a request's body, a cookie or a frame's variables."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import sentry_sdk
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from config import sentry
from tests.config.interpreters import run_python

DSN = "https://public@sentry.example.com/1"


class Kept(Transport):
    """A transport that keeps what it would send (nothing leaves the machine)."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        super().__init__(options)
        self.envelopes: list[Envelope] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        self.envelopes.append(envelope)


@pytest.fixture
def sent() -> Iterator[list[Envelope]]:
    sentry_sdk.init(**{**sentry.options(DSN, "test", 0.0), "transport": Kept})
    transport = sentry_sdk.get_client().transport
    assert isinstance(transport, Kept)
    try:
        yield transport.envelopes
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.init()  # no DSN: nothing is sent by the tests after this one


def started_with(**environ: str) -> str:
    code = "import django; django.setup(); import sentry_sdk; print(sentry_sdk.is_initialized())"
    done = run_python(code, without=("SENTRY_DSN",), **environ)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_sentry_starts_only_with_a_dsn() -> None:
    assert started_with() == "False"
    assert started_with(SENTRY_DSN=DSN) == "True"


def failing_move(rack: list[str]) -> None:
    pool = ["B3", "O9", "J"]  # noqa: F841 (a frame's variable, which must not be sent)
    raise ValueError(f"seat 0 played {' '.join(rack)} from its rack")


def leave_traces() -> None:
    """What a request may leave behind before it fails: a query's breadcrumb with its
    parameters, a context naming a rack, a log line naming tiles."""
    sentry_sdk.add_breadcrumb(
        category="query",
        # As Django's integration records a query: its parameters apart.
        message='UPDATE "games_game" SET "state" = %s WHERE "id" = %s',
        data={"db.params": [{"racks": [[1, 2, 52]], "pool": [3, 4]}, 12]},
    )
    sentry_sdk.set_context("game", {"rack": ["R7", "K13"], "game_id": 12})
    logging.getLogger("games").warning("seat 1 holds R7 K13 J")


def test_a_report_carries_no_tile_rack_or_pool(sent: list[Envelope]) -> None:
    leave_traces()
    try:
        failing_move(["R7", "R8", "R9"])
    except ValueError:
        sentry_sdk.capture_exception()
    sentry_sdk.flush()

    events = [item.payload.json for e in sent for item in e.items if item.payload.json]
    text = json.dumps(events)
    assert any("seat 0 played [tile] [tile] [tile] from its rack" in json.dumps(e) for e in events)
    for secret in ('"R7"', "R8", "K13", "O9", "[[1, 2, 52]]", '"racks"'):
        assert secret not in text, secret
    assert '"game_id": 12' in text  # what is no secret is kept
    assert '"vars"' not in text


def test_the_scrub_drops_bodies_cookies_and_credentials() -> None:
    event = {
        "request": {
            "url": "https://club.example.com/games/7/move/",
            "data": "tiles=R7&tiles=R8",
            "cookies": {"sessionid": "abc"},
            "headers": {"Cookie": "sessionid=abc", "Authorization": "Bearer x", "Accept": "*/*"},
            "query_string": "tiles=R7,B13",
        },
        "extra": {"draft": [[1, 2, 3]], "hints": ["R7 R8 R9"], "seat": 1},
    }

    scrubbed = sentry.scrub(event)

    assert scrubbed["request"] == {
        "url": "https://club.example.com/games/7/move/",
        "headers": {"Accept": "*/*"},
        "query_string": "tiles=[tile],[tile]",
    }
    assert scrubbed["extra"] == {"draft": "[Filtered]", "hints": "[Filtered]", "seat": 1}
