"""``{% case_rulings case %}``: the case hub's rulings slot, from nothing but the case
and the request's user (the hub's view need not know what the slot reads)."""

from __future__ import annotations

from typing import Any

from django import template

from moderation.models import Case, Ruling
from moderation.selectors.rulings import may_rule, rulings_with_reasons

register = template.Library()


@register.inclusion_tag("moderation/_case_rulings_list.html", takes_context=True)
def case_rulings(context: template.Context, case: Case) -> dict[str, Any]:
    """A moderator of the case reads every ruling and opens each; a party reads those
    that took effect, and opens the outcome (the ruling pages are the moderators')."""
    user = context["request"].user
    # The hub says whether its viewer reads as a moderator (a moderator who is a party
    # reads as a party); elsewhere the permission does.
    moderator = context.get("viewer_is_moderator")
    if moderator is None:
        moderator = user.has_perm("moderation.read_case", case)
    rulings = rulings_with_reasons(case, moderator)
    if not moderator:
        taken = (Ruling.Status.APPLIED, Ruling.Status.SUPERSEDED)
        rulings = [(ruling, why) for ruling, why in rulings if ruling.status in taken]
    return {
        "case": case,
        "rulings": rulings,
        "moderator": moderator,
        "may_rule": moderator and may_rule(user, case),
    }
