"""Moderation at a private club's tables (security review wave 2, findings 1, 3 and 15):
a site moderator sees such a table (not its club) only while a case about it exists, and
the report pages show and accept only what the member could read at the table."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.models import User
from games.models import ChatMessage, Game
from games.selectors.chat import may_read_message
from games.selectors.sight import Sight, table_sight
from leagues.models import Club
from leagues.services import clubs
from moderation.errors import NotFound
from moderation.models import Case, Category, Report
from moderation.services.filing import Filing, file_game_report, file_message_report
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason, add_member, rival
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db

__all__ = ["rival"]  # a fixture of the leagues tests


@pytest.fixture
def private_club(running: RunningSeason) -> Club:
    """``running``'s club made private, as its owner would."""
    club = running.club
    return clubs.update_club(
        club, running.organiser, name=club.name, description="", is_private=True
    )


@pytest.fixture
def mallory(rival: User) -> User:
    """A member (the owner) of another club only."""
    return rival


def say(game: Game, author: User, text: str, audience: str = "players") -> ChatMessage:
    return ChatMessage.objects.create(
        table=game.table, game=game, author=author, audience=audience, text=text
    )


def pages(game: Game) -> list[str]:
    return [f"/games/tables/{game.table_id}/", f"/games/{game.pk}/", f"/games/{game.pk}/replay/"]


def test_a_site_moderator_sees_a_private_table_only_through_a_case(
    private_club: Club, league_game: Game, site_moderator: User, bob: User
) -> None:
    league_game.table.refresh_from_db()
    before = [client_as(site_moderator).get(path).status_code for path in pages(league_game)]
    open_case(league_game, bob)
    after = [client_as(site_moderator).get(path) for path in pages(league_game)]

    assert before == [404, 404, 404]
    assert [page.status_code for page in after] == [200, 200, 200]
    assert table_sight(site_moderator, league_game.table) == Sight.TABLE
    for page in after[:2]:
        assert "Winter league" not in page.content.decode()


def test_a_club_moderator_sees_the_club_as_a_member(
    private_club: Club, league_game: Game, club_moderator: User
) -> None:
    league_game.table.refresh_from_db()
    assert table_sight(club_moderator, league_game.table) == Sight.FULL
    assert client_as(club_moderator).get(f"/games/{league_game.pk}/").status_code == 200


def test_an_outsider_cannot_report_a_private_clubs_message(
    private_club: Club, league_game: Game, mallory: User, dave: User
) -> None:
    message = say(league_game, dave, "Only for the club.")
    page = f"/moderation/report/message/{message.pk}/"

    shown = client_as(mallory).get(page)
    posted = client_as(mallory).post(page, {"category": "abuse", "text": "Rude."})
    with pytest.raises(NotFound):
        file_message_report(message.pk, mallory, Category.ABUSE, "Rude.")

    assert (shown.status_code, posted.status_code) == (404, 404)
    assert "Only for the club." not in shown.content.decode()
    assert not Case.objects.exists() and not Report.objects.exists()


def test_an_outsider_cannot_open_a_private_clubs_game_report(
    private_club: Club, league_game: Game, mallory: User
) -> None:
    page = f"/moderation/report/game/{league_game.pk}/"

    assert client_as(mallory).get(page).status_code == 404
    with pytest.raises(NotFound):
        file_game_report(league_game.pk, mallory, Filing(Category.BUG, "Broken.", 1))
    assert not Case.objects.exists()


def test_a_player_who_left_the_club_reports_without_reading_the_club(
    private_club: Club, league_game: Game, bob: User
) -> None:
    private_club.memberships.filter(user=bob).delete()

    page = client_as(bob).get(f"/moderation/report/game/{league_game.pk}/")

    assert page.status_code == 200
    assert "Winter league" not in page.content.decode()


def test_a_hidden_message_is_not_shown_on_the_report_page(
    league_game: Game, bob: User, dave: User, erin: User
) -> None:
    message = say(league_game, dave, "HIDDEN-LINE")
    message.hidden_at = timezone.now()
    message.save(update_fields=["hidden_at"])

    for reader in (bob, erin):
        page = client_as(reader).get(f"/moderation/report/message/{message.pk}/")
        assert page.status_code == 404
        assert "HIDDEN-LINE" not in page.content.decode()
    with pytest.raises(NotFound):
        file_message_report(message.pk, bob, Category.ABUSE, "Rude.")
    assert not Case.objects.exists()


def test_a_public_message_is_read_by_anyone_and_the_spectators_side_not_by_players(
    league_game: Game, bob: User, dave: User, erin: User
) -> None:
    stranger = UserFactory()
    table_line = say(league_game, dave, "Good luck.")
    side_talk = say(league_game, erin, "Bob should lay his run.", audience="spectators")

    assert may_read_message(stranger, table_line)
    assert may_read_message(stranger, side_talk)
    assert not may_read_message(bob, side_talk)
    page = client_as(stranger).get(f"/moderation/report/message/{table_line.pk}/")
    assert page.status_code == 200


def test_a_member_of_the_private_club_may_report_its_message(
    private_club: Club, league_game: Game, dave: User
) -> None:
    mia = UserFactory(username="mia")
    add_member(private_club, mia)
    message = say(league_game, dave, "Rude words.")

    report = file_message_report(message.pk, mia, Category.ABUSE, "Rude.")

    assert report.case.accused == dave
