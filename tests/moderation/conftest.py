"""Fixtures of the moderation tests: a league game finished and a casual one, cases
opened on them straight from the models, and moderators of each kind.

``running`` (from the leagues tests) is alice's club with a season under way: fixtures
bob-dave and erin-alice of 2 games each. ``league_game`` is game 1 of bob-dave, finished
by both players drawing until the pool ran dry. ``club_moderator`` (mo) moderates that
club and plays in no division; ``site_moderator`` (sid) is in the site moderators' group.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.test import TestCase

from accounts.models import User
from games import services
from games.models import Game
from leagues.models import Club, Fixture, Membership, Role
from moderation.models import SITE_MODERATORS, Case, Category, Report, Ruling, Suspension
from tests.factories import CaseFactory, RulingFactory, UserFactory
from tests.games.conftest import _eager_celery, current_game, start_table
from tests.games.players import user_at
from tests.leagues.conftest import RunningSeason, running
from tests.moderation.roles import granted_role

__all__ = ["_eager_celery", "running"]


@pytest.fixture
def league_fixture(running: RunningSeason) -> Fixture:
    """The bob-dave fixture (bob in seat 0, to move first)."""
    return running.fixtures[0]


@pytest.fixture
def league_game(league_fixture: Fixture) -> Game:
    return finished_league_game(league_fixture)


def finished_league_game(fixture: Fixture) -> Game:
    """Game 1 of a 2-seat fixture, finished: each drew twice, then seat 1 resigned (the
    round goes on with game 2)."""
    assert fixture.table is not None
    game = current_game(fixture.table)
    draw_turns(game, 4)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.resign(game.pk, fixture.seats.get(number=1).entry.user)
    game.refresh_from_db()
    return game


def draw_turns(game: Game, turns: int) -> None:
    """The players to move draw, ``turns`` times in a row (``game`` is kept fresh)."""
    for _ in range(turns):
        game.refresh_from_db()
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
    game.refresh_from_db()


@pytest.fixture
def casual_game(alice: User, bob: User) -> Game:
    """A game of a casual table (no club), still in play, alice to move."""
    return current_game(start_table(alice, bob, first=0))


@pytest.fixture
def club_moderator(running: RunningSeason) -> User:
    user = UserFactory(username="mo", display_name="Mo")
    Membership.objects.create(club=running.club, user=user, role=Role.MODERATOR)
    return user


@pytest.fixture
def site_moderator(db: None) -> User:
    user = UserFactory(username="sid", display_name="Sid")
    user.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
    return user


def open_case(
    game: Game,
    filer: User,
    category: str = Category.BUG,
    *,
    text: str = "My move was refused.",
    turn_number: int | None = 1,
    fixture: Fixture | None = None,
    accused: User | None = None,
) -> Case:
    """A case of ``game`` filed by ``filer``, written straight to the models."""
    case = CaseFactory(
        game=game,
        category=category,
        club=fixture.matchday.season.league.club if fixture else None,
        fixture=fixture,
        turn_number=turn_number,
        accused=accused,
    )
    Report.objects.create(
        case=case, filer=filer, text=text, turn_number=turn_number, created_at=case.opened_at
    )
    return case


def suspend(
    user: User, game: Game, by: User, *, club: Club | None = None, days: int = 7
) -> Suspension:
    """``user`` suspended from ``club`` (``None``: the site) for ``days`` from now, by a
    ruling in a case of ``game``, written straight to the models."""
    case = Case.objects.filter(game=game).first() or open_case(game, by)
    ruling = RulingFactory(
        case=case, kind=Ruling.Kind.SUSPEND, note="Abusive chat, again.", target=user, by=by
    )
    now = ruling.created_at
    return Suspension.objects.create(
        user=user, club=club, ruling=ruling, starts_at=now, ends_at=now + timedelta(days=days)
    )


@pytest.fixture
def app_role() -> Iterator[str]:
    """A second role with the app's rights (:mod:`tests.moderation.roles`), for a test
    run as the owner (``as_owner``)."""
    with granted_role() as role:
        yield role
