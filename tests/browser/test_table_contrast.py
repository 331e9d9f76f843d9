"""The note under the table's sets, "Outlined: the tiles of the last play.", reads on the
green felt (walk W17: grey on green, about 1.2:1): its contrast, as the browser computes
its colours, is at least WCAG's 4.5:1 for normal text."""

from __future__ import annotations

import os
import re

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.conftest import log_in
from tests.browser.test_games import open_game
from tests.games.conftest import current_game, start_table
from tests.games.test_move_log import seed_where_the_starter_melds_with_a_joker
from tests.games.views_support import mover, waiter

pytestmark = pytest.mark.browser

SCREENSHOTS = os.environ.get("SCREENSHOTS_DIR")

# The note's text colour, and what lies under it: its own background when it has one,
# else the lightest colour of the felt (the gradient's light end), the worst case.
COLOURS = """note => {
  const style = getComputedStyle(note);
  const board = note.closest('.board');
  const felt = getComputedStyle(board).getPropertyValue('--felt-light').trim();
  return [style.color, style.backgroundColor, felt];
}"""


def rgb(value: str) -> tuple[float, float, float, float]:
    """A CSS colour as the browser computes it (``rgb()``/``rgba()``) or a hex one."""
    if value.startswith("#"):
        return (*(int(value[i : i + 2], 16) for i in (1, 3, 5)), 1.0)  # type: ignore[return-value]
    parts = [float(p) for p in re.findall(r"[\d.]+", value)]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(top: tuple[float, float, float, float], under: tuple[float, ...]) -> tuple[float, ...]:
    alpha = top[3]
    return tuple(top[i] * alpha + under[i] * (1 - alpha) for i in range(3))


def luminance(colour: tuple[float, ...]) -> float:
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        for c in (channel / 255 for channel in colour[:3])
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_note_of_the_last_play_reads_on_the_felt(
    page: Page, other_page: Page, alice: User, bob: User
) -> None:
    with override_settings(GAMES_ROUND_SEED=seed_where_the_starter_melds_with_a_joker):
        game = current_game(start_table(alice, bob))
    log_in(page, mover(game))
    log_in(other_page, waiter(game))
    open_game(page, game)
    open_game(other_page, game)
    page.get_by_role("button", name="Hint").click()
    page.get_by_role("button", name="Use this").click()
    page.get_by_role("button", name="End turn").click()

    note = other_page.locator("#game-board .laid-note")
    expect(note).to_contain_text("Outlined: the tiles of the last play.")
    if SCREENSHOTS:
        # Tall enough that the docked rack leaves the whole table in sight.
        other_page.set_viewport_size({"width": 1280, "height": 1400})
        other_page.locator("#game-board").screenshot(path=f"{SCREENSHOTS}/laid-note.png")
    text, background, felt = note.evaluate(COLOURS)
    under = over(rgb(background), rgb(felt)[:3])

    assert contrast(over(rgb(text), under), under) >= 4.5, (text, background, felt)
