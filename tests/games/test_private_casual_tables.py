"""A casual table made private by its creator (walk W27): seen by its players and the
members invited to it, by nobody else, and never offered to watch. The sight is the one
rule of every private table (``games.selectors.sight``)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.errors import TableError
from games.models import Seat, Table
from games.services import SeatPlan
from tests.conftest import client_as
from tests.games.conftest import current_game, start_table
from tests.games.test_views_lobby import NEW, form_data

pytestmark = pytest.mark.django_db

LOBBY = reverse("games:lobby")
PRIVATE = form_data(seats=3, seat_2="invite", seat_2_user="bob", seat_3="bot_normal", private="on")


def private_table(creator: User) -> Table:
    response = client_as(creator).post(NEW, PRIVATE)
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.private
    return table


def status(member: User | None, name: str, pk: int) -> int:
    return client_as(member).get(reverse(f"games:{name}", args=[pk])).status_code


def watched_by(member: User) -> str:
    """The lobby's "Watch a game" list as ``member`` reads it."""
    page = client_as(member).get(LOBBY).text
    return page[page.index('id="watch-title"') :]


def test_the_new_table_form_offers_a_private_table(alice_client: Client) -> None:
    page = alice_client.get(NEW).text

    assert 'name="private"' in page
    assert "not listed under “Watch a game”" in page


def test_a_waiting_private_table_is_seen_by_its_creator_and_the_invited_only(
    alice: User, bob: User, carol: User
) -> None:
    table = private_table(alice)

    assert status(alice, "table", table.pk) == 200
    assert status(bob, "table", table.pk) == 200
    assert status(carol, "table", table.pk) == 404
    assert status(None, "table", table.pk) == 302  # to the log-in page
    assert f"Table {table.pk}" not in client_as(carol).get(LOBBY).text


def test_its_games_are_for_the_players_and_nobody_else_to_watch(
    alice: User, bob: User, carol: User
) -> None:
    table = private_table(alice)
    services.join_table(table.pk, bob)
    game = current_game(table)
    public = current_game(start_table(bob, alice))

    for player in (alice, bob):
        assert status(player, "game", game.pk) == 200
    assert status(carol, "game", game.pk) == 404
    assert status(None, "game", game.pk) == 302
    watch = watched_by(carol)
    assert reverse("games:game", args=[public.pk]) in watch
    assert reverse("games:game", args=[game.pk]) not in watch


def test_a_private_table_has_no_open_seat_nobody_could_find(alice: User, bob: User) -> None:
    response = client_as(alice).post(NEW, {**PRIVATE, "seat_3": "open"})

    assert response.status_code == 400
    assert "nobody would find an open seat: invite a member or seat a bot." in response.text
    assert not Table.objects.exists()


def test_a_table_is_public_unless_its_creator_says(alice: User, bob: User, carol: User) -> None:
    client_as(alice).post(NEW, {**PRIVATE, "private": ""})

    table = Table.objects.get()
    assert not table.private
    assert status(carol, "table", table.pk) == 200


def test_playing_again_keeps_the_table_private(alice: User, bob: User) -> None:
    table = private_table(alice)
    services.join_table(table.pk, bob)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)

    again = services.play_again(table.pk, bob)

    assert again.private


def test_its_creator_cannot_open_a_seat_of_it_later(alice: User, bob: User) -> None:
    table = private_table(alice)

    with pytest.raises(TableError, match="nobody would find an open seat"):
        services.change_seat(table.pk, alice, 2, SeatPlan.open())

    assert table.seats.get(number=2).kind == Seat.Kind.BOT
