"""Appeals: a party of a decided case opens a thread with its moderators, who answer and
close it; the thread waits from the appellant's first unanswered message; each step is
logged and the other side told. A suspended member appeals like anyone else."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import TestCase, override_settings
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound, TooMany
from moderation.models import Appeal, AppealMessage, Case, Category, LogEntry, Ruling, Suspension
from moderation.notices import ModerationNotice
from moderation.services import appeals
from notifications.models import Notification
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import apply_ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User, dave: User) -> Case:
    return open_case(league_game, bob, Category.STALLING, fixture=league_fixture, accused=dave)


@pytest.fixture
def decided(case: Case, club_moderator: User) -> Case:
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS, note="Dave played within his time.")
    return case


def appeal_of(case: Case, user: User, text: str = "He waited out every turn.") -> Appeal:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return appeals.open_appeal(case.pk, user, text)


def write(appeal: Appeal, user: User, text: str) -> AppealMessage:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return appeals.write(appeal.pk, user, text)


def test_a_party_appeals_a_decided_case_and_the_moderator_who_ruled_is_told(
    decided: Case, bob: User, club_moderator: User
) -> None:
    appeal = appeal_of(decided, bob)
    assert appeal.status == Appeal.Status.OPEN
    assert appeal.waiting_since == appeal.opened_at
    (message,) = appeal.messages.all()
    assert message.text == "He waited out every turn." and not message.from_moderator
    entry = LogEntry.objects.get(action=LogEntry.Action.APPEALED)
    assert entry.actor == bob and entry.case == decided and entry.club == decided.club
    (notice,) = Notification.objects.filter(user=club_moderator)
    assert notice.kind == ModerationNotice.MODERATION_QUEUE
    assert "is waiting for an answer to their appeal" in notice.text
    assert notice.link == f"/moderation/appeals/{appeal.pk}/"


def test_every_party_may_appeal_and_nobody_else(
    decided: Case, bob: User, dave: User, erin: User, club_moderator: User
) -> None:
    assert appeal_of(decided, dave).appellant == dave  # the accused
    for outsider in (erin, club_moderator):
        with pytest.raises(NotFound):
            appeals.open_appeal(decided.pk, outsider, "Me too.")
    with pytest.raises(NotFound):
        appeals.open_appeal(99_999, bob, "Which case?")


def test_the_member_a_ruling_names_may_appeal_it(
    case: Case, club_moderator: User, running: RunningSeason
) -> None:
    named = UserFactory()
    apply_ruling(case, club_moderator, Ruling.Kind.WARN, target=named)
    assert appeal_of(case, named).appellant == named


def test_a_case_without_a_ruling_cannot_be_appealed(case: Case, bob: User) -> None:
    with pytest.raises(ModerationError, match="no ruling yet"):
        appeals.open_appeal(case.pk, bob, "Hurry up.")
    assert not Appeal.objects.exists()


@pytest.mark.parametrize("text", ["", "   ", "x" * 4001])
def test_an_empty_or_too_long_message_is_refused(decided: Case, bob: User, text: str) -> None:
    with pytest.raises(ModerationError) as refused:
        appeals.open_appeal(decided.pk, bob, text)
    assert refused.value.status == 400
    assert not Appeal.objects.exists() and not LogEntry.objects.filter(action="appealed").exists()


def test_one_open_appeal_per_party(decided: Case, bob: User) -> None:
    appeal_of(decided, bob)
    with pytest.raises(Conflict, match="open already"):
        appeals.open_appeal(decided.pk, bob, "Again.")
    assert Appeal.objects.count() == 1


def test_the_appeal_waits_from_the_first_unanswered_message(
    decided: Case, bob: User, club_moderator: User
) -> None:
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        appeal = appeal_of(decided, bob)
    with time_machine.travel(start + timedelta(hours=2), tick=False):
        write(appeal, bob, "Anyone there?")
    appeal.refresh_from_db()
    assert appeal.waiting_since == start  # still waiting since the first message
    with time_machine.travel(start + timedelta(hours=3), tick=False):
        answer = write(appeal, club_moderator, "We are looking at the clock log again.")
    appeal.refresh_from_db()
    assert answer.from_moderator and appeal.waiting_since is None
    with time_machine.travel(start + timedelta(hours=5), tick=False):
        write(appeal, bob, "Thank you.")
    appeal.refresh_from_db()
    assert appeal.waiting_since == start + timedelta(hours=5)
    assert [m.from_moderator for m in appeal.messages.all()] == [False, False, True, False]
    actions = list(LogEntry.objects.filter(case=decided).values_list("action", flat=True))
    assert actions.count(LogEntry.Action.ANSWERED) == 1
    assert actions.count(LogEntry.Action.APPEALED) == 3


def test_the_appellant_is_told_of_an_answer_and_of_the_closing(
    decided: Case, bob: User, club_moderator: User
) -> None:
    appeal = appeal_of(decided, bob)
    write(appeal, club_moderator, "The clock log shows no stalling.")
    with TestCase.captureOnCommitCallbacks(execute=True):
        appeals.close(appeal.pk, club_moderator, "The ruling stands.")
    texts = list(
        Notification.objects.filter(user=bob, kind=ModerationNotice.MODERATION_OUTCOME)
        .order_by("pk")
        .values_list("text", flat=True)
    )
    assert texts[-2].startswith("The moderators answered your appeal")
    assert texts[-1].startswith("The moderators closed your appeal")
    appeal.refresh_from_db()
    assert appeal.status == Appeal.Status.CLOSED and appeal.waiting_since is None
    assert appeal.messages.last().text == "The ruling stands."  # type: ignore[union-attr]
    assert LogEntry.objects.filter(action=LogEntry.Action.CLOSED_APPEAL, actor=club_moderator)


def test_a_closed_appeal_takes_no_message_and_opens_again_only_after_a_new_ruling(
    decided: Case, bob: User, club_moderator: User
) -> None:
    appeal = appeal_of(decided, bob)
    appeals.close(appeal.pk, club_moderator)
    with pytest.raises(Conflict, match="closed"):
        appeals.write(appeal.pk, bob, "But...")
    with pytest.raises(Conflict, match="closed already"):
        appeals.close(appeal.pk, club_moderator)
    with pytest.raises(Conflict, match="after its last ruling"):
        appeals.open_appeal(decided.pk, bob, "A new appeal.")
    first = Ruling.objects.get(case=decided)
    apply_ruling(decided, club_moderator, Ruling.Kind.WARN, supersedes=first, note="Second look.")
    assert appeal_of(decided, bob, "Now about the warning.").pk != appeal.pk


def test_a_moderator_with_a_conflict_may_read_but_not_answer_or_close(
    decided: Case, bob: User, alice: User, running: RunningSeason
) -> None:
    """Alice owns the club (a moderator of it) and plays in the case's division."""
    appeal = appeal_of(decided, bob)
    with pytest.raises(NotAllowed, match="party"):
        appeals.write(appeal.pk, alice, "As the owner...")
    with pytest.raises(NotAllowed):
        appeals.close(appeal.pk, alice)
    stranger = UserFactory()
    with pytest.raises(NotFound):
        appeals.write(appeal.pk, stranger, "Hello")
    with pytest.raises(NotFound):
        appeals.close(99_999, alice)
    assert appeal.messages.count() == 1


def test_another_moderator_of_the_club_may_answer(
    decided: Case, bob: User, running: RunningSeason, site_moderator: User
) -> None:
    colleague = UserFactory()
    Membership.objects.create(club=running.club, user=colleague, role=Role.MODERATOR)
    appeal = appeal_of(decided, bob)
    assert write(appeal, colleague, "I had a look too.").from_moderator
    assert write(appeal, site_moderator, "So did I.").from_moderator


@override_settings(MODERATION_APPEAL_MESSAGES_PER_DAY=2)
def test_an_appellant_writes_a_limited_number_of_messages_a_day(
    decided: Case, bob: User, club_moderator: User
) -> None:
    appeal = appeal_of(decided, bob)
    write(appeal, bob, "Second.")
    with pytest.raises(TooMany) as refused:
        appeals.write(appeal.pk, bob, "Third.")
    assert refused.value.status == 429
    assert write(appeal, club_moderator, "Moderators are not counted.").from_moderator


def test_a_suspended_member_can_still_appeal(
    case: Case, dave: User, club_moderator: User, running: RunningSeason
) -> None:
    ruling = apply_ruling(case, club_moderator, Ruling.Kind.SUSPEND, target=dave)
    now = timezone.now()
    Suspension.objects.create(user=dave, ruling=ruling, starts_at=now, ends_at=now + timedelta(30))
    appeal = appeal_of(case, dave, "A month is too long for one slow game.")
    assert appeal.appellant == dave and appeal.waiting_since is not None
