"""A suspension holds at every door where a member takes part: sitting down (a seat, a
new table, Play now, Play again, a table's invitation), registering for a season, being
seated as a substitute, joining a club, filing a report, chatting and moving.

Each door is tried as a member suspended from the site and, where a club is concerned,
from the club: refused with a sentence and a 4xx, no row changed; a member whose
suspension does not hold there (another club's) still passes.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from accounts.models import User
from games import services
from games.errors import Barred
from games.models import ChatMessage, Game, Seat, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from leagues.models import (
    Club,
    ClubInvitation,
    Entry,
    JoinRequest,
    League,
    Membership,
    Pending,
    Role,
    Season,
)
from leagues.services import clubs
from moderation.models import Report
from notifications.models import Notification
from tests.conftest import client_as
from tests.factories import SeasonFactory, UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over
from tests.games.test_views_lobby import form_data
from tests.games.views_support import HTMX
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import suspend

pytestmark = pytest.mark.django_db

SUSPENDED = "You are suspended from"
SITE = "You are suspended from this site until"


def waiting_for(member: User) -> Table:
    """A new table of ``member`` with one seat still open."""
    return services.create_table(
        member, TableSettings(), [SeatPlan.taken_by(member), SeatPlan.open()]
    )


def table_url(name: str, table: Table) -> str:
    return reverse(f"games:{name}", kwargs={"pk": table.pk})


@pytest.fixture
def other_club(db: None) -> Club:
    return Club.objects.create(name="Other Club", slug="other-club")


# --- sitting down ---------------------------------------------------------------------------


def test_a_site_suspended_member_cannot_set_up_a_table(
    casual_game: Game, carol: User, site_moderator: User
) -> None:
    suspend(carol, casual_game, site_moderator)
    tables = Table.objects.count()

    with pytest.raises(Barred):
        services.create_table(
            carol, TableSettings(), [SeatPlan.taken_by(carol), SeatPlan.bot("easy")]
        )
    response = client_as(carol).post(reverse("games:new_table"), form_data(seat_2="bot_easy"))

    assert response.status_code == 403
    assert SITE in response.text
    assert Table.objects.count() == tables


def test_a_club_suspension_does_not_keep_a_member_from_a_casual_table(
    casual_game: Game, running: RunningSeason, carol: User, club_moderator: User
) -> None:
    suspend(carol, casual_game, club_moderator, club=running.club)

    table = services.create_table(
        carol, TableSettings(), [SeatPlan.taken_by(carol), SeatPlan.bot("easy")]
    )

    assert table.status == Table.Status.PLAYING


def test_play_now_refuses_a_suspended_member_with_a_403_page_and_seats_nobody(
    casual_game: Game, carol: User, site_moderator: User
) -> None:
    suspend(carol, casual_game, site_moderator)
    tables = Table.objects.count()

    response = client_as(carol).post(reverse("games:play_now"))

    assert response.status_code == 403
    assert SITE in response.text and "Nothing was done." in response.text
    assert Table.objects.count() == tables


def test_play_now_while_another_member_waits_is_a_403_not_a_500(
    casual_game: Game, carol: User, dave: User, site_moderator: User
) -> None:
    waiting = waiting_for(dave)
    suspend(carol, casual_game, site_moderator)

    response = client_as(carol).post(reverse("games:play_now"))
    htmx = client_as(carol).post(reverse("games:play_now"), **HTMX)

    assert response.status_code == 403 and SITE in response.text
    assert htmx.status_code == 403 and SITE in htmx.text and 'id="game-message"' in htmx.text
    assert not Seat.objects.filter(user=carol).exists()
    assert waiting.seats.filter(kind=Seat.Kind.OPEN).count() == 1


def test_play_now_still_seats_a_member_suspended_from_a_club_only(
    casual_game: Game, running: RunningSeason, carol: User, dave: User, club_moderator: User
) -> None:
    waiting = waiting_for(dave)
    suspend(carol, casual_game, club_moderator, club=running.club)

    response = client_as(carol).post(reverse("games:play_now"))

    assert response.status_code == 302
    assert waiting.seats.filter(user=carol, kind=Seat.Kind.PLAYER).exists()


@pytest.fixture
def finished(alice: User, bob: User) -> Table:
    table = start_table(alice, bob, games_in_round=1)
    play_until_over(current_game(table), random.Random(3))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def test_play_again_refuses_a_suspended_player_as_a_page_and_for_htmx(
    finished: Table, casual_game: Game, bob: User, site_moderator: User
) -> None:
    suspend(bob, casual_game, site_moderator)

    page = client_as(bob).post(table_url("play_again", finished))
    htmx = client_as(bob).post(table_url("play_again", finished), **HTMX)

    assert page.status_code == 403 and SITE in page.text
    assert htmx.status_code == 403 and SITE in htmx.text and 'id="game-message"' in htmx.text
    assert not Table.objects.filter(rematch_of=finished).exists()


def test_play_again_at_the_table_another_player_set_up_refuses_the_suspended_one(
    finished: Table, casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    again = services.play_again(finished.pk, alice)
    suspend(bob, casual_game, site_moderator)

    response = client_as(bob).post(table_url("play_again", finished))

    assert response.status_code == 403 and SITE in response.text
    assert again.seats.get(user=bob).kind == Seat.Kind.RESERVED


def test_a_suspended_member_cannot_accept_a_tables_invitation(
    casual_game: Game, alice: User, carol: User, site_moderator: User
) -> None:
    invited = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(carol)]
    )
    suspend(carol, casual_game, site_moderator)

    response = client_as(carol).post(table_url("join", invited))

    assert response.status_code == 403 and SITE in response.text
    assert invited.seats.get(user=carol).kind == Seat.Kind.RESERVED
    invited.refresh_from_db()
    assert invited.status == Table.Status.OPEN


# --- chatting and moving at a club's fixture ----------------------------------------------------


def test_a_club_suspension_stops_chat_and_moves_at_the_clubs_fixture_only(
    running: RunningSeason, casual_game: Game, bob: User, club_moderator: User
) -> None:
    fixture_table = running.fixtures[0].table
    assert fixture_table is not None
    game = current_game(fixture_table)
    suspend(bob, casual_game, club_moderator, club=running.club)

    said = client_as(bob).post(table_url("chat_say", fixture_table), {"text": "hi"}, **HTMX)
    moved = client_as(bob).post(
        reverse("games:draw", kwargs={"pk": game.pk}), {"version": game.version}, **HTMX
    )
    casual = client_as(bob).post(table_url("chat_say", casual_game.table), {"text": "hi"}, **HTMX)

    assert said.status_code == 403 and f"{SUSPENDED} the club {running.club}" in said.text
    assert moved.status_code == 403 and "cannot play here" in moved.text
    assert list(ChatMessage.objects.values_list("table_id", flat=True)) == [casual_game.table_id]
    assert casual.status_code == 200
    game.refresh_from_db()
    assert game.version == 0


def test_a_site_suspended_member_cannot_chat_page_or_htmx(
    casual_game: Game, bob: User, site_moderator: User
) -> None:
    suspend(bob, casual_game, site_moderator)

    page = client_as(bob).post(table_url("chat_say", casual_game.table), {"text": "hi"})

    assert page.status_code == 403 and SITE in page.text
    assert not ChatMessage.objects.exists()


# --- registering, substitutes -----------------------------------------------------------------


@pytest.fixture
def open_season(running: RunningSeason) -> Season:
    """A second league of the running club, its season taking registrations."""
    league = League.objects.create(
        club=running.club, name="Spring", slug="spring", seats=2, table_settings={}
    )
    return SeasonFactory(league=league)


def register_url(season: Season) -> str:
    return f"/clubs/{season.league.club.slug}/{season.league.slug}/{season.number}/register/"


@pytest.mark.parametrize("where", ["site", "club"])
def test_a_suspended_member_cannot_register_for_a_season(
    open_season: Season, casual_game: Game, bob: User, site_moderator: User, where: str
) -> None:
    club = open_season.league.club if where == "club" else None
    suspend(bob, casual_game, site_moderator, club=club)

    response = client_as(bob).post(register_url(open_season))

    assert response.status_code == 403
    assert SUSPENDED in response.text and "cannot register for a season" in response.text
    assert not Entry.objects.filter(season=open_season).exists()


def test_a_member_suspended_from_another_club_registers(
    open_season: Season, other_club: Club, casual_game: Game, bob: User, site_moderator: User
) -> None:
    suspend(bob, casual_game, site_moderator, club=other_club)

    response = client_as(bob).post(register_url(open_season))

    assert response.status_code == 302
    assert Entry.objects.get(season=open_season).user == bob


@pytest.mark.parametrize("where", ["site", "club"])
def test_the_organiser_is_told_a_substitute_is_suspended(
    running: RunningSeason, casual_game: Game, site_moderator: User, where: str
) -> None:
    frank = UserFactory(username="frank", display_name="Frank")
    Membership.objects.create(club=running.club, user=frank)
    suspend(frank, casual_game, site_moderator, club=running.club if where == "club" else None)
    entry = running.entries[0]
    path = reverse("leagues:replace_player", args=["tile-club", "winter", 1, entry.pk])

    response = client_as(running.organiser).post(path, {"username": "frank", "reason": "Moved."})

    assert response.status_code == 403
    assert "Frank is suspended from" in response.text
    assert "so they cannot be seated as a substitute" in response.text
    entry.refresh_from_db()
    assert entry.substitute is None
    assert not Seat.objects.filter(user=frank).exists()


# --- joining a club ---------------------------------------------------------------------------


@pytest.fixture
def sam(db: None) -> User:
    return UserFactory(username="sam", display_name="Sam")


def club_url(name: str, club: Club, **kwargs: object) -> str:
    return reverse(f"leagues:{name}", kwargs={"slug": club.slug, **kwargs})


@pytest.mark.parametrize("where", ["site", "club"])
def test_a_suspended_member_cannot_join_by_the_clubs_link(
    running: RunningSeason, casual_game: Game, sam: User, site_moderator: User, where: str
) -> None:
    club = running.club
    suspend(sam, casual_game, site_moderator, club=club if where == "club" else None)

    response = client_as(sam).post(club_url("join_link", club, code=club.invite_code))

    assert response.status_code == 403
    assert SUSPENDED in response.text and "cannot join this club" in response.text
    assert not Membership.objects.filter(club=club, user=sam).exists()


def test_a_member_suspended_from_another_club_joins_by_link(
    running: RunningSeason, other_club: Club, casual_game: Game, sam: User, site_moderator: User
) -> None:
    suspend(sam, casual_game, site_moderator, club=other_club)
    club = running.club

    response = client_as(sam).post(club_url("join_link", club, code=club.invite_code))

    assert response.status_code == 302
    assert Membership.objects.filter(club=club, user=sam).exists()


@pytest.mark.parametrize("where", ["site", "club"])
def test_a_suspended_member_cannot_accept_a_clubs_invitation(
    running: RunningSeason, casual_game: Game, sam: User, site_moderator: User, where: str
) -> None:
    club = running.club
    clubs.invite(club, running.organiser, "sam")
    suspend(sam, casual_game, site_moderator, club=club if where == "club" else None)

    response = client_as(sam).post(club_url("accept_invitation", club))

    assert response.status_code == 403
    assert SUSPENDED in response.text and "cannot join this club" in response.text
    assert ClubInvitation.objects.get(club=club, user=sam).status == Pending.PENDING
    assert not Membership.objects.filter(club=club, user=sam).exists()


@pytest.mark.parametrize("where", ["site", "club"])
def test_a_suspended_member_cannot_ask_to_join_a_club(
    running: RunningSeason, casual_game: Game, sam: User, site_moderator: User, where: str
) -> None:
    club = running.club
    suspend(sam, casual_game, site_moderator, club=club if where == "club" else None)
    told = Notification.objects.filter(user=running.organiser).count()

    response = client_as(sam).post(club_url("request_to_join", club), {"message": "Hello!"})

    assert response.status_code == 403
    assert SUSPENDED in response.text and "cannot join this club" in response.text
    assert not JoinRequest.objects.filter(club=club, user=sam).exists()
    assert Notification.objects.filter(user=running.organiser).count() == told


def test_an_organiser_cannot_let_in_a_suspended_member(
    running: RunningSeason, casual_game: Game, sam: User, site_moderator: User
) -> None:
    club = running.club
    join_request = clubs.request_to_join(club, sam, "Hello!")
    suspend(sam, casual_game, site_moderator)

    response = client_as(running.organiser).post(
        club_url("approve_request", club, pk=join_request.pk)
    )

    assert response.status_code == 403
    assert "Sam is suspended from this site" in response.text
    assert "so they cannot join this club" in response.text
    assert JoinRequest.objects.get(pk=join_request.pk).status == Pending.PENDING
    assert not Membership.objects.filter(club=club, user=sam).exists()
    assert Membership.objects.get(club=club, user=running.organiser).role == Role.OWNER


# --- filing a report ---------------------------------------------------------------------------


def report_url(game: Game) -> str:
    return f"/moderation/report/game/{game.pk}/"


def test_a_site_suspended_member_files_no_new_report(
    casual_game: Game, bob: User, site_moderator: User
) -> None:
    suspend(bob, casual_game, site_moderator)
    reports = Report.objects.count()

    response = client_as(bob).post(report_url(casual_game), {"category": "bug", "text": "Hm."})

    assert response.status_code == 403
    assert SITE in response.text and "cannot file new reports" in response.text
    assert Report.objects.count() == reports


def test_a_club_suspended_member_reports_no_game_of_the_club_but_a_casual_one(
    league_game: Game, casual_game: Game, bob: User, club_moderator: User, running: RunningSeason
) -> None:
    suspend(bob, casual_game, club_moderator, club=running.club)
    reports = Report.objects.count()

    refused = client_as(bob).post(report_url(league_game), {"category": "bug", "text": "Hm."})
    filed = client_as(bob).post(report_url(casual_game), {"category": "bug", "text": "Hm."})

    assert refused.status_code == 403 and "cannot file new reports" in refused.text
    assert filed.status_code == 302
    assert Report.objects.count() == reports + 1
