"""Pushing "this game changed" to the browsers watching it (Channels groups).

One group per game, ``game-<id>``. A group message never carries game content: only
``{"type": "game.changed", "version": V}`` (with ``"page"``, the random id of the
page a move was made from, when one was), ``{"type": "game.building", "seat": n}``
(with ``"page"`` likewise) or
``{"type": "game.clock"}`` (the turn's deadline moved: a vacation began or ended, a bot
took a seat). Each consumer renders what its own user may see (:mod:`games.consumers`),
so nothing secret ever travels through Redis.

One group per table's chat, ``table-chat-<id>``, joined by the game pages of the table
and by its table page: its only message is ``{"type": "chat.changed"}``; each connection
then renders the chat its own user may read (mutes, the spectators' side talk).

A turn that passes tells the headers of the members whose "your move" count it changed
(the mover, the member now to move) through their own groups, with the count itself
(:func:`publish_counts`: their own count, nothing of anyone else). Every message goes out
through this process's :class:`common.publish.Publisher`.

The receivers of the facts of play (:mod:`games.receivers`) call these functions after
commit: a push announces a state that is already committed, so a consumer that reloads
the game finds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from common.publish import send_all, user_group
from games.selectors.your_move import your_move_counts


def game_group(game_id: int) -> str:
    """The Channels group of a game's watchers."""
    return f"game-{game_id}"


def publish_changed(game_id: int, version: int, page: str = "") -> None:
    """Tell the game's watchers that it is now at ``version``; ``page``: the page the
    move was made from (:func:`page_id`), whose own answer showed it."""
    message: dict[str, object] = {"type": "game.changed", "version": version}
    if page:
        message["page"] = page
    _send(game_id, message)


PAGE_ID = re.compile(r"[0-9A-Za-z-]{8,64}")


def page_id(said: str | None) -> str:
    """The id a game page gave itself when it loaded (random, sent as ``X-Game-Page``
    with its requests and as ``page`` when its socket connects), or empty when what was
    said is no such id: it only ever names a page, never a person.

    >>> page_id("3f2a9c0d41b7e655"), page_id("<script>"), page_id(None)
    ('3f2a9c0d41b7e655', '', '')
    """
    return said if said is not None and PAGE_ID.fullmatch(said) else ""


def publish_building(game_id: int, seat: int, page: str = "") -> None:
    """Tell the game's watchers that ``seat`` is working on a move (no content); ``page``:
    the page the edit was made on (:func:`page_id`), whose own answer showed it."""
    message: dict[str, object] = {"type": "game.building", "seat": seat}
    if page:
        message["page"] = page
    _send(game_id, message)


def publish_clock(game_id: int) -> None:
    """Tell the game's watchers that its clock changed without a move."""
    _send(game_id, {"type": "game.clock"})


def chat_group(table_id: int) -> str:
    """The Channels group of the pages showing a table's chat."""
    return f"table-chat-{table_id}"


def publish_chat(table_id: int) -> None:
    """Tell the pages showing a table's chat that it changed (no content)."""
    send_all([(chat_group(table_id), {"type": "chat.changed"})])


def publish_counts(user_ids: Iterable[int | None]) -> None:
    """Tell each of these members how many games await their move now, and the first
    (``{"type": "your_move.changed", "count": n, "next": id}`` to ``user-<id>``): their
    header shows it as it comes, with no query. Only the members whose count a fact
    changed are told (the mover and the member now to move, not the whole table); a
    member's own count is no secret to them."""
    members = sorted({user_id for user_id in user_ids if user_id is not None})
    if not members:
        return
    send_all(
        [
            (user_group(user_id), your_move_message(waiting.count, waiting.next_game_id))
            for user_id, waiting in your_move_counts(members).items()
        ]
    )


def your_move_message(count: int, next_game_id: int | None) -> dict[str, object]:
    """The message that carries a member's "your move" count to their pages."""
    return {"type": "your_move.changed", "count": count, "next": next_game_id}


def _send(game_id: int, message: dict[str, object]) -> None:
    send_all([(game_group(game_id), message)])
