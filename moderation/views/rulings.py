"""The rulings pages: a case's moderator makes a ruling (a preview first, then apply),
a second moderator confirms or declines it, and anyone who moderates the case reads it.

Every refusal is a :class:`~moderation.errors.ModerationError`: its sentence, with its
status, on the page that was asked for; nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.models import User
from moderation.errors import ModerationError
from moderation.forms.rulings import RulingForm
from moderation.models import Ruling
from moderation.selectors import rulings as reads
from moderation.selectors.effects import in_words
from moderation.services import rulings as service
from moderation.services.checks import kind_refused
from moderation.services.previews import (
    REWIND_CANNOT_HIDE,
    Preview,
    preview,
    preview_confirmation,
)
from moderation.views.common import refused

TEMPLATE = "moderation/ruling_new.html"


def _details(data: Any, seats: int) -> dict[str, Any]:
    """The kind's details from the form's fields (checked by the service)."""
    return {
        "scores": {str(n): data.get(f"score_{n}", "") for n in range(seats)},
        "racks": {str(n): data.get(f"rack_{n}", "") for n in range(seats)},
        "winner": data.get("winner", ""),
        "seat": data.get("seat", ""),
        "turn": data.get("turn", ""),
        "days": data.get("days", ""),
        "scope": data.get("scope", ""),
    }


@login_required
@require_http_methods(["GET", "POST"])
def new_ruling(request: HttpRequest, case_id: int) -> HttpResponse:
    """GET: the form. POST ``step=preview``: the form again with what the ruling would
    change; POST ``step=apply``: make it (applied, or proposed to a second moderator)."""
    try:
        case = reads.visible_case(request.user, case_id)
    except ModerationError as error:
        return refused(request, error)
    user = request.user
    assert isinstance(user, User)
    seats = reads.seats_now(case)
    initial = {"supersedes": request.GET.get("supersedes")}
    form = RulingForm(request.POST or None, case=case, initial=initial)
    shown: Preview | None = None
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = 400
        else:
            data = form.cleaned_data
            args = (data["kind"], data["note"])
            kwargs = {
                "details": _details(request.POST, len(seats)),
                "target": data["target"],
                "supersedes_id": data["supersedes"],
            }
            try:
                if request.POST.get("step") == "apply":
                    ruling = service.rule(case.pk, user, *args, **kwargs)
                    done = "applied" if ruling.status == Ruling.Status.APPLIED else "proposed"
                    messages.success(request, f"The ruling is {done}.")
                    return redirect("moderation:ruling", ruling.pk)
                shown = preview(case, user, *args, **kwargs)
            except ModerationError as error:
                form.add_error(None, str(error))
                status = error.status
    posted = request.POST
    entries = [
        {
            "seat": seat,
            "score": posted.get(f"score_{seat.seat}", seat.score if seat.score is not None else ""),
            "rack": posted.get(f"rack_{seat.seat}", ""),
            "winner": posted.get("winner") == str(seat.seat) if posted else seat.is_winner,
            "forfeit": posted.get("seat") == str(seat.seat),
        }
        for seat in seats
    ]
    context = {
        "case": case,
        "form": form,
        "seats": seats,
        "entries": entries,
        "winner_chosen": any(entry["winner"] for entry in entries),
        "values": request.POST,
        "preview": shown,
        "cannot_hide": REWIND_CANNOT_HIDE,
        "why_not_rule": reads.why_not_rule(user, case),
        # Every kind, with why the game as it stands refuses it (running or over).
        "kinds": [
            {"value": value, "label": label, "refused": kind_refused(case.game, value)}
            for value, label in Ruling.Kind.choices
        ],
        "rulings": reads.rulings_with_reasons(case),
    }
    return render(request, TEMPLATE, context, status=status)


@login_required
@require_safe
def ruling(request: HttpRequest, ruling_id: int) -> HttpResponse:
    try:
        shown = reads.visible_ruling(request.user, ruling_id)
    except ModerationError as error:
        return refused(request, error)
    may_confirm = reads.may_confirm(request.user, shown)
    # The second moderator sees what confirming would change, as its maker did.
    what: Preview | None = None
    if may_confirm and isinstance(request.user, User):
        try:
            what = preview_confirmation(shown, request.user)
        except ModerationError:
            what = None
    context = {
        "ruling": shown,
        "case": shown.case,
        "seats": reads.seats_now(shown.case),
        "effect_lines": in_words(shown.effects or {}),
        "may_confirm": may_confirm,
        "preview": what,
        "may_supersede": shown.status == Ruling.Status.APPLIED
        and reads.may_rule(request.user, shown.case),
        # Whoever is asked to confirm reads the evidence too, read only.
        "may_open_evidence": request.user.has_perm("moderation.open_evidence", shown.case),
        "declined_because": reads.decline_reasons(shown.case).get(shown.pk, ""),
    }
    return render(request, "moderation/ruling.html", context)


@login_required
@require_POST
def confirm(request: HttpRequest, ruling_id: int) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    try:
        service.confirm(ruling_id, user)
    except ModerationError as error:
        return refused(request, error)
    messages.success(request, "You confirmed the ruling: it is applied.")
    return redirect("moderation:ruling", ruling_id)


@login_required
@require_POST
def decline(request: HttpRequest, ruling_id: int) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    try:
        service.decline(ruling_id, user, request.POST.get("note", ""))
    except ModerationError as error:
        return refused(request, error)
    messages.success(request, "You declined the ruling: nothing of it happens.")
    return redirect(reverse("moderation:ruling", args=[ruling_id]))
