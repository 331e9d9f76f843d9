"""A moderator of a chat-abuse case hides the reported message from the table: the
table's chat no longer shows it, the evidence keeps it, and the log says who did it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import ChatMessage, Game
from games.selectors.chat import table_chat
from moderation.models import Case, Category, LogEntry
from moderation.services.filing import file_message_report
from tests.conftest import client_as
from tests.moderation.evidence_support import claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def message(league_game: Game, dave: User) -> ChatMessage:
    return ChatMessage.objects.create(
        table=league_game.table, game=league_game, turn_number=2, author=dave, text="Potato."
    )


@pytest.fixture
def abuse_case(message: ChatMessage, bob: User) -> Case:
    return file_message_report(message.pk, bob, Category.ABUSE, "Insulting.").case


def hide_url(case: Case, message: ChatMessage) -> str:
    return reverse("moderation:hide_message", args=[case.pk, message.pk])


def test_the_cases_moderator_hides_the_message_and_shows_it_again(
    abuse_case: Case, message: ChatMessage, bob: User, club_moderator: User
) -> None:
    claim(abuse_case, club_moderator)
    client = client_as(club_moderator)
    hub = client.get(reverse("moderation:case", args=[abuse_case.pk])).content.decode()
    assert "Hide it from the table" in hub

    response = client.post(hide_url(abuse_case, message), {"hidden": "1"}, follow=True)

    message.refresh_from_db()
    assert message.hidden_at is not None
    assert "hidden from the table" in response.content.decode()
    assert "Show it at the table again" in response.content.decode()
    assert "Potato." not in [line.text for line in table_chat(message.table, bob).lines]
    entry = LogEntry.objects.get(case=abuse_case, action=LogEntry.Action.MESSAGE_HIDDEN)
    assert entry.actor == club_moderator
    assert entry.changes == {"message": message.pk, "hidden": True}

    client.post(hide_url(abuse_case, message), {"hidden": "0"})
    message.refresh_from_db()
    assert message.hidden_at is None
    assert "Potato." in [line.text for line in table_chat(message.table, bob).lines]


def test_only_the_moderator_holding_the_case_hides_it(
    abuse_case: Case, message: ChatMessage, bob: User, dave: User, club_moderator: User
) -> None:
    # Not claimed yet: the moderator is told to claim it; the parties learn nothing.
    assert client_as(club_moderator).post(hide_url(abuse_case, message)).status_code == 403
    assert client_as(bob).post(hide_url(abuse_case, message)).status_code == 404
    assert client_as(dave).post(hide_url(abuse_case, message)).status_code == 404
    claim(abuse_case, club_moderator)
    assert client_as(club_moderator).get(hide_url(abuse_case, message)).status_code == 405
    bad = client_as(club_moderator).post(hide_url(abuse_case, message), {"hidden": "maybe"})
    assert bad.status_code == 400

    message.refresh_from_db()
    assert message.hidden_at is None
    assert not LogEntry.objects.filter(action=LogEntry.Action.MESSAGE_HIDDEN).exists()


def test_a_message_not_reported_in_the_case_is_refused(
    abuse_case: Case, league_game: Game, bob: User, club_moderator: User
) -> None:
    other = ChatMessage.objects.create(
        table=league_game.table, game=league_game, turn_number=2, author=bob, text="Hello."
    )
    claim(abuse_case, club_moderator)

    response = client_as(club_moderator).post(hide_url(abuse_case, other), {"hidden": "1"})

    assert response.status_code == 400
    assert "was not reported in this case" in response.content.decode()
    other.refresh_from_db()
    assert other.hidden_at is None
