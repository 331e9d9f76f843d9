"""Who may do what in a club: predicates of the ``rules`` library, and the permissions
made of them (``user.has_perm("leagues.manage_club", club)``).

The staff's predicates (organiser, moderator, owner) also ask whether a suspension takes
their powers away for now (:func:`may_act_as_staff`, ``LEAGUES_STAFF_POLICY``). A door
that refuses a staff action says why with :func:`why_not_staff` (or raises it with
:func:`ensure_staff`): the role's refusal to one without the role, the suspension's own
sentence (its end, in the reader's zone) to one whose suspension takes the role's powers
away, so no door answers a suspended organiser as if they were none.

Every predicate takes a member and an object that belongs to one club: the club itself,
or a league, season, division, matchday, fixture or entry of it (:func:`club_of`), so
league pages ask the same question of their own rows. Roles nest: an owner may do all an
organiser may, an organiser all a moderator may, a moderator all a member may.

Visitors (anonymous users) are no member of anything; a public club is seen by anyone,
a private one by its members only.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from rules.permissions import add_perm
from rules.predicates import Predicate

from leagues.conf import staff_refusal
from leagues.errors import ORGANISERS_ONLY, NotAllowed
from leagues.models import Club, Membership, Role

RANK = {Role.OWNER: 4, Role.ORGANISER: 3, Role.MODERATOR: 2, Role.MEMBER: 1}
"""The roles from the most to the least entitled."""

ORGANISING = frozenset({Role.OWNER, Role.ORGANISER})
MODERATING = ORGANISING | {Role.MODERATOR}


def club_of(obj: Any) -> Club | None:
    """The club ``obj`` belongs to: a club, or any row that leads to one through its
    ``club``, ``league``, ``season``, ``division``, ``matchday`` or ``fixture``."""
    for _ in range(6):  # a fixture seat -> fixture -> matchday -> season -> league -> club
        if obj is None or isinstance(obj, Club):
            return obj
        parent = next(
            (
                name
                for name in ("club", "league", "season", "division", "matchday", "fixture")
                if hasattr(obj, name)
            ),
            None,
        )
        if parent is None:
            return None
        obj = getattr(obj, parent)
    return None


def role_in(user: Any, obj: Any) -> str | None:
    """``user``'s role in the club of ``obj``, or ``None`` for a non-member or a visitor."""
    club = club_of(obj)
    if club is None or club.pk is None or not getattr(user, "is_authenticated", False):
        return None
    role: str | None = (
        Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    )
    return role


def _bound(fn: Callable[..., bool]) -> Predicate:
    """A predicate that sees itself, so that it can keep what it read in its context."""
    return Predicate(fn, bind=True)


def _role(predicate: Any, user: Any, obj: Any) -> str | None:
    # Within one has_perm (a combination of predicates) the role is read once.
    context = predicate.context
    if context is None:
        return role_in(user, obj)
    key = ("role", getattr(user, "pk", None), id(obj))
    if key not in context:
        context[key] = role_in(user, obj)
    role: str | None = context[key]
    return role


@_bound
def is_club_member(self: Any, user: Any, obj: Any) -> bool:
    return _role(self, user, obj) is not None


def staff_suspension(user: Any, obj: Any) -> str | None:
    """The sentence of the suspension (``LEAGUES_STAFF_POLICY``) that takes ``user``'s
    staff powers in the club of ``obj`` away now, or ``None``."""
    club = club_of(obj)
    if club is None or club.pk is None:
        return None
    return staff_refusal(user, club.pk)


def may_act_as_staff(user: Any, obj: Any) -> bool:
    """Whether ``user``'s staff powers in the club of ``obj`` hold now: no suspension
    (``LEAGUES_STAFF_POLICY``) takes them away. Every staff door asks it after the role."""
    return club_of(obj) is not None and staff_suspension(user, obj) is None


def why_not_staff(
    user: Any, obj: Any, roles: Collection[str] = ORGANISING, refusal: str = ORGANISERS_ONLY
) -> str | None:
    """``None`` if ``user`` may use the powers of ``roles`` in the club of ``obj`` now;
    else why not: ``refusal`` when their role is none of ``roles``, the suspension's
    sentence when a suspension takes the role's powers away. Every door of clubs and
    leagues that refuses a staff action answers with it, so that a suspended organiser
    is told of the suspension, and when it ends, wherever they try."""
    if role_in(user, obj) not in roles:
        return refusal
    return staff_suspension(user, obj)


def ensure_staff(
    user: Any, obj: Any, roles: Collection[str] = ORGANISING, refusal: str = ORGANISERS_ONLY
) -> None:
    """:class:`~leagues.errors.NotAllowed` (403) with :func:`why_not_staff`'s sentence,
    unless ``user`` may use the powers of ``roles`` in the club of ``obj`` now."""
    why = why_not_staff(user, obj, roles, refusal)
    if why is not None:
        raise NotAllowed(why)


@_bound
def is_club_moderator(self: Any, user: Any, obj: Any) -> bool:
    return _role(self, user, obj) in MODERATING and may_act_as_staff(user, obj)


@_bound
def is_club_organiser(self: Any, user: Any, obj: Any) -> bool:
    """The owner or an organiser: they run the club's leagues and members."""
    return _role(self, user, obj) in ORGANISING and may_act_as_staff(user, obj)


@_bound
def is_club_owner(self: Any, user: Any, obj: Any) -> bool:
    return _role(self, user, obj) == Role.OWNER and may_act_as_staff(user, obj)


@Predicate
def is_public_club(user: Any, obj: Any) -> bool:
    club = club_of(obj)
    return club is not None and not club.is_private


can_view_club = is_public_club | is_club_member

PERMISSIONS = {
    "leagues.view_club": can_view_club,
    "leagues.manage_club": is_club_organiser,
    "leagues.manage_members": is_club_organiser,
    "leagues.change_roles": is_club_owner,
}
# rules does not annotate add_perm.
for _name, _predicate in PERMISSIONS.items():
    add_perm(_name, _predicate)  # type: ignore[no-untyped-call]
