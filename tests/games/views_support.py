"""Shared by the view tests: who plays, who watches, and what each may see.

The game fixture is a two-player game between alice and bob in which the player whose
turn it is (the *mover*) has a chosen rack and table, so tests know what can be played.
``carol`` is signed in but has no seat: a spectator.
"""

from __future__ import annotations

import re

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from accounts.models import User
from engine.state import GameState
from engine.tiles import Tile
from games.models import Game
from tests.games.players import user_at

TILE = re.compile(r"\b(?:[RBKO](?:1[0-3]|[1-9])|J)\b")
HTMX = {"HTTP_HX_REQUEST": "true"}

TABLE = [["R5", "R6", "R7"], ["B9", "K9", "O9"]]
RACK = ["R4", "R8", "B10", "K1", "K2", "K3", "O2", "O3", "O4", "J"]


SMALL_TILE = re.compile(
    r'<span class="tile tile-small" data-tile="([^"]+)" role="img" aria-label="[^"]*">'
    r'<span class="tile-face" aria-hidden="true">[^<]*</span></span>'
)


def as_codes(html: str) -> str:
    """``html`` with each small tile written back as its code, so a test can read the
    sentence a player sees as tiles ("R5 was on the table ...")."""
    return SMALL_TILE.sub(r"\1", html)


def tiles_in(html: str) -> set[str]:
    """Every tile notation that appears anywhere in ``html``."""
    return set(TILE.findall(html))


def visible_to(state: GameState, seat: int | None) -> set[str]:
    """The tiles a viewer may see: the table, the River, and their own rack."""
    shown: list[Tile] = [tile for tile_set in state.table for tile in tile_set]
    shown += state.river
    if seat is not None:
        shown += state.racks[seat]
        if seat == state.current_player:
            shown += state.pending_draw
    return {str(tile) for tile in shown}


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """Tiles on other racks (and in the pool) that the viewer cannot see anywhere."""
    others = {str(t) for n, rack in enumerate(state.racks) if n != seat for t in rack}
    others |= {str(t) for t in state.pool}
    return others - visible_to(state, seat)


def mover(game: Game) -> User:
    assert game.current_seat is not None
    return user_at(game, game.current_seat)


def waiter(game: Game) -> User:
    assert game.current_seat is not None
    return user_at(game, 1 - game.current_seat)


def url(name: str, game: Game) -> str:
    """The address of the game view ``name`` (``games:<name>``) for ``game``."""
    return reverse(f"games:{name}", kwargs={"pk": game.pk})


def post(client: Client, name: str, game: Game, **data: object) -> HttpResponse:
    """POST ``data`` to the game view ``name`` as htmx does."""
    response: HttpResponse = client.post(url(name, game), data, **HTMX)
    return response
