"""A table's chat: saying something, muting a member, and a moderator hiding a message.

Who reads what is decided when reading (:mod:`games.selectors.chat`); what is decided
here is who may say something and to whom. A player speaks to the table. A member
without a seat speaks to the table too, except while a game is in play: then they speak
to the other spectators only (``audience`` spectators), so that nobody coaches a player
in the middle of a game. The players never read that side talk.

Chat is never a channel for secrets: nothing of a game is ever written into it, only
what a member typed. A member's own text is theirs to say (their own rack included).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from games import signals
from games.conf import chat_burst, chat_per_day
from games.errors import ChatRefused, ChatTooFast, NotFound
from games.models import ChatMessage, ChatMute, Game, Seat, Table
from games.selectors.sight import may_see
from games.services.locking import ensure_may_chat, lock_member
from games.services.page_versions import chat_shown_anew

MAX_LENGTH = 500
"""The longest message, in characters (the column's size)."""


def clean_text(text: str) -> str:
    """The message as it will be kept: control characters dropped, runs of white space
    (line breaks too) made one space, trimmed. Refused with a sentence if nothing is left
    or it is too long.

    >>> clean_text("  good   game\\n\\tall ")
    'good game all'
    """
    printable = "".join(c if c.isprintable() else " " for c in text)
    cleaned = " ".join(printable.split())
    if not cleaned:
        raise ChatRefused("Write something before sending.")
    if len(cleaned) > MAX_LENGTH:
        raise ChatRefused(
            f"A message has at most {MAX_LENGTH} characters; yours has {len(cleaned)}."
        )
    return cleaned


def say(table_id: int, user: User, text: str) -> ChatMessage:
    """Say ``text`` at the table. Raises :class:`ChatRefused` (empty, too long),
    :class:`Barred` (suspended), :class:`ChatTooFast` (past a rate limit), or
    :class:`NotFound`."""
    cleaned = clean_text(text)
    with transaction.atomic():
        try:
            table = Table.objects.get(pk=table_id)
        except Table.DoesNotExist:
            raise NotFound("There is no such table.") from None
        if not may_see(user, table):
            # A private table is not there for those who may not see it.
            raise NotFound("There is no such table.")
        # One member's messages are counted one at a time: two sent at once from two
        # tabs cannot both slip under the limit.
        lock_member(user.pk)
        ensure_may_chat(user, table)
        now = timezone.now()
        _check_rate(user, now)
        game = _game_in_play(table)
        message = ChatMessage.objects.create(
            table=table,
            game=game,
            turn_number=game.turn_number if game is not None else None,
            author=user,
            audience=_audience(table, user, game),
            text=cleaned,
        )
        chat_shown_anew(table.pk)
        _announce(message, user)
    return message


def set_hidden(message_id: int, hidden: bool, by: User) -> ChatMessage:
    """Hide a message from the table (or show it again): for moderation, which keeps the
    message for a case's evidence. ``by`` is who did it (moderation checks that they
    may and logs it; games only carries it out)."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise NotFound("There is no such message.")
        message.hidden_at = timezone.now() if hidden else None
        message.save(update_fields=["hidden_at"])
        chat_shown_anew(message.table_id)
        _announce(message, by)
    return message


def mute(muter: User, muted_id: int) -> ChatMute:
    """``muter`` no longer reads ``muted_id``'s messages, at any table (idempotent)."""
    if muted_id == muter.pk:
        raise ChatRefused("You cannot mute yourself.")
    muted = User.objects.filter(pk=muted_id).first()
    if muted is None:
        raise NotFound("There is no such member.")
    found, _ = ChatMute.objects.get_or_create(muter=muter, muted=muted)
    return found


def unmute(muter: User, muted_id: int) -> None:
    """``muter`` reads ``muted_id``'s messages again (nothing if they were not muted)."""
    ChatMute.objects.filter(muter=muter, muted_id=muted_id).delete()


def _announce(message: ChatMessage, by: User) -> None:
    send_after_commit(
        signals.chat_changed,
        ChatMessage,
        table_id=message.table_id,
        message_id=message.pk,
        user_id=by.pk,
    )


def _check_rate(user: User, now: datetime) -> None:
    count, seconds = chat_burst()
    said = ChatMessage.objects.filter(author=user)
    if said.filter(created_at__gt=now - timedelta(seconds=seconds)).count() >= count:
        raise ChatTooFast(
            f"You are writing faster than the chat allows ({count} messages in "
            f"{seconds:g} seconds): wait a moment, then send it again."
        )
    per_day = chat_per_day()
    if said.filter(created_at__gt=now - timedelta(days=1)).count() >= per_day:
        raise ChatTooFast(
            f"You have written {per_day} messages in the last 24 hours, the most the chat "
            "allows: you can write again tomorrow."
        )


def _game_in_play(table: Table) -> Game | None:
    if table.status != Table.Status.PLAYING:
        return None
    return table.games.filter(status=Game.Status.PLAYING).order_by("-number").first()


def _audience(table: Table, user: User, game: Game | None) -> str:
    is_player = Seat.objects.filter(table=table, user=user, kind=Seat.Kind.PLAYER).exists()
    if is_player or game is None:
        return ChatMessage.Audience.PLAYERS
    return ChatMessage.Audience.SPECTATORS
