"""``{% case_rulings case %}``: the case hub's rulings slot, from nothing but the case
and the request's user (the hub's view need not know what the slot reads)."""

from __future__ import annotations

from typing import Any

from django import template

from moderation.models import Case
from moderation.selectors.rulings import case_rulings as rulings_of
from moderation.selectors.rulings import may_rule

register = template.Library()


@register.inclusion_tag("moderation/_case_rulings_list.html", takes_context=True)
def case_rulings(context: template.Context, case: Case) -> dict[str, Any]:
    user = context["request"].user
    return {"case": case, "rulings": rulings_of(case), "may_rule": may_rule(user, case)}
