"""Your move: every game where it is the member's turn, the soonest deadline first.

The page lists :func:`your_move_page` (:data:`PER_PAGE` games a page); the header shows
how many there are and the one to turn to next (:func:`your_move_counts`, through
:mod:`games.notices`); the page's "next game" is :func:`next_your_move`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Window

from accounts.models import User
from games.models import SOONEST_DUE, Game
from games.selectors.rows import GameRow, game_rows

PER_PAGE = 50
"""Games a page of "your move" lists: a member awaited in 500 games read 415 KB and
waited 0.3-0.4 s for one unbounded list."""


@dataclass(frozen=True)
class YourMove:
    """What a member's header shows of the games awaiting them: how many, and the first
    of them (``None`` when there is none)."""

    count: int
    next_game_id: int | None


def your_move_counts(user_ids: Collection[int]) -> dict[int, YourMove]:
    """:class:`YourMove` of each member of ``user_ids``, in one query.

    Each member's count and first game come from one row: the window counts the rows of
    the member's partition before ``DISTINCT ON`` keeps its first, so no list of ids is
    read (a member with forty correspondence games reads one row, not forty).
    """
    member = "table__seats__user_id"
    firsts = (
        Game.objects.active()
        .awaiting_any(user_ids)
        .annotate(waiting=Window(Count("pk"), partition_by=F(member)))
        .order_by(member, *SOONEST_DUE)
        .distinct(member)
        .values_list(member, "pk", "waiting")
    )
    found = {user_id: YourMove(waiting, pk) for user_id, pk, waiting in firsts}
    return {user_id: found.get(user_id, YourMove(0, None)) for user_id in user_ids}


def your_move_games(user: User, limit: int | None = None) -> list[GameRow]:
    """Games where it is ``user``'s turn, the soonest deadline first."""
    return game_rows(Game.objects.your_move(user), user, limit)


def your_move_page(user: User, number: int | str | None = None) -> Page[GameRow]:
    """Page ``number`` (from 1; anything else: the first, or the last past the end) of
    :func:`your_move_games`: counted with ``COUNT``, then only that page's rows read."""
    games = Game.objects.your_move(user)
    found: Page[Any] = Paginator(games, PER_PAGE).get_page(number)
    offset = max(found.start_index() - 1, 0)
    found.object_list = game_rows(games, user, PER_PAGE, offset)
    page: Page[GameRow] = found
    return page


def your_move_ids(user: User) -> list[int]:
    """The ids of the games awaiting ``user``'s move, in the list's order."""
    return list(Game.objects.your_move(user).values_list("pk", flat=True))


def next_your_move(
    user: User, current_game_id: int | None = None, ids: list[int] | None = None
) -> int | None:
    """The game to turn to next: the one after ``current_game_id`` in the list (round
    to the first), or the first if that game is not in it; ``None`` when no other game
    awaits the member. ``ids``: :func:`your_move_ids`, if already read."""
    ids = your_move_ids(user) if ids is None else ids
    if current_game_id in ids:
        at = ids.index(current_game_id)
        ids = ids[at + 1 :] + ids[:at]
    return ids[0] if ids else None
