"""``{% case_appeals case %}``: a case's appeals, for the case page's slot
(``moderation/_case_appeals.html``), as the viewer may see them."""

from __future__ import annotations

from typing import Any

from django import template

from moderation.models import Case
from moderation.selectors.appeals import appeal_state, appellant_ids, case_appeals

register = template.Library()


@register.inclusion_tag("moderation/_case_appeals_list.html", takes_context=True)
def case_appeals_of(context: dict[str, Any], case: Case) -> dict[str, Any]:
    user = context["request"].user
    is_party = user.is_authenticated and user.pk in appellant_ids(case)
    return {
        "case": case,
        "appeals": case_appeals(user, case) if user.is_authenticated else [],
        "is_party": is_party,
        "state": appeal_state(user, case) if is_party else None,
    }
