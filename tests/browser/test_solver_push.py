"""A hint is filled in by push, while the web process runs no solver (issue 27, item 3).

The page's request for the hint answers with "thinking" (the live server, daphne, runs
every request with the solver refused: it would fail instead); the solver's worker works
it out, and the answer comes over the page's own socket for it, ``ws/answers/<job>/``."""

import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, WebSocket, expect

from accounts.models import User
from tests.browser.conftest import log_in
from tests.browser.test_games import open_game
from tests.games.conftest import current_game, start_table
from tests.games.positions import set_position
from tests.games.views_support import RACK, TABLE, mover

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("solver_worker")]


def test_a_hint_is_filled_in_by_push_from_the_solvers_worker(
    page: Page, alice: User, bob: User, solver_worker: Path
) -> None:
    game = set_position(current_game(start_table(alice, bob)), TABLE, RACK)
    log_in(page, mover(game))
    open_game(page, game)
    frames: list[str] = []

    def listen(socket: WebSocket) -> None:
        if "/ws/answers/" in socket.url:
            socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", listen)

    with page.expect_response(lambda response: "/hint/" in response.url) as asked:
        page.get_by_role("button", name="Hint").click()

    # The web's answer: "thinking", in the help panel's live region, and no hint.
    answer = asked.value
    assert answer.status == 200
    html = answer.text()
    assert "The solver is looking for your best play" in html
    assert "Hint: lay" not in html
    job = html.split('ws-connect="/ws/answers/')[1].split("/")[0]
    expect(page.locator("#game-help")).to_have_attribute("aria-live", "polite")

    heading = page.locator("#game-help h3")
    expect(heading).to_contain_text("Hint: lay 9 tiles")
    assert any("Hint: lay 9 tiles" in frame for frame in frames)  # it came by the socket
    said = f"solver job {job} (games.hint) answered"
    deadline = time.monotonic() + 10
    while said not in solver_worker.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert said in solver_worker.read_text()  # the worker's, not daphne's
    expect(page.locator(f"#answer-{job} .thinking")).to_have_count(0)
    page.get_by_role("button", name="Use this").click()
    expect(page.locator("#verdict")).to_contain_text("ready to end your turn")
