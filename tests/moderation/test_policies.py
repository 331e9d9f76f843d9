"""Suspensions enforced at the table: a suspended member cannot chat, sit down or move
where the suspension holds (the site, or the club's league tables), and can still log
in, watch and read."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.errors import Barred
from games.models import ChatMessage, Game, Seat, Table
from games.models.table_settings import TableSettings
from games.selectors.chat import table_chat
from games.services import SeatPlan, chat
from leagues.models import Fixture
from moderation.policies import may_chat, may_play, suspension_at
from tests.conftest import client_as
from tests.games.conftest import current_game
from tests.games.views_support import HTMX
from tests.moderation.conftest import suspend

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_table(league_fixture: Fixture) -> Table:
    assert league_fixture.table is not None
    return league_fixture.table


def test_a_member_without_a_suspension_may_chat_and_play(
    casual_game: Game, league_table: Table, bob: User
) -> None:
    for table in (casual_game.table, league_table):
        assert may_chat(bob, table) is None
        assert may_play(bob, table) is None


def test_a_site_suspension_holds_at_every_table_and_says_until_when(
    casual_game: Game, league_table: Table, bob: User, site_moderator: User
) -> None:
    suspend(bob, casual_game, site_moderator)

    for table in (casual_game.table, league_table):
        sentence = may_chat(bob, table)
        assert sentence is not None
        assert sentence.startswith("You are suspended from this site until ")
        assert "cannot chat here" in sentence
        assert "You can still watch, read and appeal the ruling." in sentence
        assert "cannot play here" in (may_play(bob, table) or "")


def test_a_club_suspension_holds_at_the_clubs_league_tables_only(
    casual_game: Game, league_table: Table, bob: User, club_moderator: User, running: object
) -> None:
    club = Fixture.objects.get(table=league_table).division.season.league.club
    suspend(bob, casual_game, club_moderator, club=club)

    assert f"suspended from the club {club}" in (may_play(bob, league_table) or "")
    assert may_play(bob, casual_game.table) is None
    assert may_chat(bob, casual_game.table) is None


def test_a_lifted_ended_or_future_suspension_does_not_hold(
    casual_game: Game, bob: User, site_moderator: User
) -> None:
    lifted = suspend(bob, casual_game, site_moderator)
    lifted.lifted_at = timezone.now()
    lifted.save()
    later = suspend(bob, casual_game, site_moderator)
    later.starts_at += timedelta(days=1)
    later.ends_at += timedelta(days=1)
    later.save()

    assert suspension_at(bob, casual_game.table) is None
    with time_machine.travel(timezone.now() + timedelta(days=9)):
        assert suspension_at(bob, casual_game.table) is None
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        assert suspension_at(bob, casual_game.table) == later


def test_of_two_suspensions_the_one_that_ends_last_is_told(
    casual_game: Game, bob: User, site_moderator: User
) -> None:
    suspend(bob, casual_game, site_moderator, days=3)
    longest = suspend(bob, casual_game, site_moderator, days=30)

    assert suspension_at(bob, casual_game.table) == longest


def test_a_suspended_player_cannot_move_or_chat_but_still_reads_and_watches(
    league_table: Table, league_fixture: Fixture, bob: User, site_moderator: User
) -> None:
    game = current_game(league_table)
    chat.say(league_table.pk, bob, "hello before")
    suspend(bob, game, site_moderator)
    assert game.current_seat == Seat.objects.get(table=league_table, user=bob).number

    with pytest.raises(Barred):
        services.draw(game.pk, bob, game.version)
    with pytest.raises(Barred):
        chat.say(league_table.pk, bob, "hello again")

    game.refresh_from_db()
    assert game.version == 0
    assert ChatMessage.objects.count() == 1
    assert [line.text for line in table_chat(league_table, bob).lines] == ["hello before"]
    page = client_as(bob).get(reverse("games:game", kwargs={"pk": game.pk}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "You are suspended from this site until" in html
    assert 'class="chat-form"' not in html
    assert "hello before" in html


def test_a_suspended_players_move_is_answered_403_with_the_sentence(
    league_table: Table, bob: User, site_moderator: User
) -> None:
    game = current_game(league_table)
    suspend(bob, game, site_moderator)

    response = client_as(bob).post(
        reverse("games:draw", kwargs={"pk": game.pk}), {"version": game.version}, **HTMX
    )

    assert response.status_code == 403
    assert "You are suspended from this site" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 0


def test_a_suspended_member_cannot_take_a_seat(
    casual_game: Game, alice: User, carol: User, site_moderator: User
) -> None:
    waiting = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )
    suspend(carol, casual_game, site_moderator)

    response = client_as(carol).post(reverse("games:join", kwargs={"pk": waiting.pk}))

    assert response.status_code == 403
    assert "You are suspended from this site" in response.content.decode()
    assert not Seat.objects.filter(table=waiting, user=carol).exists()
