"""The solver's lines of a case's evidence, worked out off the web and pushed to the
moderator's page (:mod:`common.answers`; the work: :func:`moderation.tasks.answer_evidence_lines`).

The page opens with the lines already in the cache and, while some are missing, a job
for a worker ("thinking"). When the job is done, the moderator's page gets the list of
every turn again, with the lines found (and the pair's history of a collusion case): the
same partials the page's own request renders. The renderer asks the door again
(:func:`~moderation.services.evidence.evidence_case`): a moderator who may no longer
read the evidence is sent nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from common import answers
from common.answers import Job
from moderation.errors import ModerationError
from moderation.models import Case, Category
from moderation.selectors.collusion import PairHistory, pair_histories
from moderation.selectors.evidence import EvidenceTurn, GameEvidence, game_evidence
from moderation.selectors.solver_lines import SolverLine, SolverLines, solver_lines
from moderation.services.evidence import evidence_case

LINES = "moderation.lines"


@dataclass(frozen=True)
class LinesWorked:
    """The answer of a lines job: the lines themselves are in the cache, by position."""

    case_id: int


def evidence_rows(
    found: GameEvidence, lines: SolverLines
) -> list[tuple[EvidenceTurn, str, SolverLine | None]]:
    """Each turn of the list with its mover's name and its solver line (if found yet)."""
    names = found.names
    return [(t, names[t.replay.mover], lines.lines.get(t.replay.step)) for t in found.turns]


def cached_lines(found: GameEvidence, game_id: int) -> SolverLines:
    """The lines the cache holds (the web process never asks the solver)."""
    return solver_lines([turn.replay for turn in found.turns], game_id, 0.0)


def render_lines(job: Job, answer: object, user: User) -> str:
    try:
        case = evidence_case(job.args["case"], user)
    except ModerationError:
        return ""
    found = game_evidence(case.game)
    lines = cached_lines(found, case.game_id)
    context: dict[str, object] = {
        "case": case,
        "evidence": found,
        "lines": lines,
        "step": job.args["step"],
        "rows": evidence_rows(found, lines),
        "oob": True,
    }
    pairs: tuple[PairHistory, ...] = ()
    if case.category == Category.COLLUSION:
        pairs = pair_histories(case)
    with timezone.override(user.zone):
        html = render_to_string("moderation/evidence.html#turns", context)
        if pairs:
            html += render_to_string(
                "moderation/evidence.html#pairs", {**context, "pairs": pairs, "user": user}
            )
    return html


def work_out_lines(case_id: int, seconds: float) -> None:
    """Ask the solver, for ``seconds``, the lines of case ``case_id`` not cached yet (and
    of the pair's games, for a collusion case); a worker's job."""
    case = Case.objects.select_related("game__table", "club").filter(pk=case_id).first()
    if case is None:
        return
    found = game_evidence(case.game)
    solver_lines([turn.replay for turn in found.turns], case.game_id, seconds)
    if case.category == Category.COLLUSION:
        pair_histories(case, seconds)


def register() -> None:
    answers.register(LINES, render_lines)
