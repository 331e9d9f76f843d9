"""Conflicts of interest of the organisers' tools: an organiser does not decide a fixture
or a game they take part in, nor a game they are a party to a case about.

Taking part is read from the facts (:mod:`leagues.selectors.participation`: an entry of
the fixture is theirs, they play or played it as a substitute, they sat at its table or
a bot took their seat over, a result of it is theirs). Being a party to a case is
moderation's to say: leagues never imports moderation, so it asks the function named by
the setting ``LEAGUES_PARTY_POLICY`` (unset: nobody is a party to anything), called as
``policy(user, game)``; it answers ``None``, or the sentence that says why.

Each answer is a list of sentences, empty when there is no conflict, as moderation's
``conflicts()`` answers for a case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from leagues.conf import party_policy
from leagues.errors import NotAllowed
from leagues.selectors.participation import fixture_participants

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game
    from leagues.models import Fixture


def _where(fixture: Fixture) -> str:
    return f"table {fixture.table_id}" if fixture.table_id else f"fixture {fixture.pk}"


def fixture_conflicts(user: User, fixture: Fixture) -> list[str]:
    """Why ``user`` may not decide ``fixture`` (empty: no conflict)."""
    if user.pk in fixture_participants(fixture):
        return [f"You play in the fixture at {_where(fixture)}."]
    return []


def game_conflicts(user: User, game: Game, fixture: Fixture) -> list[str]:
    """Why ``user`` may not change the result of ``game`` (of ``fixture``)."""
    return _game_conflicts(user, game, fixture_participants(fixture))


def _game_conflicts(user: User, game: Game, participants: set[int]) -> list[str]:
    reasons = []
    if user.pk in participants:
        reasons.append("You play in this game's fixture.")
    policy = party_policy()
    party = policy(user, game) if policy is not None else None
    if party:
        reasons.append(party)
    return reasons


def free_of(users: Iterable[User], game: Game, fixture: Fixture) -> list[User]:
    """The ``users`` with no conflict over ``game``: the fixture's players are read
    once, the parties' policy is asked of each."""
    participants = fixture_participants(fixture)
    return [user for user in users if not _game_conflicts(user, game, participants)]


def playing_in(user: User, fixtures: Iterable[Fixture]) -> list[str]:
    """Why ``user`` may not decide ``fixtures`` at once (closing their matchday early):
    one sentence per fixture they take part in."""
    return [reason for fixture in fixtures for reason in fixture_conflicts(user, fixture)]


def refuse_conflicts(reasons: list[str]) -> None:
    """Raise the refusal of ``reasons``, if any (403, with their sentences)."""
    if reasons:
        raise NotAllowed(" ".join(reasons))
