"""The solver's help off the web: a page asks, a worker on the "solver" queue answers, and the
answer is pushed to the page that asked (:mod:`common.answers`).

Each ``ask_*`` runs in the page's request: it checks at once what needs no solver (your
turn, the tiles on your rack, the version the page shows), notes the asking, answers
from the cache when the position was worked out before, and otherwise starts a job and
queues its task. A member has one job of help (hint, "arrange for me", River take) and
one replay analysis at a time: a second ask while one runs is refused at once
(:class:`~games.errors.HelpBusy`), never queued. Each task loads the job, calls the
service that runs the solver (:mod:`games.services.help`,
:func:`games.selectors.analysis.turn_analysis`) and finishes the job with the answer, or
with the service's refusal (the game moved on, no way to lay the tiles). Their answers
are rendered in :mod:`games.answers`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection

from accounts.models import User
from common import answers
from common.answers import Failed, Job
from games.errors import GameActionError, HelpBusy, NotFound
from games.models import Game
from games.selectors.analysis import (
    TurnAnalysis,
    analysis_busy_key,
    analysis_busy_seconds,
    cached_analysis,
    turn_analysis,
)
from games.selectors.replay import ReplayFrame, replay_frame
from games.services import help as solver_help
from games.services.help import Hint

logger = logging.getLogger(__name__)

HINT, ARRANGE, RIVER, ANALYSIS = "games.hint", "games.arrange", "games.river", "games.analysis"

BUSY = "The solver is still working on your last request: wait a moment."

# The solver's own last stop is GAMES_HELP_SECONDS (20 s) or GAMES_ANALYSIS_SECONDS (10 s);
# past these something is wrong: the job ends with a refusal instead of thinking forever.
SOFT_TIME_LIMIT = 45
TIME_LIMIT = 60


@dataclass(frozen=True)
class Done:
    """The answer of a job that changed the game (the board comes by the game's own
    push): the sentence for the message area."""

    message: str


@dataclass(frozen=True)
class Analysed:
    """The answer of a replay analysis: the turn's analysis (``None``: no play to judge)."""

    analysis: TurnAnalysis | None


# --- asked on the page (the web process) -----------------------------------------------


def ask_hint(game_id: int, user: User) -> Hint | Job:
    """The hint if worked out before, else the job that works it out."""
    version, cached = solver_help.hint_asked(game_id, user)
    if cached is not None:
        return cached
    job = _start_help(HINT, user, {"game": game_id, "version": version})
    answer_hint.delay(job.id)
    return job


def ask_arrange(game_id: int, user: User, picked: Sequence[str]) -> Job:
    """ "Arrange for me" for the ``picked`` rack tiles, worked out by a worker."""
    version = solver_help.arrange_asked(game_id, user, picked)
    job = _start_help(ARRANGE, user, {"game": game_id, "version": version, "picked": [*picked]})
    answer_arrange.delay(job.id)
    return job


def ask_river_take(game_id: int, user: User, version: int, index: int) -> Job:
    """Take River tile ``index`` and play it, laid by a worker."""
    solver_help.river_take_asked(game_id, user, version, index)
    job = _start_help(RIVER, user, {"game": game_id, "version": version, "index": index})
    answer_river_take.delay(job.id)
    return job


def ask_analysis(frame: ReplayFrame, user: User) -> Analysed | Job:
    """The analysis of the turn ``frame`` shows if worked out before (or if there is
    nothing to analyse), else the job that works it out."""
    if frame.turn_start is None:
        return Analysed(None)
    cached = cached_analysis(frame)
    if cached is not None:
        return Analysed(cached)
    args = {"game": frame.game_id, "step": frame.step}
    job = answers.start(
        ANALYSIS,
        user.pk,
        args,
        busy=analysis_busy_key(user.pk),
        seconds=analysis_busy_seconds(),
    )
    if job is None:
        raise HelpBusy("The solver is still analysing another turn for you: wait a moment.")
    answer_analysis.delay(job.id)
    return job


def _start_help(kind: str, user: User, args: dict[str, object]) -> Job:
    job = answers.start(
        kind,
        user.pk,
        args,
        busy=solver_help.help_busy_key(user),
        seconds=solver_help.help_busy_seconds(),
    )
    if job is None:
        raise HelpBusy(BUSY)
    return job


# --- worked out on the "solver" queue ---------------------------------------------------


@shared_task(ignore_result=True, soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT)
def answer_hint(job_id: str) -> None:
    _work(job_id, _hint)


@shared_task(ignore_result=True, soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT)
def answer_arrange(job_id: str) -> None:
    _work(job_id, _arrange)


@shared_task(ignore_result=True, soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT)
def answer_river_take(job_id: str) -> None:
    _work(job_id, _river_take)


@shared_task(ignore_result=True, soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT)
def answer_analysis(job_id: str) -> None:
    _work(job_id, _analysis)


Work = Callable[[Job, User], object]


def _work(job_id: str, work: Work) -> None:
    """Load the job and its member afresh, work, and finish the job with the answer or
    the refusal; a job gone (lapsed) is nobody's any more."""
    job = answers.job(job_id)
    if job is None:
        return
    user = User.objects.filter(pk=job.user_id).first()
    try:
        if user is None:
            raise NotFound("There is no such member.")
        result = work(job, user)
    except GameActionError as error:
        result = Failed(error.message)
    except SoftTimeLimitExceeded:
        logger.warning("solver job %s (%s) ran out of time", job.id, job.kind)
        # The limit may have struck inside a query: the connection's state is unknown.
        connection.close()
        result = Failed("The solver took too long (the server is busy): ask again in a moment.")
    answers.finish(job, result)
    logger.info("solver job %s (%s) answered", job.id, job.kind)


def _hint(job: Job, user: User) -> Hint:
    return solver_help.hint(job.args["game"], user, job.args["version"])


def _arrange(job: Job, user: User) -> Done:
    args = job.args
    solver_help.arrange_for_me(args["game"], user, args["picked"], args["version"])
    return Done("The table is arranged with your tiles: check it, then end your turn.")


def _river_take(job: Job, user: User) -> Done:
    args = job.args
    solver_help.take_from_river_arranged(args["game"], user, args["version"], args["index"])
    return Done("")


def _analysis(job: Job, user: User) -> Analysed:
    game = Game.objects.select_related("table").filter(pk=job.args["game"]).first()
    if game is None:
        raise NotFound("There is no such game.")
    return Analysed(turn_analysis(replay_frame(game, job.args["step"])))
