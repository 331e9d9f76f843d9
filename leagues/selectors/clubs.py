"""What the club pages read: the list of clubs, a club's page, its members' page.

Rows reach the templates as plain values (no query runs while a page renders). Who may
see a club is :mod:`leagues.permissions`' question; these functions are called once the view
has asked it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.core.paginator import Page, Paginator
from django.db import models
from django.db.models import Count, Exists, OuterRef, Q, Subquery

from leagues.errors import NotFound
from leagues.models import Club, ClubInvitation, JoinRequest, League, Membership, Pending, Role
from leagues.permissions import MODERATING, ORGANISING, RANK, role_in, staff_suspension

R = TypeVar("R")
CLUBS_PER_PAGE = 24
MEMBERS_ON_CLUB_PAGE = 48
MEMBERS_PER_PAGE = 100
PENDING_SHOWN = 100
QUERY_LENGTH = 80


@dataclass(frozen=True)
class ClubRow:
    """A club in the list."""

    slug: str
    name: str
    description: str
    is_private: bool
    members: int
    role: str
    """The viewer's role's label, or "" if they are not a member."""
    asked: bool
    """The viewer's request to join waits for an answer."""
    invited: bool


@dataclass(frozen=True)
class MemberRow:
    user_id: int
    name: str
    username: str
    role: str
    role_label: str
    joined_at: datetime


@dataclass(frozen=True)
class AdmissionRow:
    """A pending invitation (``by``: who invited) or request to join (``message``)."""

    id: int
    user_id: int
    name: str
    username: str
    created_at: datetime
    by: str = ""
    message: str = ""


@dataclass(frozen=True)
class LeagueRow:
    name: str
    slug: str
    description: str


@dataclass(frozen=True)
class Viewer:
    """What the viewer is to a club, and so what its pages offer them."""

    role: str | None
    invitation: AdmissionRow | None
    join_request: AdmissionRow | None
    suspended: str = ""
    """The sentence of a suspension that takes the viewer's staff powers away for now:
    the pages offer them no organiser's tool and say why instead."""

    @property
    def is_member(self) -> bool:
        return self.role is not None

    @property
    def organises(self) -> bool:
        return self.role in ORGANISING and not self.suspended

    @property
    def owns(self) -> bool:
        return self.role == Role.OWNER and not self.suspended

    @property
    def role_label(self) -> str:
        return Role(self.role).label if self.role else ""


@dataclass(frozen=True)
class ClubPage:
    club: Club
    viewer: Viewer
    members: list[MemberRow]
    member_count: int
    leagues: list[LeagueRow]
    invitations: list[AdmissionRow]
    requests: list[AdmissionRow]
    """Pending ones, for organisers only (empty for anyone else)."""


# --- the list --------------------------------------------------------------------------


def club_list(user: Any, query: str = "", page: str | None = None) -> Page[ClubRow]:
    """Public clubs and the viewer's own (private ones included), by name; ``query``
    narrows them to names containing it. One page of :data:`CLUBS_PER_PAGE`."""
    mine = Membership.objects.filter(club=OuterRef("pk"), user_id=user.pk or 0)
    clubs = Club.objects.annotate(
        members=Count("memberships"),
        role=Subquery(mine.values("role")[:1]),
        asked=Exists(_pending_of(JoinRequest, user)),
        invited=Exists(_pending_of(ClubInvitation, user)),
    ).filter(Q(is_private=False) | Exists(mine))
    query = " ".join(query.split())[:QUERY_LENGTH]
    if query:
        clubs = clubs.filter(name__icontains=query)
    return _rows(Paginator(clubs.order_by("name", "pk"), CLUBS_PER_PAGE).get_page(page), _club_row)


def _rows(listed: Page[Any], row: Callable[[Any], R]) -> Page[R]:
    """The page with its rows as plain values (the paginator counted the query's)."""
    listed.object_list = [row(found) for found in listed.object_list]
    rows: Page[R] = listed
    return rows


def _pending_of(kind: type[ClubInvitation | JoinRequest], user: Any) -> models.QuerySet[Any]:
    return kind.objects.filter(club=OuterRef("pk"), user_id=user.pk or 0, status=Pending.PENDING)


def _club_row(club: Any) -> ClubRow:
    return ClubRow(
        slug=club.slug,
        name=club.name,
        description=club.description,
        is_private=club.is_private,
        members=club.members,
        role=Role(club.role).label if club.role else "",
        asked=club.asked,
        invited=club.invited,
    )


# --- a club ----------------------------------------------------------------------------


def viewer_of(club: Club, user: Any) -> Viewer:
    role = role_in(user, club)
    if not getattr(user, "is_authenticated", False):
        return Viewer(role=None, invitation=None, join_request=None)
    invitation = _invitations(club).filter(user=user).first() if role is None else None
    join_request = _requests(club).filter(user=user).first() if role is None else None
    return Viewer(
        role=role,
        invitation=_invitation_row(invitation) if invitation else None,
        join_request=_request_row(join_request) if join_request else None,
        suspended=(staff_suspension(user, club) or "") if role in MODERATING else "",
    )


def club_page(club: Club, user: Any) -> ClubPage:
    """The club's page: about it, its leagues, its first members; organisers also see
    the invitations and requests waiting."""
    viewer = viewer_of(club, user)
    members = members_of(club)
    return ClubPage(
        club=club,
        viewer=viewer,
        members=[_member_row(m) for m in members[:MEMBERS_ON_CLUB_PAGE]],
        member_count=members.count(),
        leagues=[
            LeagueRow(league.name, league.slug, league.description)
            for league in League.objects.filter(club=club).order_by("name")
        ],
        invitations=pending_invitations(club) if viewer.organises else [],
        requests=pending_requests(club) if viewer.organises else [],
    )


def members_page(club: Club, page: str | None = None) -> Page[MemberRow]:
    return _rows(Paginator(members_of(club), MEMBERS_PER_PAGE).get_page(page), _member_row)


def members_of(club: Club) -> models.QuerySet[Membership]:
    """The club's members, the owner first, then by role and name."""
    rank = models.Case(
        *(models.When(role=role, then=-rank) for role, rank in RANK.items()),
        output_field=models.IntegerField(),
    )
    return (
        Membership.objects.filter(club=club)
        .select_related("user")
        .annotate(rank=rank)
        .order_by("rank", "user__username")
    )


def pending_invitations(club: Club) -> list[AdmissionRow]:
    return [_invitation_row(i) for i in _invitations(club)[:PENDING_SHOWN]]


def pending_requests(club: Club) -> list[AdmissionRow]:
    return [_request_row(r) for r in _requests(club)[:PENDING_SHOWN]]


def _invitations(club: Club) -> models.QuerySet[ClubInvitation]:
    return (
        ClubInvitation.objects.filter(club=club, status=Pending.PENDING)
        .select_related("user", "invited_by")
        .order_by("created_at", "pk")
    )


def _requests(club: Club) -> models.QuerySet[JoinRequest]:
    return (
        JoinRequest.objects.filter(club=club, status=Pending.PENDING)
        .select_related("user")
        .order_by("created_at", "pk")
    )


def _member_row(membership: Membership) -> MemberRow:
    return MemberRow(
        user_id=membership.user_id,
        name=str(membership.user),
        username=membership.user.username,
        role=membership.role,
        role_label=membership.get_role_display(),
        joined_at=membership.joined_at,
    )


def _invitation_row(invitation: ClubInvitation) -> AdmissionRow:
    return _admission_row(invitation, by=str(invitation.invited_by))


def _request_row(join_request: JoinRequest) -> AdmissionRow:
    return _admission_row(join_request, message=join_request.message)


def _admission_row(
    admission: ClubInvitation | JoinRequest, by: str = "", message: str = ""
) -> AdmissionRow:
    return AdmissionRow(
        id=admission.pk,
        user_id=admission.user_id,
        name=str(admission.user),
        username=admission.user.username,
        created_at=admission.created_at,
        by=by,
        message=message,
    )


def club_of_link(slug: str, code: str, clubs: models.QuerySet[Club] | None = None) -> Club:
    """The club whose invitation link is ``/clubs/<slug>/join/<code>/``, from ``clubs``
    (all, unlocked, by default); :class:`NotFound` if the link does not work."""
    club = (Club.objects.all() if clubs is None else clubs).filter(slug=slug).first()
    # The same answer for a wrong code and a missing club: a link reveals no club.
    if club is None or not secrets.compare_digest(club.invite_code, code):
        raise NotFound(
            "This invitation link does not work: the club may have renewed it. "
            "Ask an organiser for the new one."
        )
    return club
