"""Everyone who decides sees the evidence: a second moderator asked to confirm a ruling,
and whoever answers an appeal, open it read only (logged like an opening), unless they
have a conflict; the proposer hears of a confirmation or a decline, whose reason the
ruling and the case show."""

from __future__ import annotations

import pytest
from django.test import TestCase
from django.urls import reverse

from accounts.models import User
from moderation.models import Appeal, Case, LogEntry, Ruling
from moderation.notices import ModerationNotice
from moderation.services import appeals
from moderation.services.rulings import decline
from notifications.models import Notification
from tests.conftest import client_as
from tests.moderation.test_rulings import confirm_it, league_case, ruled, second_moderator

__all__ = ["league_case", "second_moderator"]

pytestmark = pytest.mark.django_db


def evidence(user: User, case: Case) -> int:
    client = client_as(user)
    return client.get(reverse("moderation:evidence", args=[case.pk])).status_code


def openings(case: Case, user: User) -> list[str]:
    entries = LogEntry.objects.filter(
        case=case, actor=user, action=LogEntry.Action.EVIDENCE_OPENED
    ).order_by("pk")
    return list(entries.values_list("summary", flat=True))


def page(user: User, name: str, pk: int) -> str:
    client = client_as(user)
    response = client.get(reverse(f"moderation:{name}", args=[pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_moderator_asked_to_confirm_reads_the_evidence_while_the_ruling_waits(
    league_case: Case, club_moderator: User, second_moderator: User, alice: User
) -> None:
    assert evidence(second_moderator, league_case) == 404
    ruling = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    assert ruling.status == Ruling.Status.PROPOSED
    assert evidence(second_moderator, league_case) == 200
    assert evidence(second_moderator, league_case) == 200
    assert openings(league_case, second_moderator) == [
        f"Opened the evidence of case {league_case.pk} (every rack of game "
        f"{league_case.game_id}) to confirm or decline ruling {ruling.pk}."
    ]
    # The owner shares the division of the parties: a conflict keeps the door shut.
    assert evidence(alice, league_case) == 404
    confirm_it(ruling, second_moderator)
    # Decided, no appeal: nothing left for the second moderator to decide.
    assert evidence(second_moderator, league_case) == 404


def test_the_confirming_moderators_ruling_page_links_the_evidence(
    league_case: Case, club_moderator: User, second_moderator: User
) -> None:
    ruling = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    shown = page(second_moderator, "ruling", ruling.pk)
    assert reverse("moderation:evidence", args=[league_case.pk]) in shown
    assert "data-evidence-link" in shown
    # The case hub offers it too, read only.
    hub = page(second_moderator, "case", league_case.pk)
    assert reverse("moderation:evidence", args=[league_case.pk]) in hub
    assert "(read only)" in hub


def test_whoever_answers_an_appeal_reads_the_evidence_until_it_is_closed(
    league_case: Case, club_moderator: User, second_moderator: User, bob: User
) -> None:
    confirm_it(ruled(league_case, club_moderator, Ruling.Kind.VOID), second_moderator)
    with TestCase.captureOnCommitCallbacks(execute=True):
        appeal = appeals.open_appeal(league_case.pk, bob, "I did not resign on purpose.")
    assert evidence(second_moderator, league_case) == 200
    assert openings(league_case, second_moderator)[-1].endswith(" to answer an appeal.")
    assert "data-evidence-link" in page(second_moderator, "appeal", appeal.pk)
    # The appellant, a party, never.
    assert evidence(bob, league_case) == 404
    with TestCase.captureOnCommitCallbacks(execute=True):
        appeals.close(appeal.pk, second_moderator, "We looked again: it stands.")
    assert Appeal.objects.get(pk=appeal.pk).status == Appeal.Status.CLOSED
    assert evidence(second_moderator, league_case) == 404


def test_the_proposer_is_told_of_a_confirmation(
    league_case: Case, club_moderator: User, second_moderator: User
) -> None:
    ruling = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    confirm_it(ruling, second_moderator)
    told = Notification.objects.get(user=club_moderator)
    assert told.kind == ModerationNotice.MODERATION_QUEUE
    assert told.text == (
        f"Max confirmed your ruling in case {league_case.pk} (void the game): it is applied."
    )
    assert told.link == reverse("moderation:ruling", args=[ruling.pk])


def test_the_proposer_is_told_of_a_decline_with_its_reason_shown_on_the_ruling_and_case(
    league_case: Case, club_moderator: User, second_moderator: User
) -> None:
    ruling = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    with TestCase.captureOnCommitCallbacks(execute=True):
        decline(ruling.pk, second_moderator, "The move log shows a fair resignation.")
    told = Notification.objects.get(user=club_moderator)
    assert told.text == (
        f"Max declined your ruling in case {league_case.pk} (void the game): nothing of "
        "it happens. Why: The move log shows a fair resignation."
    )
    assert told.link == reverse("moderation:ruling", args=[ruling.pk])
    for name, pk in (("ruling", ruling.pk), ("case", league_case.pk)):
        shown = page(club_moderator, name, pk)
        assert "data-declined-because" in shown
        assert "The move log shows a fair resignation." in shown
