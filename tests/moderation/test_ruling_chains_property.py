"""Property: any chain of rulings of any kind, over two cases of one game, undone back to
the start (each ruling still in effect superseded by a dismissal, the newest first),
leaves the results, the round, the standings and their corrections, the suspensions and
chat restrictions, the clocks' hold and the game's state exactly as they were; and a
ruling refused on the way changes nothing.

Two games: a league game that is over (results, forfeits, voids, standings) and a
casual game in play (pauses, rewinds). Each example runs in a savepoint rolled back
afterwards, so the fixtures serve them all; CI runs a fixed sequence of examples
(``HYPOTHESIS_PROFILE=ci``), few enough to take seconds.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games import services
from games.models import Game
from leagues.models import Fixture, Season
from moderation.errors import ModerationError
from moderation.models import Case, Category, Ruling
from moderation.services.rulings import rule
from tests.games.players import user_at
from tests.leagues.conftest import RunningSeason
from tests.moderation.chains import world
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed

pytestmark = pytest.mark.django_db

Step = tuple[str, bool, int, int]
"""A ruling to try: its kind, whether it supersedes its case's newest ruling in effect,
which of the two cases, and a number its details are drawn from."""

CHAIN = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def steps(kinds: list[str]) -> st.SearchStrategy[list[Step]]:
    return st.lists(
        st.tuples(st.sampled_from(kinds), st.booleans(), st.integers(0, 1), st.integers(0, 99)),
        min_size=1,
        max_size=6,
    )


class _Rollback(Exception):
    pass


def details_for(kind: str, number: int, game: Game, scope: str) -> dict[str, Any]:
    if kind == Ruling.Kind.SET_RESULT:
        return {"scores": {"0": number, "1": -number}, "winner": number % 2}
    if kind == Ruling.Kind.FORFEIT:
        return {"seat": number % 2}
    if kind in (Ruling.Kind.SUSPEND, Ruling.Kind.RESTRICT_CHAT):
        return {"scope": scope, "days": 1 + number % 5}
    if kind == Ruling.Kind.REWIND:
        game.refresh_from_db()
        return {"turn": 1 + number % max(1, game.turn_number - 1)}
    return {}


def run_chain(
    chain: list[Step],
    cases: list[Case],
    by: User,
    targets: list[User],
    game: Game,
    scope: str,
    season: Season | None = None,
) -> None:
    start = world(game, season)
    try:
        with transaction.atomic():
            for kind, superseding, which, number in chain:
                case = Case.objects.get(pk=cases[which].pk)
                newest = (
                    Ruling.objects.filter(case=case, status=Ruling.Status.APPLIED)
                    .order_by("-pk")
                    .first()
                )
                earlier = newest if superseding or case.status != Case.Status.OPEN else None
                named = kind in (Ruling.Kind.WARN, Ruling.Kind.SUSPEND, Ruling.Kind.RESTRICT_CHAT)
                before = world(game, season)
                try:
                    with transaction.atomic():
                        rule(
                            case.pk,
                            by,
                            kind,
                            f"Step {kind}.",
                            details=details_for(kind, number, game, scope),
                            target=targets[number % 2] if named else None,
                            supersedes_id=earlier.pk if earlier else None,
                        )
                except ModerationError:
                    assert world(game, season) == before, f"a refused {kind} changed something"
            in_effect = Ruling.objects.filter(
                case__in=cases, status=Ruling.Status.APPLIED
            ).order_by("-pk")
            for ruling in list(in_effect):
                rule(ruling.case_id, by, Ruling.Kind.DISMISS, "Undone.", supersedes_id=ruling.pk)
            end = world(game, season)
            assert {k: v for k, v in end.items() if k != "cases"} == {
                k: v for k, v in start.items() if k != "cases"
            }
            raise _Rollback
    except _Rollback:
        pass


LEAGUE_KINDS = [
    Ruling.Kind.SET_RESULT,
    Ruling.Kind.VOID,
    Ruling.Kind.FORFEIT,
    Ruling.Kind.DISMISS,
    Ruling.Kind.WARN,
    Ruling.Kind.SUSPEND,
    Ruling.Kind.RESTRICT_CHAT,
    Ruling.Kind.PAUSE,  # refused: the game is over
]


@CHAIN
@given(chain=steps(LEAGUE_KINDS))
def test_any_chain_on_a_league_game_undoes_back_to_the_start(
    chain: list[Step],
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
    running: RunningSeason,
) -> None:
    cases = [
        claimed(case, club_moderator)
        for case in Case.objects.filter(game=league_game).order_by("pk")
    ] or [
        claimed(open_case(league_game, bob, category, fixture=league_fixture), club_moderator)
        for category in (Category.BUG, Category.COLLUSION)
    ]
    run_chain(chain, cases, club_moderator, [bob, dave], league_game, "club", running.season)


CASUAL_KINDS = [
    Ruling.Kind.PAUSE,
    Ruling.Kind.REWIND,
    Ruling.Kind.DISMISS,
    Ruling.Kind.WARN,
    Ruling.Kind.SUSPEND,
    Ruling.Kind.RESTRICT_CHAT,
    Ruling.Kind.VOID,  # refused: the game is in play
]


@CHAIN
@given(chain=steps(CASUAL_KINDS))
# Found by a random run: the bot seated for the suspension never moved (the rewind's
# moves are a ruling's), yet the round went on naming "Alice, then Bot (normal) for Alice".
@example(chain=[(Ruling.Kind.SUSPEND, False, 1, 0), (Ruling.Kind.REWIND, False, 0, 0)])
def test_any_chain_on_a_game_in_play_undoes_back_to_the_start(
    chain: list[Step], casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    if casual_game.turn_number < 4:
        for _ in range(4):
            mover = user_at(casual_game, casual_game.current_seat or 0)
            services.draw(casual_game.pk, mover, casual_game.version)
            casual_game.refresh_from_db()
    cases = [
        claimed(case, site_moderator)
        for case in Case.objects.filter(game=casual_game).order_by("pk")
    ] or [
        claimed(open_case(casual_game, bob, category), site_moderator)
        for category in (Category.COLLUSION, Category.STALLING)
    ]
    # Rewinds of two cases interleaved cannot all be taken back (each only while it is
    # the game's last move): the second case rewinds nothing.
    chain = [
        step
        if not (step[0] == Ruling.Kind.REWIND and step[2] == 1)
        else (Ruling.Kind.PAUSE, *step[1:])
        for step in chain
    ]
    run_chain(chain, cases, site_moderator, [alice, bob], casual_game, "site")
