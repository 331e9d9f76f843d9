"""Fixtures shared by the leagues tests: seasons under way, built straight from the
models (a club, a league, a running season with one division and an open matchday
whose fixtures' tables have started), and clubs with a member of each role:

``club`` is alice's public club: olga organises it, mo moderates it, mia is a member.
``stranger`` is in no club; ``rival`` is a member (the owner) of another club.

For withdrawals, vacations and the calendar: ``league_club`` is a club that alice owns,
with bob, carol and dave as members; a ``make_season`` of it is under way with its one
division, and ``open_fixture`` / ``scheduled_fixture`` give a matchday's fixture with a
table playing (created the way opening a matchday creates it) or one still to open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan, create_table
from leagues.models import (
    Club,
    Division,
    Entry,
    Fixture,
    FixtureSeat,
    League,
    Matchday,
    Membership,
    OnDeadline,
    OnWithdrawal,
    Role,
    Season,
)
from leagues.services import clubs
from tests.factories import ClubFactory, SeasonFactory, UserFactory

# Celery tasks run in the test's process at once, as in the games tests (autouse).
from tests.games.conftest import _eager_celery, start_table

__all__ = ["_eager_celery"]  # a fixture of this folder too


@dataclass
class RunningSeason:
    """A season under way: ``organiser`` owns the club, ``players`` are members with an
    entry each, seated in fixtures of ``seats`` at matchday 1 (open)."""

    club: Club
    season: Season
    division: Division
    matchday: Matchday
    entries: list[Entry]
    fixtures: list[Fixture]
    organiser: User
    players: list[User]


def running_season(
    organiser: User,
    players: Sequence[User],
    *,
    seats: int = 2,
    games: int = 2,
    on_deadline: str = OnDeadline.AS_IT_STANDS,
    deadline: datetime | None = None,
    private: bool = False,
    slug: str = "tile-club",
) -> RunningSeason:
    """A running season of ``players`` (a multiple of ``seats``) whose matchday 1 is open
    with a started table per fixture (seat 0 to move first), due at ``deadline``
    (default: in two days)."""
    now = timezone.now()
    club = ClubFactory(
        name=slug.replace("-", " ").title(), slug=slug, is_private=private, owner=organiser
    )
    for player in players:
        if player != organiser:
            Membership.objects.create(club=club, user=player, role=Role.MEMBER)
    settings = TableSettings(clock=Table.Clock.CORRESPONDENCE, games_in_round=games)
    league = League.objects.create(
        club=club,
        name="Winter league",
        slug="winter",
        seats=seats,
        table_settings=settings.to_dict(),
        on_deadline=on_deadline,
    )
    season = SeasonFactory(league=league, status=Season.Status.RUNNING)
    division = Division.objects.create(season=season, level=1, name="Division 1")
    entries = [
        Entry.objects.create(season=season, user=player, division=division, seed=n)
        for n, player in enumerate(players, start=1)
    ]
    matchday = Matchday.objects.create(
        season=season,
        number=1,
        opens_at=now - timedelta(days=1),
        deadline=deadline or now + timedelta(days=2),
        status=Matchday.Status.OPEN,
    )
    fixtures = [
        _fixture(matchday, division, entries[start : start + seats], games)
        for start in range(0, len(entries), seats)
    ]
    # As opening a matchday marks them: a private club's fixture tables are private.
    if clubs.mark_fixture_tables(club):
        for fixture in fixtures:
            assert fixture.table is not None
            fixture.table.refresh_from_db(fields=["private"])
    return RunningSeason(
        club, season, division, matchday, entries, fixtures, organiser, list(players)
    )


def _fixture(matchday: Matchday, division: Division, entries: list[Entry], games: int) -> Fixture:
    table = start_table(
        *(entry.user for entry in entries),
        first=0,
        clock=Table.Clock.CORRESPONDENCE,
        games_in_round=games,
    )
    fixture = Fixture.objects.create(
        matchday=matchday, division=division, table=table, status=Fixture.Status.PLAYING
    )
    FixtureSeat.objects.bulk_create(
        FixtureSeat(fixture=fixture, number=n, entry=entry) for n, entry in enumerate(entries)
    )
    return fixture


@pytest.fixture
def running(alice: User, bob: User, dave: User, erin: User) -> RunningSeason:
    """Alice owns the club and plays too: fixtures bob-dave and erin-alice, 2 games each."""
    return running_season(alice, [bob, dave, erin, alice])


@pytest.fixture
def olga(running: RunningSeason) -> User:
    """A second organiser of ``running``'s club who plays in no way in its season: free
    to decide any of its fixtures (alice plays erin-alice)."""
    user = UserFactory(username="olga", display_name="Olga")
    Membership.objects.create(club=running.club, user=user, role=Role.ORGANISER)
    return user


# --- clubs with a member of each role ---------------------------------------------------


def add_member(club: Club, user: User, role: str = Role.MEMBER) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


@pytest.fixture
def club(alice: User) -> Club:
    return clubs.create_club(alice, "Tile Club", description="We meet on Tuesdays.")


@pytest.fixture
def private_club(alice: User) -> Club:
    return clubs.create_club(alice, "Back Room", is_private=True)


@pytest.fixture
def organiser(club: Club) -> User:
    user = UserFactory(username="olga", display_name="Olga")
    add_member(club, user, Role.ORGANISER)
    return user


@pytest.fixture
def moderator(club: Club) -> User:
    user = UserFactory(username="mo", display_name="Mo")
    add_member(club, user, Role.MODERATOR)
    return user


@pytest.fixture
def member(club: Club) -> User:
    user = UserFactory(username="mia", display_name="Mia")
    add_member(club, user)
    return user


@pytest.fixture
def stranger(db: None) -> User:
    return UserFactory(username="sam", display_name="Sam")


@pytest.fixture
def rival(db: None) -> User:
    """The owner of another club: an organiser, but not of ``club``."""
    user = UserFactory(username="rita", display_name="Rita")
    clubs.create_club(user, "Other Club")
    return user


# --- seasons for withdrawals, vacations and the calendar -----------------------------


@pytest.fixture
def announced(django_capture_on_commit_callbacks: Any) -> Callable[[], Any]:
    """``with announced(): ...`` sends what the writes in the block announce after
    commit (games.signals), as the block ends - in a test's transaction nothing
    commits - so receivers and bots run as they would after a request."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def league_club(alice: User, bob: User, carol: User, dave: User) -> Club:
    """A club alice owns; bob, carol and dave are members."""
    club = ClubFactory(name="Tile Club", slug="tile-club", owner=alice)
    for member in (bob, carol, dave):
        Membership.objects.create(club=club, user=member)
    return club


def make_season(
    club: Club,
    players: Sequence[User],
    *,
    seats: int = 2,
    on_withdrawal: str = OnWithdrawal.BOT,
    vacation_days: int = 7,
    settings: TableSettings | None = None,
) -> Season:
    """A season of a new league of ``club`` under way since yesterday, with ``players``
    registered in its one division, in that order of seeding."""
    table_settings = (settings or TableSettings(clock="correspondence")).to_dict()
    league = League.objects.create(
        club=club,
        name=f"League {League.objects.count() + 1}",
        slug=f"league-{League.objects.count() + 1}",
        seats=seats,
        table_settings=table_settings,
        on_withdrawal=on_withdrawal,
        vacation_days=vacation_days,
    )
    season = SeasonFactory(
        league=league, status=Season.Status.RUNNING, started_at=timezone.now() - timedelta(days=1)
    )
    division = Division.objects.create(season=season, level=1, name="Division 1")
    for seed, player in enumerate(players, start=1):
        Entry.objects.create(season=season, user=player, division=division, seed=seed)
    return season


def _fixture_of(season: Season, number: int, players: Sequence[User], status: str) -> Fixture:
    opens_at = season.started_at + timedelta(days=7 * (number - 1))  # type: ignore[operator]
    matchday, _ = Matchday.objects.get_or_create(
        season=season,
        number=number,
        defaults={"opens_at": opens_at, "deadline": opens_at + timedelta(days=7), "status": status},
    )
    division = season.divisions.get()
    fixture = Fixture.objects.create(matchday=matchday, division=division)
    for seat, player in enumerate(players):
        FixtureSeat.objects.create(
            fixture=fixture, number=seat, entry=season.entries.get(user=player)
        )
    return fixture


def open_fixture(season: Season, number: int, players: Sequence[User]) -> Fixture:
    """A fixture of matchday ``number`` (open), its table created with ``players`` in
    seat order and its round under way."""
    fixture = _fixture_of(season, number, players, Matchday.Status.OPEN)
    settings = TableSettings.from_dict(season.table_settings)
    fixture.table = create_table(
        players[0], settings, [SeatPlan.taken_by(player) for player in players]
    )
    fixture.status = Fixture.Status.PLAYING
    fixture.save(update_fields=["table", "status"])
    return fixture


def scheduled_fixture(season: Season, number: int, players: Sequence[User]) -> Fixture:
    """A fixture of matchday ``number``, still to open (no table yet)."""
    return _fixture_of(season, number, players, Matchday.Status.SCHEDULED)


# --- leagues and seasons before they start ----------------------------------------------


@pytest.fixture
def league(club: Club) -> League:
    """A league of ``club`` with 3-seat correspondence fixtures, everyone in one division."""
    settings = TableSettings(clock="correspondence").to_dict()
    return League.objects.create(
        club=club,
        name="Winter",
        slug="winter",
        seats=3,
        table_settings=settings,
        tiebreaks=["games_won", "total_score"],
    )


@pytest.fixture
def season(league: League) -> Season:
    return SeasonFactory(league=league)


@pytest.fixture
def make_members(club: Club) -> Callable[[int], list[User]]:
    """``n`` new members of ``club``, in the order they joined."""

    def make(n: int) -> list[User]:
        users = [UserFactory() for _ in range(n)]
        Membership.objects.bulk_create(Membership(club=club, user=user) for user in users)
        return users

    return make
