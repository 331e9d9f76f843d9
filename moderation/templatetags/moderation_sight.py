"""What a moderation page may say a case's table and club belong to, as its viewer reads it.

A private club's league, season, matchday and name are read only by whoever sees its
table in full (:mod:`games.selectors.sight`): the club's members. A site moderator who
is no member, or a party or moderator who left the club, reads what the game page tells
them ("a private club's fixture"), on the queue, the case, the member record and the
outcome alike; and "a private club" where a page names the club itself (the log, the
evidence's pair history): :func:`leagues.selectors.sight.club_name_shown`, the one
answer for a club's name.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.models import Table
from games.selectors.sight import belongs_to_for
from leagues.models import Club
from leagues.selectors.sight import club_name_shown
from moderation.models import Case, LogEntry
from moderation.selectors import log

register = template.Library()

HIDDEN_CLUB = "a private club"
"""What a viewer who may not read a private club's name reads instead."""


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
    return club_name_shown(case.club, viewer) or belongs_to_for(case.game.table, viewer)[0]


@register.filter
def club_name_read_by(club: Club | None, viewer: Any) -> str:
    """``{{ entry.club|club_name_read_by:user }}``: the club's name (empty if none), or
    "a private club"."""
    if club is None:
        return ""
    return club_name_shown(club, viewer) or HIDDEN_CLUB


@register.filter
def change_lines_read_by(entry: LogEntry, viewer: Any) -> list[str]:
    """``{{ entry|change_lines_read_by:user }}``: what a log entry changed, in sentences
    (:func:`moderation.selectors.log.change_lines`); a suspension's words, written with
    the club's name, say "a private club" to a viewer who may not read it."""
    lines = log.change_lines(entry)
    club = entry.club
    if club is None or club_name_shown(club, viewer) is not None:
        return lines
    return [line.replace(f"the club {club.name}", HIDDEN_CLUB) for line in lines]
