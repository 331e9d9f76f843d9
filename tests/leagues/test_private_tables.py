"""A private club's fixture tables through the games pages (security review wave 2,
finding 1): its members and the fixture's players see them, nobody else does.

Every door of a table and its game (the table page, the game page, each action, the
replay, the chat) answers an outsider 404, as the club's own pages do, and changes
nothing; a player who is no member of the club sees the table but not the club's name
or address.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.conf import hidden_belongs_to
from games.models import ChatMessage, ChatMute, Game, Move, Seat, Table
from games.selectors import listing
from games.selectors.sight import Sight, table_sight
from games.services import chat
from leagues.models import Club, Membership
from leagues.notices import LeagueNotice
from leagues.services import clubs
from leagues.services.matchdays import open_matchday
from leagues.services.organiser import replace_player
from notifications.selectors.notices import notification_list
from notifications.services import notices
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import (
    RunningSeason,
    add_member,
    make_season,
    running_season,
    scheduled_fixture,
)

pytestmark = pytest.mark.django_db

marking = import_module("leagues.migrations.0003_private_fixture_tables")

LEAGUE_NAME = "Winter league, season 1"


@pytest.fixture
def private(alice: User, bob: User, dave: User, erin: User) -> RunningSeason:
    """Alice's private club "Back Room": fixtures bob-dave and erin-alice, 2 games each."""
    season = running_season(alice, [bob, dave, erin, alice], private=True, slug="back-room")
    for fixture in season.fixtures:
        assert fixture.table is not None
        fixture.table.belongs_to = f"{LEAGUE_NAME}, matchday 1"
        fixture.table.belongs_to_link = "/clubs/back-room/winter/1/"
        fixture.table.save(update_fields=["belongs_to", "belongs_to_link"])
    return season


@pytest.fixture
def table(private: RunningSeason) -> Table:
    found = private.fixtures[0].table
    assert found is not None
    return found


@pytest.fixture
def game(table: Table) -> Game:
    return current_game(table)


@pytest.fixture
def mallory(rival: User) -> User:
    """A member (the owner) of another club only."""
    return rival


@pytest.fixture
def mia(private: RunningSeason) -> User:
    """A plain member of the private club, who plays in no fixture."""
    user = UserFactory(username="mia", display_name="Mia")
    add_member(private.club, user)
    return user


def gets(table: Table, game: Game) -> list[str]:
    return [
        reverse("games:table", args=[table.pk]),
        reverse("games:current", args=[table.pk]),
        reverse("games:game", args=[game.pk]),
        reverse("games:hint", args=[game.pk]),
        reverse("games:replay", args=[game.pk]),
        reverse("games:replay_analysis", args=[game.pk]),
    ]


def posts(table: Table, game: Game) -> list[tuple[str, dict[str, Any]]]:
    version = {"version": game.version}
    table_posts = [
        ("games:join", {}),
        ("games:cancel_table", {}),
        ("games:change_seat", {"seat": 0, "occupant": "open"}),
        ("games:play_again", {}),
        ("games:chat_say", {"text": "hello from outside"}),
        ("games:chat_mute", {"member": 0}),
        ("games:chat_unmute", {"member": 0}),
    ]
    game_posts = [
        ("games:move", {"tiles": "R1", "target": "new"}),
        ("games:reset", {}),
        ("games:undo", {}),
        ("games:play", version),
        ("games:draw", version),
        ("games:pass", version),
        ("games:discard", {**version, "tile": "R1"}),
        ("games:river", {**version, "index": 0}),
        ("games:use_hint", {"table": "[]"}),
        ("games:arrange", {"tiles": "R1"}),
        ("games:resign", {}),
    ]
    return [(reverse(name, args=[table.pk]), data) for name, data in table_posts] + [
        (reverse(name, args=[game.pk]), data) for name, data in game_posts
    ]


def state(table: Table, game: Game) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    game.refresh_from_db()
    table.refresh_from_db()
    return (
        game.version,
        game.status,
        table.status,
        Move.objects.filter(game__table=table).count(),
        ChatMessage.objects.count(),
        ChatMute.objects.count(),
        Table.objects.count(),
        list(Seat.objects.filter(table=table).values_list("number", "kind", "user_id")),
    )


def test_a_member_of_another_club_finds_no_door_of_a_private_clubs_table(
    table: Table, game: Game, mallory: User, bob: User
) -> None:
    chat.say(table.pk, bob, "our table only")
    other = client_as(mallory)
    before = state(table, game)

    for path in gets(table, game):
        assert other.get(path).status_code == 404, path
        assert other.get(path, HTTP_HX_REQUEST="true").status_code == 404, path
    for path, data in posts(table, game):
        assert other.post(path, data).status_code == 404, path
        assert other.post(path, data, HTTP_HX_REQUEST="true").status_code == 404, path

    assert state(table, game) == before


def test_a_visitor_is_sent_to_log_in_and_changes_nothing(
    client: Client, table: Table, game: Game
) -> None:
    before = state(table, game)

    for path in gets(table, game):
        assert client.get(path).status_code == 302, path
    for path, data in posts(table, game):
        assert client.post(path, data).status_code == 302, path

    assert state(table, game) == before


def test_the_wrong_method_is_refused_before_anything(
    table: Table, game: Game, mallory: User
) -> None:
    other = client_as(mallory)
    assert other.get(reverse("games:chat_say", args=[table.pk])).status_code == 405
    assert other.post(reverse("games:table", args=[table.pk])).status_code == 405


def test_a_plain_member_of_the_club_watches_and_reads_the_league(
    table: Table, game: Game, mia: User
) -> None:
    member = client_as(mia)

    table_page = member.get(reverse("games:table", args=[table.pk]))
    game_page = member.get(reverse("games:game", args=[game.pk]))

    for page in (table_page, game_page):
        assert page.status_code == 200
        assert LEAGUE_NAME in page.content.decode()
        assert "/clubs/back-room/winter/1/" in page.content.decode()
    assert table_sight(mia, table) == Sight.FULL


def test_a_member_of_the_club_may_chat_at_its_table(table: Table, mia: User) -> None:
    member = client_as(mia)

    member.post(reverse("games:chat_say", args=[table.pk]), {"text": "go bob"})

    assert ChatMessage.objects.filter(table=table, author=mia).exists()


def test_a_player_plays_at_their_fixture(game: Game, bob: User) -> None:
    player = client_as(bob)

    page = player.get(reverse("games:game", args=[game.pk]))
    drawn = player.post(reverse("games:draw", args=[game.pk]), {"version": game.version})

    assert page.status_code == 200
    assert drawn.status_code == 302
    assert Move.objects.filter(game=game).count() == 1


def test_a_player_who_left_the_club_sees_the_table_but_not_the_club(
    private: RunningSeason, table: Table, game: Game, dave: User
) -> None:
    Membership.objects.filter(club=private.club, user=dave).delete()
    player = client_as(dave)

    pages = [
        player.get(reverse("games:table", args=[table.pk])),
        player.get(reverse("games:game", args=[game.pk])),
    ]

    assert table_sight(dave, table) == Sight.TABLE
    for page in pages:
        html = page.content.decode()
        assert page.status_code == 200
        assert LEAGUE_NAME not in html
        assert "back-room" not in html
        assert hidden_belongs_to().replace("'", "&#x27;") in html


def test_a_substitute_and_the_player_they_replaced_both_see_the_table(
    private: RunningSeason, table: Table, game: Game, alice: User, dave: User
) -> None:
    sub = UserFactory(username="sub", display_name="Sub")
    add_member(private.club, sub)
    replace_player(private.entries[1], sub, alice, "Dave is away")
    Membership.objects.filter(club=private.club, user=dave).delete()

    assert client_as(sub).get(reverse("games:game", args=[game.pk])).status_code == 200
    assert table_sight(sub, table) == Sight.FULL
    # Dave's seat is Sub's now; his entry still plays the fixture.
    assert not Seat.objects.filter(table=table, user=dave).exists()
    assert table_sight(dave, table) == Sight.TABLE


def test_a_removed_member_who_never_played_there_no_longer_sees_it(
    private: RunningSeason, table: Table, mia: User
) -> None:
    Membership.objects.filter(club=private.club, user=mia).delete()

    assert table_sight(mia, table) == Sight.NONE


def test_lists_never_show_a_private_clubs_game_to_others(
    game: Game, mallory: User, mia: User, bob: User
) -> None:
    assert game.pk not in {row.id for row in listing.games_to_watch(mallory)}
    assert game.pk not in {row.id for row in listing.games_to_watch(mia)}
    assert game.pk in {row.id for row in listing.my_games(bob)}
    assert Table.objects.visible_to(mallory).filter(pk=game.table_id).count() == 0
    assert Table.objects.visible_to(bob).filter(pk=game.table_id).count() == 1


def test_a_public_clubs_game_is_listed_to_watch(alice: User, bob: User, mallory: User) -> None:
    public = running_season(alice, [bob, alice], slug="open-club")
    table = public.fixtures[0].table
    assert table is not None and not table.private

    assert current_game(table).pk in {row.id for row in listing.games_to_watch(mallory)}


def test_the_club_going_public_or_private_carries_its_tables_along(
    private: RunningSeason, table: Table, alice: User, mallory: User
) -> None:
    club = private.club

    clubs.update_club(club, alice, name=club.name, description="", is_private=False)
    table.refresh_from_db()
    opened = table_sight(mallory, table)
    clubs.update_club(club, alice, name=club.name, description="", is_private=True)
    table.refresh_from_db()

    assert opened == Sight.FULL
    assert table.private
    assert table_sight(mallory, table) == Sight.NONE


def test_opening_a_matchday_marks_a_private_clubs_tables(
    league_club: Club, alice: User, bob: User, carol: User
) -> None:
    Club.objects.filter(pk=league_club.pk).update(is_private=True)
    season = make_season(league_club, [alice, bob, carol], seats=3)
    fixture = scheduled_fixture(season, 1, [alice, bob, carol])

    open_matchday(fixture.matchday)

    fixture.refresh_from_db()
    assert fixture.table is not None
    assert fixture.table.private


def test_a_notification_about_a_table_one_may_no_longer_see_has_no_link(
    private: RunningSeason, table: Table, mia: User
) -> None:
    link = reverse("games:table", args=[table.pk])
    notices.create(mia.pk, LeagueNotice.CLUB_NEWS, "Come and watch.", link, subject=table)
    game_link = reverse("games:game", args=[current_game(table).pk])
    notices.create(
        mia.pk, LeagueNotice.CLUB_NEWS, "The game.", game_link, subject=current_game(table)
    )
    before = [item.url for item in notification_list(mia)]
    Membership.objects.filter(club=private.club, user=mia).delete()

    assert sorted(before) == sorted([link, game_link])
    assert [item.url for item in notification_list(mia)] == ["", ""]
    page = client_as(mia).get(reverse("notifications:list"))
    assert link not in page.content.decode()
    assert "Come and watch." in page.content.decode()


def test_the_data_migration_marks_the_tables_of_private_clubs_fixtures(
    private: RunningSeason, alice: User, bob: User
) -> None:
    public = running_season(alice, [bob, alice], slug="open-club")
    Table.objects.update(private=False)

    marking.mark_private(apps, None)

    assert set(Table.objects.filter(private=True)) == {f.table for f in private.fixtures}
    assert not Table.objects.filter(pk=public.fixtures[0].table_id, private=True).exists()
