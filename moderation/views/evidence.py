"""The evidence page of a case: for whoever decides in it (its claimer, a second moderator
asked to confirm a ruling, whoever answers an appeal), read only; nobody else."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from common.parsing import BadInput, parse_optional_number
from common.refusals import answers_bad_input
from common.requests import AuthenticatedRequest
from engine.actions import GameError
from moderation.answers import cached_lines, evidence_rows
from moderation.errors import ModerationError
from moderation.models import Category
from moderation.selectors.collusion import pair_histories
from moderation.selectors.evidence import game_evidence, marked_racks
from moderation.services.evidence import evidence_case, open_evidence
from moderation.tasks import ask_lines


@login_required
@require_safe
@answers_bad_input
def evidence(request: AuthenticatedRequest, pk: int) -> HttpResponse:
    """``?turn=N``: the page opened at turn N (htmx: that turn's panel alone);
    ``&part=turns`` (htmx): the list of every turn, with the solver's lines answered so
    far. The solver never runs here: the lines the cache lacks are a job for a worker
    (:func:`moderation.tasks.ask_lines`), whose answer is pushed to the page (the list
    again, and the pair's history); a job that could not answer every line leaves the
    page to ask again."""
    # Every refusal comes before the opening is marked: a refused request neither
    # renews the claim nor logs an opening.
    try:
        case = evidence_case(pk, request.user)
    except ModerationError as error:
        # Everyone but the case's moderator: as if there were no such page.
        raise Http404(str(error)) from None
    part = request.GET.get("part", "")
    if part not in ("", "turns"):
        raise BadInput("There is no such part of the evidence.")
    asked = parse_optional_number(request.GET.get("turn"))
    try:
        found = game_evidence(case.game)
    except GameError:
        # Only a game whose state was changed by hand (a test position) gets here.
        raise Http404("This game's record cannot be replayed.") from None
    try:
        case = open_evidence(pk, request.user)
    except ModerationError as error:
        # The claim changed hands since the door above.
        raise Http404(str(error)) from None
    lines = cached_lines(found, case.game_id)
    step = max(1, min(asked or 1, len(found.turns))) if found.turns else 0
    pairs = pair_histories(case) if case.category == Category.COLLUSION and not request.htmx else ()
    missing = lines.pending or any(game.pending for pair in pairs for game in pair.recent)
    # The lines the cache lacks are a worker's job; turning a page asks for none.
    job = ask_lines(case, request.user, step) if missing and (part or not request.htmx) else None
    turn = found.turn(step)
    names = found.names
    context: dict[str, object] = {
        "job": job,
        "case": case,
        "evidence": found,
        "lines": lines,
        "step": step,
        "turn": turn,
        "line": lines.lines.get(step),
        "mover": names[turn.replay.mover] if turn else "",
        "seats": [
            (name, *marked_racks(before, after))
            for name, before, after in zip(
                names, turn.replay.racks_before, turn.replay.racks_after, strict=True
            )
        ]
        if turn
        else [],
        "deal": list(zip(names, found.deal, strict=True)),
        "rows": evidence_rows(found, lines),
    }
    if request.htmx:
        fragment = "turns" if part else "turn"
        return render(request, f"moderation/evidence.html#{fragment}", context)
    context["pairs"] = pairs
    return render(request, "moderation/evidence.html", context)
