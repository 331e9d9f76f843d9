"""Who may see a table, and so its games, replay, chat and websockets: the one answer
every door of games asks (:func:`table_sight` where the page also needs to know how much,
:func:`may_see` or ``user.has_perm("games.view_table", table)``, which
:mod:`games.permissions` registers with this answer).

* A table that is not ``private`` is seen by anyone signed in, as every table was.
* A private table (an app above games marks it: a private club's league fixture) is seen
  by whoever sits or sat at it (a seat, a seat handed to a bot, a result of its games),
  and by whom ``GAMES_SIGHT_POLICY`` lets in (:func:`games.conf.sight_policy`): the
  club's members, the moderators of a case about it. Nobody else: to them it does not
  exist (404).

How much they see: :attr:`Sight.FULL` includes what the table belongs to
(``belongs_to``: the league's name and the club's address); :attr:`Sight.TABLE` is the
table and its games without it (a player who is no member of the club, a site moderator).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from games.conf import hidden_belongs_to, sight_policy
from games.models import Game, Result, Seat, SeatOccupancy, Table


class Sight(IntEnum):
    """How much of a table a member may see; ordered, so the larger of two answers wins."""

    NONE = 0
    TABLE = 1
    FULL = 2


def table_sight(user: Any, table: Table) -> Sight:
    """How much of ``table`` ``user`` (a member or a visitor) may see."""
    if not table.private:
        return Sight.FULL
    if not getattr(user, "is_authenticated", False):
        return Sight.NONE
    sight = Sight.TABLE if sat_at(user, table.pk) else Sight.NONE
    policy = sight_policy()
    if policy is not None:
        sight = max(sight, Sight(policy(user, table)))
    return sight


def sat_at(user: Any, table_id: int) -> bool:
    """``user`` sits or sat at the table: in a seat (or invited to one), in a seat a bot
    took over from them, in a seat of one of its games (a substitute took over since), or
    credited with a result of one of its games."""
    seats = Seat.objects.filter(table_id=table_id)
    if seats.filter(user=user).exists() or seats.filter(replaced_user=user).exists():
        return True
    if SeatOccupancy.objects.filter(game__table_id=table_id, member=user).exists():
        return True
    return Result.objects.filter(game__table_id=table_id, member=user).exists()


def may_see(user: Any, table: Table) -> bool:
    return table_sight(user, table) > Sight.NONE


def belongs_to_shown(table: Table, sight: Sight) -> tuple[str, str]:
    """``(belongs_to, belongs_to_link)`` of ``table`` as a viewer with ``sight`` reads
    them: a private table's are named to full sight only. Never empty when the table's
    is not, so that pages still know the table is part of something (no "Play again")."""
    return shown_belongs_to(table.belongs_to, table.belongs_to_link, table.private, sight)


def shown_belongs_to(belongs_to: str, link: str, private: bool, sight: Sight) -> tuple[str, str]:
    """:func:`belongs_to_shown` from a table's values (a snapshot of a game keeps them)."""
    if not belongs_to or not private or sight >= Sight.FULL:
        return belongs_to, link
    return hidden_belongs_to(), ""


def belongs_to_for(table: Table, viewer: Any) -> tuple[str, str]:
    """``(belongs_to, belongs_to_link)`` of ``table`` for ``viewer`` (``None``: any
    spectator, as a shared render is); the sight is asked only of a private table."""
    if not table.private or not table.belongs_to:
        return table.belongs_to, table.belongs_to_link
    return belongs_to_shown(table, Sight.NONE if viewer is None else table_sight(viewer, table))


def visible_table(user: Any, table_id: int) -> Table | None:
    """The table ``table_id`` if ``user`` may see it; ``None`` when it does not exist or
    they may not (the same answer: a private table's existence is not told)."""
    table = Table.objects.filter(pk=table_id).first()
    return table if table is not None and may_see(user, table) else None


def visible_game(user: Any, game_id: int) -> Game | None:
    """The game ``game_id`` (with its table) if ``user`` may see its table, else ``None``."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    return game if game is not None and may_see(user, game.table) else None
