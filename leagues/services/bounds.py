"""What one club, and one member, may have or do: the caps and rate limits of clubs and
leagues. The numbers are settings (``LEAGUES_*`` in ``config/settings.py``) and the forms
show them in their help.

Each check runs inside its service's transaction, once the club's row is locked, and
counts rows rather than requests: two requests for the same club are counted one after
the other, a refused request counts for nothing, and nobody uses up another member's or
club's allowance by asking for it. A cap reached (leagues, open seasons, requests
waiting) is a :class:`Conflict`; a rate (in an hour, once a day) is :class:`TooMany`,
answered 429 as the site's other rate limits are.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from accounts.models import User
from common import moments
from leagues.errors import Conflict, TooMany
from leagues.models import Club, ClubInvitation, JoinRequest, League, Pending, Season

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def leagues_per_club() -> int:
    """``LEAGUES_PER_CLUB``: leagues a club may have (20)."""
    return int(getattr(settings, "LEAGUES_PER_CLUB", 20))


def open_seasons_per_club() -> int:
    """``LEAGUES_OPEN_SEASONS_PER_CLUB``: seasons not finished a club may have at once (10)."""
    return int(getattr(settings, "LEAGUES_OPEN_SEASONS_PER_CLUB", 10))


def join_requests_per_hour() -> int:
    """``LEAGUES_JOIN_REQUESTS_PER_HOUR``: clubs a member may ask to join in an hour (5)."""
    return int(getattr(settings, "LEAGUES_JOIN_REQUESTS_PER_HOUR", 5))


def pending_requests_per_club() -> int:
    """``LEAGUES_PENDING_REQUESTS_PER_CLUB``: requests to join waiting in a club at once (50)."""
    return int(getattr(settings, "LEAGUES_PENDING_REQUESTS_PER_CLUB", 50))


def invitations_per_club_per_hour() -> int:
    """``LEAGUES_INVITATIONS_PER_CLUB_PER_HOUR``: invitations a club may send in an hour (30)."""
    return int(getattr(settings, "LEAGUES_INVITATIONS_PER_CLUB_PER_HOUR", 30))


def counted(number: int, thing: str) -> str:
    """``"1 league"``, ``"20 leagues"``."""
    return f"{number} {thing}{'s' * (number != 1)}"


def check_new_league(club: Club) -> None:
    """Refuse a league past the club's cap (``club`` locked by the caller)."""
    most = leagues_per_club()
    if League.objects.filter(club=club).count() >= most:
        raise Conflict(
            f"A club has at most {counted(most, 'league')}, and this one has them all: "
            "play a new competition as a new season of a league you have."
        )


def check_new_season(club: Club) -> None:
    """Refuse a season past the club's cap of seasons not finished (``club`` locked)."""
    most = open_seasons_per_club()
    unfinished = Season.objects.filter(league__club=club).exclude(status=Season.Status.FINISHED)
    if unfinished.count() >= most:
        raise Conflict(
            f"A club runs at most {counted(most, 'season')} at a time, and this one has {most} "
            "not finished: finish one before opening another."
        )


def check_join_request(club: Club, user: User, now: datetime) -> None:
    """Refuse ``user``'s request to join ``club`` (locked) past a limit: one request per
    club a day, whatever became of the last one (withdrawn, declined), a few clubs an
    hour, and a bounded queue for the club's organisers."""
    mine = JoinRequest.objects.filter(user=user)
    last = mine.filter(club=club, created_at__gt=now - DAY).order_by("-created_at").first()
    if last is not None:
        raise TooMany(
            "You asked to join this club less than a day ago: "
            f"you may ask again from {moments.when(last.created_at + DAY)}."
        )
    most = join_requests_per_hour()
    if mine.filter(created_at__gt=now - HOUR).count() >= most:
        raise TooMany(
            f"You have asked to join {counted(most, 'club')} in the last hour, the most a "
            "member may: ask again later."
        )
    waiting = JoinRequest.objects.filter(club=club, status=Pending.PENDING).count()
    if waiting >= pending_requests_per_club():
        raise Conflict(
            "This club has more requests to join waiting than its organisers can answer "
            "for now: ask again in a few days."
        )


def check_invitation(club: Club, now: datetime) -> None:
    """Refuse an invitation past the club's hourly limit (``club`` locked)."""
    most = invitations_per_club_per_hour()
    if ClubInvitation.objects.filter(club=club, created_at__gt=now - HOUR).count() >= most:
        raise TooMany(
            f"A club sends at most {counted(most, 'invitation')} an hour, and this one has: "
            "invite more later."
        )


def invited_within_a_day(club: Club, user: User, now: datetime) -> bool:
    """Whether ``club`` invited ``user`` in the last day (whatever became of it): a new
    invitation then tells them in the app only, so withdrawing and inviting again sends
    no second e-mail."""
    recent = ClubInvitation.objects.filter(club=club, user=user, created_at__gt=now - DAY)
    return recent.exists()
