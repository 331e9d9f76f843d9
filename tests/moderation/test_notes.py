"""Private notes between a case's moderators: its moderators add and read them on the
case page; a correction is a new note; the database refuses to change or delete one;
the log says a note was added, never its words; parties (even a party who moderates),
strangers and visitors never write or read them, on any page, fragment or
notification."""

from __future__ import annotations

import pytest
from django.db import ProgrammingError, connection, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.models import Case, CaseNote, Category, LogEntry
from notifications.models import Notification
from tests.conftest import client_as
from tests.factories import ClubFactory, RulingFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db

SECRET = "His brother plays from the same flat."


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User, dave: User) -> Case:
    return open_case(league_game, bob, Category.COLLUSION, fixture=league_fixture, accused=dave)


def note_url(case: Case) -> str:
    return reverse("moderation:add_note", args=[case.pk])


def test_a_moderator_adds_a_note_that_the_case_page_shows_and_the_log_names_without_its_words(
    case: Case, club_moderator: User, site_moderator: User
) -> None:
    response = client_as(club_moderator).post(note_url(case), {"text": SECRET})
    assert response.status_code == 302
    assert response["Location"] == reverse("moderation:case", args=[case.pk]) + "#notes"
    note = CaseNote.objects.get()
    assert (note.case, note.author, note.text, note.corrects) == (
        case,
        club_moderator,
        SECRET,
        None,
    )
    page = client_as(site_moderator).get(reverse("moderation:case", args=[case.pk]))
    assert SECRET in page.content.decode()
    [entry] = LogEntry.objects.filter(action=LogEntry.Action.NOTE_ADDED)
    assert (entry.actor, entry.case, entry.club_id) == (club_moderator, case, case.club_id)
    said = f"Mo added a private note to case {case.pk} (note {note.pk}; its words are on"
    assert entry.summary == f"{said} the case's page)."
    assert SECRET not in f"{entry.summary} {entry.reason} {entry.changes}"


def test_a_correction_is_a_new_note_naming_the_one_it_corrects_and_no_note_changes(
    case: Case, club_moderator: User
) -> None:
    client = client_as(club_moderator)
    client.post(note_url(case), {"text": "Seat 2 passed on turn 7."})
    first = CaseNote.objects.get()
    client.post(note_url(case), {"text": "Turn 8, not 7.", "corrects": str(first.pk)})
    second = CaseNote.objects.exclude(pk=first.pk).get()
    assert second.corrects == first
    first.refresh_from_db()
    assert first.text == "Seat 2 passed on turn 7."
    page = client.get(reverse("moderation:case", args=[case.pk])).content.decode()
    assert f'corrects <a href="#note-{first.pk}">note {first.pk}</a>' in page
    assert "correcting note" in LogEntry.objects.filter(action="note_added").first().summary
    for sql in (
        "UPDATE moderation_casenote SET text = 'changed' WHERE id = %s",
        "DELETE FROM moderation_casenote WHERE id = %s",
    ):
        with (
            # The app's role is refused the right; the owner (one role), the trigger.
            pytest.raises(ProgrammingError, match=r"permission denied|pgtrigger"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [first.pk])
    first.refresh_from_db()
    assert first.text == "Seat 2 passed on turn 7."


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"text": "  "}, "Write the note."),
        ({"text": "x" * 2001}, "at most 2000 characters"),
        ({"text": "A note.", "corrects": "abc"}, "Say which note"),
        ({"text": "A note.", "corrects": "9" * 30}, "Say which note"),
        ({"text": "A note.", "corrects": "12345"}, "an earlier note of the same case"),
    ],
)
def test_bad_input_is_refused_with_its_reason_and_adds_nothing(
    case: Case, club_moderator: User, data: dict[str, str], says: str
) -> None:
    response = client_as(club_moderator).post(note_url(case), data)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not CaseNote.objects.exists() and not LogEntry.objects.filter(action="note_added")


def test_a_note_of_another_case_cannot_be_corrected(
    case: Case, casual_game: Game, alice: User, club_moderator: User, site_moderator: User
) -> None:
    other = open_case(casual_game, alice, Category.ABUSE)
    client_as(site_moderator).post(note_url(other), {"text": "Elsewhere."})
    elsewhere = CaseNote.objects.get()
    response = client_as(site_moderator).post(
        note_url(case), {"text": "Hm.", "corrects": str(elsewhere.pk)}
    )
    assert response.status_code == 400
    assert CaseNote.objects.count() == 1


def test_who_may_not_add_a_note_is_refused_and_adds_nothing(
    case: Case, bob: User, dave: User, carol: User, running: RunningSeason
) -> None:
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    ClubFactory(name="Elsewhere", slug="elsewhere", owner=carol)
    assert Client().post(note_url(case), {"text": "x"}).status_code == 302  # to log in
    assert client_as(bob).post(note_url(case), {"text": "x"}).status_code == 403  # filer
    assert client_as(dave).post(note_url(case), {"text": "x"}).status_code == 403  # accused
    assert client_as(carol).post(note_url(case), {"text": "x"}).status_code == 404
    assert not CaseNote.objects.exists()


def test_parties_and_others_never_read_a_note_on_any_page_or_notification(
    case: Case,
    club_moderator: User,
    bob: User,
    dave: User,
    alice: User,
    carol: User,
    running: RunningSeason,
) -> None:
    """Dave (accused) moderates the club; bob filed; the case is decided and appealed,
    so every page a party reads exists: the case, its outcome, the appeal thread, their
    reports, the queue and the log."""
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    client_as(club_moderator).post(note_url(case), {"text": SECRET})
    ruling = RulingFactory(case=case, note="No collusion.", by=club_moderator)
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED, decided_at=ruling.created_at)
    appealed = client_as(bob).post(
        reverse("moderation:appeal_new", args=[case.pk]), {"text": "Please look again."}
    )
    assert appealed.status_code == 302
    pages = [
        reverse("moderation:case", args=[case.pk]),
        reverse("moderation:appeal_new", args=[case.pk]),
        appealed["Location"],
        reverse("moderation:my_cases"),
        reverse("moderation:queue"),
        reverse("moderation:appeals"),
        reverse("moderation:log"),
        reverse("moderation:archive"),
        reverse("moderation:member", args=["dave"]),
        reverse("notifications:list"),
    ]
    for viewer in (bob, dave, carol):
        client = client_as(viewer)
        for url in pages:
            response = client.get(url)
            assert SECRET not in response.content.decode(), (viewer, url)
            assert "Moderators' notes" not in response.content.decode(), (viewer, url)
    # alice owns the club and is no party: she reads it where the case's moderators do.
    assert SECRET in client_as(alice).get(pages[0]).content.decode()
    assert not Notification.objects.filter(text__contains="brother").exists()
    assert not LogEntry.objects.filter(summary__contains="brother").exists()
