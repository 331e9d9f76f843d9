"""Reports do not vanish without a word: each filer hears that their report was
received, or that it joined a case already open, once per report."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games.models import Game
from moderation.models import Category
from moderation.services.filing import Filing, file_game_report
from moderation.services.outcomes import tell_report_received
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def filed(game: Game, filer: User, text: str, capture: Any) -> int:
    with capture(execute=True):
        report = file_game_report(game.pk, filer, Filing(Category.BUG, text, 1))
    return report.pk


def test_the_first_filer_hears_the_case_is_open_and_a_later_one_that_they_joined_it(
    league_game: Game, bob: User, dave: User, django_capture_on_commit_callbacks: Any
) -> None:
    first = filed(league_game, bob, "My play was refused.", django_capture_on_commit_callbacks)
    filed(league_game, dave, "Mine too.", django_capture_on_commit_callbacks)

    told = Notification.objects.filter(kind="moderation_case")
    [received] = told.filter(user=bob)
    [joined] = told.filter(user=dave)
    case_id = received.subject_id
    assert (received.kind, joined.kind) == ("moderation_case", "moderation_case")
    assert received.text.startswith(f"Your report was received: case {case_id} (")
    assert "open for the moderators" in received.text
    assert joined.text.startswith(f"Your report joined case {case_id} (")
    # Others reported it too, not how many (that stays with the moderators: SU2).
    assert "others reported it too" in joined.text
    assert "members have reported" not in joined.text
    assert received.link == joined.link == "/moderation/mine/"
    # Told once per report, even if the signal came twice.
    assert not tell_report_received(first, joined=False)
    assert told.filter(user=bob).count() == 1
