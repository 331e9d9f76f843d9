"""What decides that one of games' notices is still current (the hooks its kinds give the
notifications app, :mod:`games.notices`): a turn's notices while the turn lasts, an
invitation while its seat is kept, a link while the member may see the table."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.contenttypes.models import ContentType

from accounts.models import User
from games import presence
from games.models import Game, Seat, Table
from games.selectors.sight import may_see
from notifications.models import Notification


class GameNotice:
    """The kinds of games' notices (registered in :mod:`games.notices`)."""

    YOUR_TURN = "your_turn"
    TIME_RUNNING_OUT = "time_running_out"
    TABLE_INVITATION = "table_invitation"
    DRAWN_FOR_YOU = "drawn_for_you"


TURN_KINDS = (GameNotice.YOUR_TURN, GameNotice.TIME_RUNNING_OUT)


def turn_key(kind: str, game_id: int, turn_number: int) -> str:
    """The key of a turn's notification: one per member, game, kind and turn."""
    return f"{kind}:game-{game_id}:turn-{turn_number}"


def current_turn_notices(rows: Sequence[Notification]) -> set[int]:
    """A turn's notices ("your turn", "time is running out") matter while that turn
    lasts: of ``rows`` (newest first), those of a game's turn in play, and of a turn's
    two notices only the newer one."""
    turns = _current_turns([row.subject_id for row in rows])
    shown: set[int] = set()
    games_shown: set[int | None] = set()
    for row in rows:
        turn = turns.get(row.subject_id or 0)
        if turn is None or not row.key.endswith(f":turn-{turn}"):
            continue
        if row.subject_id in games_shown:
            continue
        games_shown.add(row.subject_id)
        shown.add(row.pk)
    return shown


def _current_turns(game_ids: list[int | None]) -> dict[int, int]:
    """``{game id: its turn number}`` of the games among ``game_ids`` still in play."""
    ids = [game_id for game_id in game_ids if game_id is not None]
    if not ids:
        return {}
    return dict(Game.objects.active().filter(pk__in=ids).values_list("pk", "turn_number"))


def unseen_tables(user: User, rows: Sequence[Notification]) -> set[int]:
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


def turn_mail_skip(notification: Notification) -> str | None:
    """Why a turn's notice is no longer worth an email: the turn is over, or the player
    has the game's page open (:mod:`games.presence`)."""
    subject = notification.subject
    if not isinstance(subject, Game):
        return None
    current = turn_key(notification.kind, subject.pk, subject.turn_number)
    if subject.is_over or notification.key != current:
        return "turn over"
    if presence.is_watching(subject.pk, notification.user_id):
        return "watching"
    return None


def invitation_mail_skip(notification: Notification) -> str | None:
    """Why an invitation is no longer worth an email: its seat is no longer kept for the
    member (they took it, or it went to someone else)."""
    subject = notification.subject
    if not isinstance(subject, Table):
        return None
    kept = Seat.objects.filter(table=subject, user_id=notification.user_id, kind=Seat.Kind.RESERVED)
    return None if kept.exists() else "invitation over"


def turn_deadline_ends_turn(notification: Notification) -> bool:
    """Whether a turn notice's deadline is the end of the turn, not its round's settling
    first (a league fixture's deadline, before the turn ends)."""
    subject = notification.subject
    settled_first = (
        isinstance(subject, Game)
        and notification.deadline is not None
        and subject.table.settles_at == notification.deadline
    )
    return not settled_first
