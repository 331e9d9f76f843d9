"""What a player sees of the solver's answers that a worker pushes (:mod:`common.answers`,
asked through :mod:`games.solver_tasks`).

Each renderer draws the answer for the job's own member, in the partial the page's own
request would have answered with. A hint is shown only while it is still for the
member's turn at the version it was worked out for: once the game moved on, the page
is told so instead. "Arrange for me" and a River take changed the game already (their
board comes by the game's own push): only their sentence is shown, or the refusal of
the worker (the turn changed while it worked, no way to lay the tiles).
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from common import answers
from common.answers import Failed, Job
from games.services.help import Hint, hint_is_current
from games.solver_tasks import ANALYSIS, ARRANGE, HINT, RIVER, Analysed, Done

MOVED_ON = "The game moved on before the solver was done: ask again on your turn."


def render_hint(job: Job, answer: object, user: User) -> str:
    context: dict[str, object] = {"answered": job, "game_id": job.args["game"]}
    if isinstance(answer, Failed):
        return _message(job, answer.message, "error")
    if isinstance(answer, Hint) and hint_is_current(job.args["game"], user, job.args["version"]):
        context["hint"] = answer
    else:
        context["stale"] = MOVED_ON
    return render_to_string("games/game.html#hint_answer", context)


def render_move(job: Job, answer: object, user: User) -> str:
    if isinstance(answer, Failed):
        return _message(job, answer.message, "error")
    return _message(job, answer.message if isinstance(answer, Done) else "", "success")


def render_analysis(job: Job, answer: object, user: User) -> str:
    if isinstance(answer, Failed):
        context: dict[str, object] = {"answered": job, "busy": answer.message}
    else:
        found = answer.analysis if isinstance(answer, Analysed) else None
        context = {"answered": job, "analysis": found}
    with timezone.override(user.zone):
        return render_to_string("games/replay.html#analysis_answer", context)


def _message(job: Job, message: str, level: str) -> str:
    return render_to_string(
        "includes/answer_message.html", {"answered": job, "message": message, "level": level}
    )


def register() -> None:
    answers.register(HINT, render_hint)
    answers.register(ARRANGE, render_move)
    answers.register(RIVER, render_move)
    answers.register(ANALYSIS, render_analysis)
