"""Fixtures for the engine tests: tiles and tables written as short text."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.tiles import Tile, parse_tiles

TilesFromText = Callable[[str], tuple[Tile, ...]]
TableFromText = Callable[[str], list[tuple[Tile, ...]]]


def _tiles(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text.split())


@pytest.fixture
def tiles() -> TilesFromText:
    """``tiles("R5 J R7")``: tiles written with spaces between them."""
    return _tiles


@pytest.fixture
def table() -> TableFromText:
    """``table("R5 R6 R7 | K1 K2 K3")``: sets separated by ``|``; ``""`` is an empty table."""

    def parse(text: str) -> list[tuple[Tile, ...]]:
        return [_tiles(part) for part in text.split("|")] if text.strip() else []

    return parse
