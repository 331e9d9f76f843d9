"""What a moderation page may say a case's table belongs to, as its viewer reads it.

A private club's league, season, matchday and name are read only by whoever sees its
table in full (:mod:`games.selectors.sight`): the club's members. A site moderator who
is no member, or a party who left the club, reads what the game page tells them ("a
private club's fixture"), on the queue, the case, the member record and the outcome alike.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Table
from games.selectors.sight import Sight, belongs_to_for, table_sight
from moderation.models import Case

register = template.Library()


@register.filter
def belongs_to_read_by(table: Table, viewer: Any) -> str:
    """``{{ case.game.table|belongs_to_read_by:user }}``: the league, season and matchday,
    or the words that stand for them."""
    return belongs_to_for(table, viewer)[0]


@register.filter
def club_read_by(case: Case, viewer: Any) -> str:
    """``{{ case|club_read_by:user }}``: the name of the case's club (empty if none), or
    the words that stand for what its table belongs to."""
    if case.club is None:
        return ""
    table = case.game.table
    if table_sight(viewer, table) >= Sight.FULL:
        return case.club.name
    return belongs_to_for(table, viewer)[0]
