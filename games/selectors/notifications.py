"""A member's notifications as their pages read them: the list, the unread count of the
header, and their email preferences (written by :mod:`games.services.notifications`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.contenttypes.models import ContentType

from accounts.models import User
from games.models import (
    Delivery,
    Game,
    Notification,
    NotificationKind,
    NotificationPreference,
    Table,
)
from games.permissions import may_see

LIST_LIMIT = 50
TURN_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.TIME_RUNNING_OUT)

DEFAULT_DELIVERY: dict[str, str] = {
    NotificationKind.YOUR_TURN: Delivery.IMMEDIATE,
    NotificationKind.TIME_RUNNING_OUT: Delivery.IMMEDIATE,
    NotificationKind.TABLE_INVITATION: Delivery.IMMEDIATE,
    NotificationKind.CLUB_INVITATION: Delivery.IMMEDIATE,
    NotificationKind.CLUB_NEWS: Delivery.DIGEST,
    NotificationKind.LEAGUE_MATCHDAY: Delivery.IMMEDIATE,
    NotificationKind.LEAGUE_SEASON: Delivery.DIGEST,
    NotificationKind.MODERATION_CASE: Delivery.IMMEDIATE,
    NotificationKind.MODERATION_OUTCOME: Delivery.IMMEDIATE,
    NotificationKind.MODERATION_QUEUE: Delivery.IMMEDIATE,
}


def preferences(user: User) -> dict[str, str]:
    """``{kind: delivery}`` for every kind, defaults filled in."""
    chosen = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind: chosen.get(kind, DEFAULT_DELIVERY[kind]) for kind in NotificationKind.values}


def delivery_for(user_id: int, kind: str) -> str:
    chosen = (
        NotificationPreference.objects.filter(user_id=user_id, kind=kind)
        .values_list("delivery", flat=True)
        .first()
    )
    return chosen or DEFAULT_DELIVERY[kind]


@dataclass(frozen=True)
class NotificationItem:
    """A notification in the member's list (plain values: no model reaches a page).
    ``text`` is plain text: templates escape it."""

    id: int
    kind: str
    kind_label: str
    text: str
    url: str
    deadline: datetime | None
    created_at: datetime
    read: bool
    # Why its email could not be sent ("" unless it failed).
    email_error: str = ""


def unread_count(user: User) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


def notification_list(user: User, limit: int = LIST_LIMIT) -> list[NotificationItem]:
    """The member's notifications, newest first.

    A turn's notices ("your turn", "time is running out") matter while that turn lasts:
    once it has passed they are left out, and of a turn's two notices only the newer
    one is shown.
    """
    rows = list(Notification.objects.filter(user=user)[: limit * 2])
    unseen = _unseen_tables(user, rows)
    turns = _current_turns([row.subject_id for row in rows if row.kind in TURN_KINDS])
    shown: list[NotificationItem] = []
    games_shown: set[int | None] = set()
    for row in rows:
        if row.kind in TURN_KINDS:
            turn = turns.get(row.subject_id or 0)
            if turn is None or not row.key.endswith(f":turn-{turn}"):
                continue
            if row.subject_id in games_shown:
                continue
            games_shown.add(row.subject_id)
        shown.append(_item(row, link=row.pk not in unseen))
    return shown[:limit]


def _unseen_tables(user: User, rows: list[Notification]) -> set[int]:
    """The rows about a table (or its game) that ``user`` may no longer see (a private
    club they left): their link would lead to a 404, so none is made."""
    kinds = ContentType.objects.get_for_models(Table, Game)
    table_type, game_type = kinds[Table].pk, kinds[Game].pk
    tables = {r.pk: r.subject_id for r in rows if r.subject_type_id == table_type}
    games = {r.pk: r.subject_id for r in rows if r.subject_type_id == game_type}
    if games:
        table_of_game = dict(
            Game.objects.filter(pk__in=games.values()).values_list("pk", "table_id")
        )
        tables |= {pk: table_of_game.get(game_id or 0) for pk, game_id in games.items()}
    private = Table.objects.filter(pk__in=set(tables.values()) - {None}, private=True)
    hidden = {table.pk for table in private if not may_see(user, table)}
    return {pk for pk, table_id in tables.items() if table_id in hidden}


def _current_turns(game_ids: list[int | None]) -> dict[int, int]:
    """``{game id: its turn number}`` of the games among ``game_ids`` still in play."""
    ids = [game_id for game_id in game_ids if game_id is not None]
    if not ids:
        return {}
    return dict(Game.objects.active().filter(pk__in=ids).values_list("pk", "turn_number"))


def _item(row: Notification, link: bool = True) -> NotificationItem:
    return NotificationItem(
        id=row.pk,
        kind=row.kind,
        kind_label=row.kind_label,
        text=row.text,
        url=row.link if link else "",
        deadline=row.deadline,
        created_at=row.created_at,
        read=row.read_at is not None,
        email_error=row.email_error if row.email == Notification.Email.FAILED else "",
    )
