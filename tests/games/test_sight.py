"""Who may see a table (:mod:`games.selectors.sight`), as games answers it by itself: a table
that is not private is seen by every member; a private one by whoever sits or sat at it,
and by whom ``GAMES_SIGHT_POLICY`` lets in (here none: the leagues' and moderation's
parts are tested with them)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings
from django.urls import reverse

from accounts.models import User
from games.conf import hidden_belongs_to
from games.models import ChatMessage, ChatMute, Game, Seat, Table
from games.selectors import listing
from games.selectors.chat import may_read_message, table_chat
from games.selectors.sight import Sight, belongs_to_for, sat_at, table_sight
from tests.conftest import client_as
from tests.games.views_support import HTMX

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_policy")]


@pytest.fixture
def no_policy() -> object:
    with override_settings(GAMES_SIGHT_POLICY="") as overridden:
        yield overridden


@pytest.fixture
def private_game(game: Game) -> Game:
    game.table.private = True
    game.table.belongs_to = "Back Room league, season 1"
    game.table.belongs_to_link = "/clubs/back-room/"
    game.table.save(update_fields=["private", "belongs_to", "belongs_to_link"])
    return game


def test_a_table_that_is_not_private_is_seen_in_full_by_any_member(game: Game, carol: User) -> None:
    assert table_sight(carol, game.table) == Sight.FULL
    assert table_sight(AnonymousUser(), game.table) == Sight.FULL


def test_a_private_table_is_seen_by_its_players_only_without_what_it_belongs_to(
    private_game: Game, alice: User, carol: User
) -> None:
    table = private_game.table

    assert table_sight(alice, table) == Sight.TABLE
    assert table_sight(carol, table) == Sight.NONE
    assert table_sight(AnonymousUser(), table) == Sight.NONE
    assert belongs_to_for(table, alice) == (hidden_belongs_to(), "")
    assert belongs_to_for(table, None) == (hidden_belongs_to(), "")


def test_a_player_replaced_by_a_bot_still_sat_at_the_table(private_game: Game, alice: User) -> None:
    Seat.objects.filter(table=private_game.table, user=alice).update(
        kind=Seat.Kind.BOT, user=None, bot_level="normal", replaced_user=alice
    )

    assert sat_at(alice, private_game.table_id)
    assert table_sight(alice, private_game.table) == Sight.TABLE


def test_the_game_page_of_a_private_table_answers_an_outsider_404(
    private_game: Game, alice: User, carol: User
) -> None:
    page = client_as(alice).get(reverse("games:game", args=[private_game.pk]))

    assert page.status_code == 200
    assert "Back Room" not in page.content.decode()
    assert "/clubs/back-room/" not in page.content.decode()
    assert client_as(carol).get(reverse("games:game", args=[private_game.pk])).status_code == 404


def test_a_private_table_is_in_no_list_of_an_outsider(
    private_game: Game, alice: User, carol: User
) -> None:
    assert private_game.pk not in {row.id for row in listing.games_to_watch(carol)}
    assert not Table.objects.visible_to(carol).filter(pk=private_game.table_id).exists()
    assert Table.objects.visible_to(alice).filter(pk=private_game.table_id).exists()
    row = next(row for row in listing.my_games(alice) if row.id == private_game.pk)
    assert row.belongs_to == hidden_belongs_to()


def test_muting_at_a_missing_table_answers_404_and_mutes_nobody(
    game: Game, alice: User, bob: User
) -> None:
    client = client_as(alice)
    missing = reverse("games:chat_mute", args=[999_999_999])

    assert client.post(missing, {"member": bob.pk}).status_code == 404
    assert client.post(missing, {"member": bob.pk}, **HTMX).status_code == 404
    assert not ChatMute.objects.exists()


def test_chatting_or_muting_at_a_table_one_may_not_see_answers_404(
    private_game: Game, bob: User, carol: User
) -> None:
    client = client_as(carol)
    for name, data in [("say", {"text": "hi"}), ("mute", {"member": bob.pk})]:
        url = reverse(f"games:chat_{name}", args=[private_game.table_id])
        assert client.post(url, data, **HTMX).status_code == 404
    assert not ChatMessage.objects.exists()
    assert not ChatMute.objects.exists()


def test_a_message_is_read_by_whom_the_panel_shows_it_to(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    table_line = ChatMessage.objects.create(table=game.table, game=game, author=bob, text="gl")
    side_talk = ChatMessage.objects.create(
        table=game.table, game=game, author=carol, text="psst", audience="spectators"
    )

    for reader in (alice, carol):
        shown = {line.pk for line in table_chat(game.table, reader).lines}
        for message in (table_line, side_talk):
            assert may_read_message(reader, message) == (message.pk in shown)
    assert not may_read_message(alice, side_talk)


def test_the_permission_asks_the_same_of_a_table_and_of_its_games(
    private_game: Game, alice: User, carol: User
) -> None:
    assert alice.has_perm("games.view_table", private_game.table)
    assert alice.has_perm("games.view_table", private_game)
    assert not carol.has_perm("games.view_table", private_game.table)
    assert not carol.has_perm("games.view_table", private_game)
