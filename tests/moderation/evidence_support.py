"""Shared by the evidence tests: a case claimed straight on the model (the claiming
service is another part of moderation), and what a page shows of racks."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from moderation.models import Case


def claim(case: Case, moderator: User) -> Case:
    now = timezone.now()
    case.claimed_by = moderator
    case.claimed_at = now
    case.claim_seen_at = now
    case.save(update_fields=["claimed_by", "claimed_at", "claim_seen_at"])
    return case


def evidence_url(case: Case, turn: int | None = None) -> str:
    url = reverse("moderation:evidence", args=[case.pk])
    return url if turn is None else f"{url}?turn={turn}"


def timed_out_after(game: Game, minutes: int) -> Game:
    """The mover's turn runs out ``minutes`` after the game began."""
    with time_machine.travel(game.created_at + timedelta(minutes=minutes), tick=False):
        Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now())
        assert services.time_out_turn(game.pk, game.turn_number) is not None
    game.refresh_from_db()
    return game
