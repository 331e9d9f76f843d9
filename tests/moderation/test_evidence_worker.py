"""A case's evidence asks the solver nothing in the web process: the page opens with the
lines the cache holds and a job on the "solver" queue ("thinking"); once the queue's work
is done, the moderator's page gets every turn's line (and only that moderator: the job
is theirs). A second opening meanwhile queues nothing more (one job per game)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from accounts.models import User
from common import answers
from games.models import Game
from leagues.models import Fixture
from moderation.models import Category
from tests.conftest import client_as
from tests.games.answers_support import SolverQueue, job_of, solver_queue
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url

pytestmark = pytest.mark.django_db

__all__ = ["solver_queue"]


def test_the_evidence_lines_are_queued_and_pushed_to_the_moderator(
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    club_moderator: User,
    solver_queue: SolverQueue,
) -> None:
    cache.clear()
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)
    moderator = client_as(club_moderator)

    html = moderator.get(evidence_url(case)).content.decode()

    assert "The solver is still working: 4 turns to go" in html
    job = job_of(html)
    assert solver_queue.waiting() == 1
    again = moderator.get(evidence_url(case, 2) + "&part=turns", HTTP_HX_REQUEST="true")
    assert "ws-connect" not in again.content.decode()  # the game's job is at work already
    assert solver_queue.waiting() == 1
    assert answers.render(job, club_moderator) is None

    assert solver_queue.work() == 1

    pushed = answers.render(job, club_moderator)
    assert pushed is not None
    assert pushed.lstrip().startswith('<section id="evidence-turns" class="card evidence-turns"')
    assert "still working" not in pushed
    assert pushed.count("drew") >= 4  # each of the four draws has its line
    assert answers.render(job, bob) is None  # a party to the case gets nothing
    assert "Solver: still working" not in moderator.get(evidence_url(case, 1)).content.decode()


def test_a_collusion_case_s_pair_history_is_pushed_with_the_lines(
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    club_moderator: User,
    solver_queue: SolverQueue,
) -> None:
    cache.clear()
    case = claim(
        open_case(league_game, bob, Category.COLLUSION, fixture=league_fixture, accused=dave),
        club_moderator,
    )

    html = client_as(club_moderator).get(evidence_url(case)).content.decode()
    solver_queue.work()

    pushed = answers.render(job_of(html), club_moderator)
    assert pushed is not None
    assert '<section id="evidence-pairs"' in pushed and 'hx-swap-oob="true"' in pushed
    assert "not answered yet" not in pushed
