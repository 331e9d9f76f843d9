"""Who sees a private club's fixture tables: the leagues' part of ``GAMES_SIGHT_POLICY``
(:mod:`games.selectors.sight` asks it, by name, of every table marked ``private``).

* The club's members see the table and what it belongs to (the league, the club's
  address): :attr:`~games.selectors.sight.Sight.FULL`.
* A player of the fixture (an entry's member or its substitute), still in the club or
  not, sees the table but not the club: :attr:`~games.selectors.sight.Sight.TABLE`.
* Anyone else: nothing, as the club's own pages answer them.

A page that names a club itself (moderation's log and evidence) names a private one to
those who see its tables in full only (:func:`club_name_shown`).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.models import Table
from games.selectors.sight import Sight
from leagues.models import Club, FixtureSeat, Membership


def club_name_shown(club: Club, user: Any) -> str | None:
    """``club``'s name if ``user`` may read it, else ``None``: whoever sees the club
    (``leagues.view_club``: anyone a public club, its members a private one), who are
    those who see its fixture tables in full (:func:`table_sight`)."""
    return club.name if user.has_perm("leagues.view_club", club) else None


def table_sight(user: Any, table: Table) -> Sight:
    """``GAMES_SIGHT_POLICY`` of the leagues: how much of ``table`` ``user`` sees."""
    if not getattr(user, "is_authenticated", False):
        return Sight.NONE
    club_id = (
        Club.objects.filter(leagues__seasons__matchdays__fixtures__table=table)
        .values_list("pk", flat=True)
        .first()
    )
    if club_id is None:
        return Sight.NONE
    if Membership.objects.filter(club_id=club_id, user=user).exists():
        return Sight.FULL
    seats = FixtureSeat.objects.filter(fixture__table=table)
    if seats.filter(Q(entry__user=user) | Q(entry__substitute=user)).exists():
        return Sight.TABLE
    return Sight.NONE
