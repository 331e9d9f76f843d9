"""A table's chat as one member may read it.

* Only who may see the table (:mod:`games.selectors.sight`) reads its chat at all.
* A player of the table reads the table's messages (``audience`` players), never the
  spectators' side talk.
* Anyone else who may see it (a spectator) reads the table's messages and the spectators'.
* Nobody reads a message a moderator hid, or (in the panel) the messages of a member
  they muted.

:func:`may_read_message` asks the same of one message, for the pages that show one
(moderation's report form).

A line carries only what was typed and who typed it: chat shows nothing of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet
from django.urls import NoReverseMatch, reverse

from accounts.models import User
from games.conf import chat_policy
from games.models import ChatMessage, ChatMute, Game, Seat, Table
from games.selectors.sight import may_see

SHOWN = 100
"""The newest messages a panel shows."""

REPORT_URL_NAME = "moderation:file_message"
"""The page where a member reports a message (moderation's, reversed by its name:
games never imports moderation)."""


@dataclass(frozen=True)
class ChatLine:
    """One message as a reader sees it."""

    pk: int
    author_id: int
    author_name: str
    text: str
    said_at: datetime
    is_mine: bool
    to_spectators: bool
    report_url: str | None


@dataclass(frozen=True)
class MutedMember:
    pk: int
    name: str


@dataclass(frozen=True)
class TableChat:
    """The chat panel of a table for one reader."""

    table_id: int
    # The table's chat_version when read (read before the lines: never newer than them).
    version: int
    lines: list[ChatLine]
    muted: list[MutedMember]
    is_player: bool
    # A spectator while a game is in play: what they write goes to spectators only.
    spectators_apart: bool
    # Why the reader may not write here (a suspension), or None: they still read.
    refusal: str | None


def table_chat(table: Table, user: User) -> TableChat:
    """The chat of ``table`` as ``user`` (a signed-in member who may see it) may read it."""
    is_player = _is_player(table.pk, user)
    muted = list(
        ChatMute.objects.filter(muter=user)
        .select_related("muted")
        .order_by("muted__username")
        .values_list("muted_id", "muted__display_name", "muted__username")
    )
    readable = _readable(table.pk, is_player).exclude(author_id__in=[pk for pk, _, _ in muted])
    newest = list(readable.select_related("author").order_by("-created_at", "-pk")[:SHOWN])
    live = (
        table.status == Table.Status.PLAYING
        and table.games.filter(status=Game.Status.PLAYING).exists()
    )
    return TableChat(
        table_id=table.pk,
        version=table.chat_version,
        lines=[_line(message, user) for message in reversed(newest)],
        muted=[MutedMember(pk, display or username) for pk, display, username in muted],
        is_player=is_player,
        spectators_apart=live and not is_player,
        refusal=_refusal(user, table),
    )


def _is_player(table_id: int, user: User) -> bool:
    return Seat.objects.filter(table_id=table_id, user=user, kind=Seat.Kind.PLAYER).exists()


def _readable(table_id: int, is_player: bool) -> QuerySet[ChatMessage]:
    """The messages of the table a reader who may see it reads: none a moderator hid,
    and only the table's (not the spectators' side) for a player."""
    readable = ChatMessage.objects.filter(table_id=table_id, hidden_at__isnull=True)
    if is_player:
        readable = readable.filter(audience=ChatMessage.Audience.PLAYERS)
    return readable


def may_read_message(user: User, message: ChatMessage) -> bool:
    """``user`` could read ``message`` at its table: they may see the table, a
    moderator has not hidden it, and it is not the spectators' side talk to someone who
    plays at the table. Muting a member does not count: a muted member's message may
    still be reported."""
    if message.hidden_at is not None or not may_see(user, message.table):
        return False
    readable = _readable(message.table_id, _is_player(message.table_id, user))
    return readable.filter(pk=message.pk).exists()


def _refusal(user: User, table: Table) -> str | None:
    policy = chat_policy()
    return policy(user, table) if policy is not None else None


def _line(message: ChatMessage, reader: User) -> ChatLine:
    mine = message.author_id == reader.pk
    return ChatLine(
        pk=message.pk,
        author_id=message.author_id,
        author_name=str(message.author),
        text=message.text,
        said_at=message.created_at,
        is_mine=mine,
        to_spectators=message.audience == ChatMessage.Audience.SPECTATORS,
        report_url=None if mine else report_url(message.pk),
    )


def report_url(message_id: int) -> str | None:
    """Where to report a message; ``None`` on a site without moderation's pages."""
    try:
        # Positional: the address names its argument as moderation likes.
        return reverse(REPORT_URL_NAME, args=[message_id])
    except NoReverseMatch:
        return None
