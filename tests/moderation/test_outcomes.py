"""Everyone is told: a ruling's outcome reaches the filers, the accused and the other
seats with its reason and a link to the outcome page, where each party reads it and may
appeal; nobody else reads it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game, Result
from games.services.results import SeatCorrection
from leagues.models import Fixture
from moderation.models import Case, Category, Ruling
from moderation.notices import ModerationNotice
from moderation.selectors.outcomes import result_history
from moderation.services.outcomes import tell_outcome
from notifications.models import Notification
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import NOTE, apply_ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User, dave: User) -> Case:
    """Bob reports dave for stalling in their league game."""
    return open_case(league_game, bob, Category.STALLING, fixture=league_fixture, accused=dave)


def notices(user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind__startswith="moderation"))


def test_the_filer_the_accused_and_the_other_seats_are_told_with_the_reason(
    case: Case, bob: User, dave: User, club_moderator: User, erin: User
) -> None:
    ruling = apply_ruling(case, club_moderator, Ruling.Kind.WARN, target=dave)

    (filer,) = notices(bob)
    assert filer.kind == ModerationNotice.MODERATION_CASE
    assert filer.text.startswith(f"Your report on game 1 of table {case.game.table_id}")
    assert "Warn a member" in filer.text
    assert "The server refused a legal play" in filer.text
    assert filer.text.endswith("You may appeal.")
    assert filer.link == reverse("moderation:appeal_new", args=[case.pk])
    (accused,) = notices(dave)
    assert accused.kind == ModerationNotice.MODERATION_OUTCOME
    assert accused.text.startswith("A ruling about you in game 1")
    assert accused.subject == ruling
    assert notices(club_moderator) == []  # not told of their own work
    assert notices(erin) == []  # no party


def test_a_seat_that_neither_filed_nor_is_accused_is_told_as_a_player(
    league_game: Game, league_fixture: Fixture, bob: User, dave: User, club_moderator: User
) -> None:
    case = open_case(league_game, bob, Category.BUG, fixture=league_fixture)
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS, note="Nothing went wrong.")
    (other,) = notices(dave)
    assert other.text.startswith("A ruling in your game 1")
    assert other.text == (
        f"A ruling in your game 1 of table {case.game.table_id}: Dismiss. "
        "Why: Nothing went wrong. You may appeal."
    )


def test_a_long_note_is_cut_in_the_notice_and_whole_on_the_page(
    case: Case, bob: User, club_moderator: User
) -> None:
    note = "Because " + "the clock ran on " * 30
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS, note=note)
    (notice,) = notices(bob)
    assert "…" in notice.text and len(notice.text) < 300
    client = client_as(bob)
    page = client.get(reverse("moderation:appeal_new", args=[case.pk])).content.decode()
    assert note.strip() in " ".join(page.split())


def test_a_signal_delivered_twice_tells_each_party_once(
    case: Case, bob: User, dave: User, club_moderator: User
) -> None:
    ruling = apply_ruling(case, club_moderator, Ruling.Kind.DISMISS)
    assert tell_outcome(ruling.pk) == 0
    assert len(notices(bob)) == len(notices(dave)) == 1


def test_a_ruling_not_in_effect_tells_nobody(case: Case, bob: User, club_moderator: User) -> None:
    from django.utils import timezone

    proposed = Ruling.objects.create(
        case=case, kind=Ruling.Kind.VOID, note=NOTE, by=club_moderator, created_at=timezone.now()
    )
    assert tell_outcome(proposed.pk) == 0
    assert tell_outcome(999_999) == 0
    assert notices(bob) == []


def test_a_ruling_that_replaces_another_says_so(
    case: Case, bob: User, club_moderator: User
) -> None:
    first = apply_ruling(case, club_moderator, Ruling.Kind.DISMISS)
    Ruling.objects.filter(pk=first.pk).update(status=Ruling.Status.SUPERSEDED)
    apply_ruling(case, club_moderator, Ruling.Kind.WARN, supersedes=first, note="On reflection.")
    latest = Notification.objects.filter(user=bob).order_by("-pk").first()
    assert latest is not None
    assert "(it replaces an earlier ruling)" in latest.text


# --- the outcome page -----------------------------------------------------------------


def outcome_url(case: Case) -> str:
    return reverse("moderation:appeal_new", args=[case.pk])


def test_a_party_reads_the_rulings_and_what_they_changed_in_the_result(
    case: Case, bob: User, dave: User, club_moderator: User
) -> None:
    apply_ruling(
        case,
        club_moderator,
        corrections={1: SeatCorrection(score=25, is_winner=True)},
    )
    for party in (bob, dave):
        response = client_as(party).get(outcome_url(case))
        assert response.status_code == 200
        html = response.content.decode()
        assert "Set the result" in html and NOTE in html
        assert "What changed in the result" in html
        assert "<ins>25</ins>" in html
        assert 'name="text"' in html  # the appeal form


def test_nobody_else_learns_of_the_case(
    case: Case, club_moderator: User, erin: User, alice: User
) -> None:
    apply_ruling(case, club_moderator, Ruling.Kind.DISMISS)
    anonymous = Client().get(outcome_url(case))
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    for outsider in (erin, club_moderator, UserFactory()):
        assert client_as(outsider).get(outcome_url(case)).status_code == 404
    assert client_as(alice).get(reverse("moderation:appeal_new", args=[99_999])).status_code == 404


def test_the_outcome_page_answers_only_get_and_post(case: Case, bob: User) -> None:
    assert client_as(bob).put(outcome_url(case)).status_code == 405


def test_before_any_ruling_the_page_says_the_case_is_with_the_moderators(
    case: Case, bob: User
) -> None:
    html = client_as(bob).get(outcome_url(case)).content.decode()
    assert "No ruling yet" in html
    assert "you can appeal once the moderators decide" in html
    assert 'name="text"' not in html


def test_a_suspended_member_reads_their_own_suspension_and_nobody_else_does(
    case: Case, bob: User, dave: User, club_moderator: User, running: RunningSeason
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from moderation.models import Suspension

    ruling = apply_ruling(case, club_moderator, Ruling.Kind.SUSPEND, target=dave)
    now = timezone.now()
    Suspension.objects.create(
        user=dave, club=running.club, ruling=ruling, starts_at=now, ends_at=now + timedelta(days=7)
    )
    assert "Suspended from Tile Club" in client_as(dave).get(outcome_url(case)).content.decode()
    assert "Suspended from" not in client_as(bob).get(outcome_url(case)).content.decode()


# --- the result's history ---------------------------------------------------------------


def test_every_result_row_written_is_in_the_results_history_with_who_and_why(
    case: Case, club_moderator: User
) -> None:
    played = result_history(case.game_id)
    assert [change.changed for change in played] == [False, False]
    assert {change.source for change in played} == {"Played"}
    apply_ruling(case, club_moderator, corrections={1: SeatCorrection(score=25, is_winner=True)})
    history = result_history(case.game_id)
    corrected = [change for change in history if change.changed]
    assert {change.seat for change in corrected} == {0, 1}
    dave_row = next(change for change in corrected if change.seat == 1)
    assert dave_row.score == 25 and dave_row.is_winner and dave_row.place == 1
    assert dave_row.reason == NOTE and dave_row.by == str(club_moderator)
    assert dave_row.before is not None and dave_row.before[2] is False
    current = Result.objects.current().of_game(case.game)
    assert {row.pk for row in current} <= {
        event.pgh_obj_id
        for event in Result.pgh_event_model.objects.filter(game_id=case.game_id)  # type: ignore[attr-defined]
    }
