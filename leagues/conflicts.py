"""Conflicts of interest of the organisers' tools: an organiser does not decide a fixture
or a game they take part in, nor a game they are a party to a case about.

Every tool asks one question, :func:`playing_in`: does the organiser take part in the
fixtures the action touches. Each action names what it touches:

* withdrawing a player, or seating a substitute for them: the entry's unfinished
  fixtures (:func:`withdrawal_conflicts`, :func:`substitution_conflicts`); a player who
  withdraws themself decides nothing of anyone else's;
* extending a matchday's deadline: its unfinished fixtures without a deadline of their
  own, which the new deadline moves (:func:`extension_conflicts`);
* closing a matchday early: its unfinished fixtures still in time, which it settles
  (:mod:`leagues.services.deadlines`);
* opening the next matchday early: its fixtures (:func:`opening_conflicts`);
* closing the season: every fixture of it, whose final order the close takes
  (:func:`close_conflicts`);
* moving a fixture's deadline, and proposing or deciding a score change of one of its
  games: the fixture (:func:`fixture_conflicts`, :func:`game_conflicts`).

Taking part is read from the facts (:mod:`leagues.selectors.participation`: an entry of
the fixture is theirs, they play or played it as a substitute, they sat at its table,
played a seat of one of its games or had a bot take their seat over, a result of it is
theirs). Being a party to a case is moderation's to say: leagues never imports
moderation, so it asks the function named by the setting ``LEAGUES_PARTY_POLICY``
(unset: nobody is a party to anything), called as ``policy(user, game)``; it answers
``None``, or the sentence that says why.

Each answer is a list of sentences, empty when there is no conflict, as moderation's
``conflicts()`` answers for a case; one per fixture, naming it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from django.db.models import QuerySet

from leagues.conf import party_policy
from leagues.errors import NotAllowed
from leagues.models import Fixture
from leagues.selectors.participation import fixture_participants, fixtures_of

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Game
    from leagues.models import Entry, Matchday, Season

UNFINISHED_FIXTURES = (Fixture.Status.SCHEDULED, Fixture.Status.PLAYING)
"""A fixture still to be played or being played."""

ANOTHER_ORGANISER = (
    "Another organiser of the club may do it (the club's owner names organisers on its "
    "members' page)."
)
"""What a refused organiser is told to do instead."""

PLAYERS_CLOSE = (
    "The close fixes its final order: another organiser closes it, or announce the close "
    "and it closes by itself after its grace period."
)
"""What an organiser who plays in the season is told instead of closing it."""

SHOWN = 3
"""A refusal names this many of the organiser's fixtures, then counts the rest."""


def _sentence(fixture: Fixture) -> str:
    """A fixture dealt is named by its table; one still to come by its matchday (it
    read "the fixture at fixture 3", a number shown nowhere else)."""
    if fixture.table_id:
        return f"You play in the fixture at table {fixture.table_id}."
    return f"You play in a fixture of matchday {fixture.matchday.number}."


def sentences(fixtures: Iterable[Fixture], theirs: Collection[int]) -> list[str]:
    """One sentence for each of ``fixtures`` whose id is in ``theirs`` (the fixtures the
    member takes part in, read by :func:`playing_in` or once for a page); their
    matchdays are read with them (``select_related``) where some are not dealt yet."""
    return [_sentence(f) for f in fixtures if f.pk in theirs]


def playing_in(user: User, fixtures: Iterable[Fixture]) -> list[str]:
    """Why ``user`` may not take an action that touches ``fixtures``: one sentence per
    fixture they take part in (empty: none). One query."""
    fixtures = list(fixtures)
    if not fixtures:
        return []
    asked = Fixture.objects.filter(pk__in=[fixture.pk for fixture in fixtures])
    return sentences(fixtures, set(fixtures_of(user, asked).values_list("pk", flat=True)))


def fixture_conflicts(user: User, fixture: Fixture) -> list[str]:
    """Why ``user`` may not decide ``fixture`` (move its deadline; empty: no conflict)."""
    return playing_in(user, [fixture])


def entry_fixtures(entry: Entry) -> QuerySet[Fixture]:
    """What withdrawing ``entry`` or replacing its player touches: its unfinished
    fixtures (the games in play and every one still to come)."""
    return (
        Fixture.objects.filter(seats__entry=entry, status__in=UNFINISHED_FIXTURES)
        .select_related("matchday")
        .order_by("pk")
    )


def withdrawal_conflicts(user: User, entry: Entry) -> list[str]:
    """Why ``user`` may not withdraw ``entry`` (empty: they may, as far as conflicts
    go): none for its own player."""
    if user.pk == entry.user_id:
        return []
    return playing_in(user, entry_fixtures(entry))


def substitution_conflicts(user: User, entry: Entry) -> list[str]:
    """Why ``user`` may not choose who plays ``entry`` from now on."""
    return playing_in(user, entry_fixtures(entry))


def extended_fixtures(fixtures: Iterable[Fixture]) -> list[Fixture]:
    """Of a matchday's ``fixtures``, those a new deadline of the matchday moves: the
    unfinished ones without a deadline of their own."""
    return [f for f in fixtures if f.status in UNFINISHED_FIXTURES and f.deadline is None]


def extension_conflicts(user: User, matchday: Matchday) -> list[str]:
    """Why ``user`` may not extend ``matchday``'s deadline."""
    return playing_in(user, extended_fixtures(matchday.fixtures.order_by("pk")))


def opening_conflicts(user: User, matchday: Matchday) -> list[str]:
    """Why ``user`` may not open ``matchday`` before its time: they play in it."""
    return playing_in(user, matchday.fixtures.order_by("pk"))


def season_fixtures(season: Season) -> QuerySet[Fixture]:
    """What closing ``season`` touches: every fixture of it (the close settles those
    left and takes the final order from all of them)."""
    return (
        Fixture.objects.filter(matchday__season=season)
        .select_related("matchday")
        .order_by("matchday__number", "pk")
    )


def close_conflicts(user: User, season: Season) -> list[str]:
    """Why ``user`` may not close ``season``: they play in it."""
    return playing_in(user, season_fixtures(season))


def game_conflicts(user: User, game: Game, fixture: Fixture) -> list[str]:
    """Why ``user`` may not change the result of ``game`` (of ``fixture``)."""
    return _game_conflicts(user, game, fixture, fixture_participants(fixture))


def _game_conflicts(user: User, game: Game, fixture: Fixture, participants: set[int]) -> list[str]:
    reasons = sentences([fixture], {fixture.pk} if user.pk in participants else set())
    policy = party_policy()
    party = policy(user, game) if policy is not None else None
    if party:
        reasons.append(party)
    return reasons


def free_of(users: Iterable[User], game: Game, fixture: Fixture) -> list[User]:
    """The ``users`` with no conflict over ``game``: the fixture's players are read
    once, the parties' policy is asked of each."""
    participants = fixture_participants(fixture)
    return [user for user in users if not _game_conflicts(user, game, fixture, participants)]


def refusal_text(reasons: list[str], instead: str = "") -> str:
    """The sentences of ``reasons`` (the first :data:`SHOWN`, then how many more), then
    what the organiser may do instead; empty without reasons."""
    if not reasons:
        return ""
    text = " ".join(reasons[:SHOWN])
    more = len(reasons) - SHOWN
    if more > 0:
        text += f" And {more} more fixture{'s' if more != 1 else ''} of it."
    return f"{text} {instead}".strip()


def refuse_conflicts(reasons: list[str], instead: str = "") -> None:
    """Raise the refusal of ``reasons``, if any (403, with their sentences)."""
    if reasons:
        raise NotAllowed(refusal_text(reasons, instead))
