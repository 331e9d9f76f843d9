"""Score changes of a season's games (:class:`~leagues.models.ScoreAdjustment`): those
waiting for a second organiser, who may decide one, and why someone may not."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts.models import User
from leagues.conf import staff_refusal
from leagues.conflicts import free_of, game_conflicts
from leagues.models import Membership, ScoreAdjustment, Season
from leagues.permissions import MODERATING, why_not_staff


def adjustments_of(season: Season) -> QuerySet[ScoreAdjustment]:
    return ScoreAdjustment.objects.filter(season=season).select_related(
        "game", "fixture", "proposed_by", "decided_by"
    )


def waiting(season: Season) -> list[ScoreAdjustment]:
    """The season's score changes awaiting a second organiser, oldest first."""
    proposed = adjustments_of(season).filter(status=ScoreAdjustment.Status.PROPOSED)
    return list(proposed.order_by("created_at", "pk"))


def deciders(adjustment: ScoreAdjustment) -> list[User]:
    """Who may confirm or decline ``adjustment``: the club's other owner, organisers and
    moderators free of any conflict over its game, whose powers no suspension takes
    away."""
    club = Season.objects.filter(pk=adjustment.season_id).values("league__club_id")
    staff = Membership.objects.filter(club_id__in=club, role__in=MODERATING)
    candidates = (
        User.objects.filter(pk__in=staff.values("user_id"), is_active=True)
        .exclude(pk=adjustment.proposed_by_id)
        .order_by("pk")
    )
    club_id = _club_id(adjustment)
    free = [user for user in candidates if staff_refusal(user, club_id) is None]
    return free_of(free, adjustment.game, adjustment.fixture)


def _club_id(adjustment: ScoreAdjustment) -> int:
    club_id: int = (
        Season.objects.filter(pk=adjustment.season_id)
        .values_list("league__club_id", flat=True)
        .get()
    )
    return club_id


def why_not_decide(user: Any, adjustment: ScoreAdjustment) -> list[str]:
    """Why ``user`` may not confirm or decline ``adjustment`` (empty: they may)."""
    refusal = why_not_staff(
        user,
        adjustment.season,
        MODERATING,
        "Only the club's organisers and moderators may decide a score change.",
    )
    if refusal is not None:
        return [refusal]
    if user.pk == adjustment.proposed_by_id:
        return ["A second organiser decides a score change, not the one who proposed it."]
    return game_conflicts(user, adjustment.game, adjustment.fixture)
