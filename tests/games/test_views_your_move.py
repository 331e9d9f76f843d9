"""Your move: the page of games awaiting the member, the soonest deadline first, the
count in every page's nav, and "next game" in one click."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db

YOUR_MOVE = reverse("games:your_move")
NEXT = reverse("games:your_move_next")


def awaiting(user: User, in_hours: int, **settings: object) -> Game:
    """A game against a new member where it is ``user``'s turn, due in ``in_hours``."""
    other = UserFactory()
    game = current_game(start_table(user, other, **settings))
    if user_at(game, game.current_seat or 0) != user:
        services.draw(game.pk, other, game.version)
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() + timedelta(hours=in_hours))
    return Game.objects.get(pk=game.pk)


def game_url(game: Game) -> str:
    return reverse("games:game", kwargs={"pk": game.pk})


def test_the_page_lists_my_games_soonest_deadline_first(alice: User) -> None:
    late = awaiting(alice, 30, clock="correspondence")
    soon = awaiting(alice, 1)

    html = client_as(alice).get(YOUR_MOVE).text

    listed = [
        int(pk) for pk in re.findall(r'class="game-item your-move-item" data-game="(\d+)"', html)
    ]
    assert listed == [soon.pk, late.pk]
    assert "2 games awaiting you" in html
    first, second = html.split('data-game="')[1:3]
    assert f"Table {soon.table_id} · game 1 of" in first and ">Live<" in first
    assert f"Table {late.table_id} · game 1 of" in second and ">Correspondence<" in second
    opponent = str(user_at(late, 1 - (late.current_seat or 0)))
    assert f"against {opponent}" in second
    assert 'class="countdown countdown-small" datetime="' in first
    assert f'href="{game_url(soon)}"' in first
    assert f'href="{NEXT}"' in html


def test_games_waiting_for_someone_else_are_not_listed(alice: User, bob: User) -> None:
    mine = awaiting(alice, 2)
    awaiting(bob, 1)  # bob's turn, against a stranger

    html = client_as(alice).get(YOUR_MOVE).text

    assert re.findall(r'data-game="(\d+)"', html) == [str(mine.pk)]


def test_with_nothing_awaiting_the_page_points_to_the_lobby(alice: User) -> None:
    html = client_as(alice).get(YOUR_MOVE).text

    assert "No game is waiting for your move." in html
    assert f'href="{reverse("games:lobby")}">the lobby</a>' in html
    assert f'href="{NEXT}"' not in html


def test_next_goes_to_the_game_after_the_one_left(alice: User) -> None:
    soon, later = awaiting(alice, 1), awaiting(alice, 5)
    client = client_as(alice)

    assert client.get(NEXT)["Location"] == game_url(soon)
    assert client.get(NEXT, {"from": soon.pk})["Location"] == game_url(later)
    assert client.get(NEXT, {"from": later.pk})["Location"] == game_url(soon)
    assert client.get(NEXT, {"from": ""})["Location"] == game_url(soon)


@pytest.mark.parametrize("start", ["nonsense", "²", "-1", "9" * 5000, str(2**63)])
def test_next_from_something_that_is_no_id_is_a_bad_request(alice: User, start: str) -> None:
    awaiting(alice, 1)

    response = client_as(alice).get(NEXT, {"from": start})

    assert response.status_code == 400


def test_next_with_no_other_game_goes_back_to_the_list(alice: User, bob: User) -> None:
    only = awaiting(alice, 1)

    assert client_as(alice).get(NEXT, {"from": only.pk})["Location"] == YOUR_MOVE
    assert client_as(bob).get(NEXT)["Location"] == YOUR_MOVE


def test_the_nav_shows_the_count_in_its_own_link_on_every_page(alice: User) -> None:
    awaiting(alice, 1)
    awaiting(alice, 2)

    for path in (reverse("profile"), reverse("home"), YOUR_MOVE):
        html = client_as(alice).get(path).text
        link = re.search(
            r'<a href="([^"]+)"[^>]*class="nav-count-link nav-your-move">(.*?)</a>', html, re.S
        )
        assert link is not None, path
        assert link[1] == YOUR_MOVE
        assert 'id="your-move-count"' in link[2] and ">2</span>" in link[2]
        notices = html.split('class="nav-count-link nav-notices">')[1].split("</a>")[0]
        assert 'id="notification-count"' in notices and "your-move-count" not in notices
        assert html.count('ws-connect="/ws/notifications/"') == 1
        assert f'href="{reverse("games:lobby")}"' in html


def test_the_game_page_offers_the_next_game_only_when_another_awaits(alice: User) -> None:
    first = awaiting(alice, 1)
    client = client_as(alice)
    offer = f'href="{NEXT}?from={first.pk}">Next game awaiting you'

    assert offer not in client.get(game_url(first)).text

    second = awaiting(alice, 2)
    assert offer in client.get(game_url(first)).text
    assert f'href="{NEXT}?from={second.pk}"' in client.get(game_url(second)).text


def test_a_visitor_is_sent_to_log_in(client: Client) -> None:
    for path in (YOUR_MOVE, NEXT):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert "your-move-count" not in client.get(reverse("home")).text


@pytest.mark.parametrize("path", [YOUR_MOVE, NEXT])
def test_wrong_methods_are_refused(alice_client: Client, path: str) -> None:
    assert alice_client.post(path).status_code == 405


def test_the_page_is_never_stored_so_back_asks_again(alice: User) -> None:
    response = client_as(alice).get(YOUR_MOVE)

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


def test_the_page_asks_for_its_list_again_and_gets_the_list_alone(alice: User, bob: User) -> None:
    game = awaiting(alice, in_hours=24)
    page = client_as(alice).get(YOUR_MOVE).text
    assert 'id="your-move-page"' in page
    assert "htmx:wsAfterMessage from:body" in page

    part = client_as(alice).get(YOUR_MOVE, headers={"HX-Request": "true"})

    assert part.status_code == 200
    assert "<html" not in part.text
    assert part.text.lstrip().startswith('<div id="your-move-page"')
    assert f'data-game="{game.pk}"' in part.text
