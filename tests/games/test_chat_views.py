"""The chat's views: a player, their opponent, a spectator (the outsider), a visitor, and
the wrong method; what each page shows of the chat."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import User
from games.models import ChatMessage, ChatMute, Game, Table
from games.services import chat
from tests.conftest import client_as
from tests.games.views_support import HTMX

pytestmark = pytest.mark.django_db


def chat_url(name: str, table: Table) -> str:
    return reverse(f"games:chat_{name}", kwargs={"pk": table.pk})


@pytest.fixture
def table(game: Game) -> Table:
    return game.table


def say(client: Client, table: Table, text: str, **headers: str) -> Any:
    return client.post(chat_url("say", table), {"text": text}, **headers)


def test_a_player_says_something_and_gets_the_chat_back(table: Table, alice: User) -> None:
    response = say(client_as(alice), table, "<script>alert(1)</script> good luck", **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="table-chat-lines" hx-swap-oob="true"' in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; good luck" in html
    assert "<script>alert" not in html
    assert ChatMessage.objects.get().author == alice


def test_the_opponent_reads_it_on_the_game_page_with_mute_and_no_report_of_their_own(
    game: Game, alice: User, bob: User
) -> None:
    chat.say(game.table_id, alice, "good luck")
    chat.say(game.table_id, bob, "you too")

    page = client_as(bob).get(reverse("games:game", kwargs={"pk": game.pk})).content.decode()

    assert 'id="table-chat"' in page
    assert "good luck" in page and "you too" in page
    assert page.count('aria-label="Mute Alice"') == 1
    assert 'aria-label="Mute Bob"' not in page


def test_a_spectator_in_a_live_game_talks_to_spectators_only(
    game: Game, alice: User, carol: User
) -> None:
    response = say(client_as(carol), game.table, "nice move", **HTMX)

    assert response.status_code == 200
    assert "players do not see it" in response.content.decode()
    alices_page = client_as(alice).get(reverse("games:game", kwargs={"pk": game.pk}))
    assert "nice move" not in alices_page.content.decode()


def test_the_table_page_shows_the_chat_with_its_own_socket(table: Table, carol: User) -> None:
    chat.say(table.pk, carol, "watching")

    page = client_as(carol).get(reverse("games:table", kwargs={"pk": table.pk})).content.decode()

    assert f'ws-connect="/ws/tables/{table.pk}/chat/"' in page
    assert "watching" in page


def test_a_visitor_is_sent_to_log_in_and_nothing_is_said(client: Client, table: Table) -> None:
    response = say(client, table, "hello")

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("name", ["say", "mute", "unmute"])
def test_the_wrong_method_is_refused(table: Table, alice: User, name: str) -> None:
    response = client_as(alice).get(chat_url(name, table))

    assert response.status_code == 405


def test_a_too_long_message_is_refused_with_the_sentence(table: Table, alice: User) -> None:
    response = say(client_as(alice), table, "x" * 600, **HTMX)

    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="table-chat-error" class="chat-error" hx-swap-oob="true" role="alert"' in html
    assert "at most 500 characters; yours has 600." in html
    assert not ChatMessage.objects.exists()


@override_settings(GAMES_CHAT_BURST=(1, 60.0))
def test_past_the_burst_limit_the_answer_is_429_with_the_sentence(
    table: Table, alice: User
) -> None:
    client = client_as(alice)
    say(client, table, "one", **HTMX)

    response = say(client, table, "two", **HTMX)

    assert response.status_code == 429
    assert "faster than the chat allows" in response.content.decode()
    assert ChatMessage.objects.count() == 1


@override_settings(GAMES_CHAT_POLICY="tests.games.test_chat.refuse_everyone")
def test_a_barred_member_gets_403(table: Table, alice: User) -> None:
    assert say(client_as(alice), table, "hi", **HTMX).status_code == 403
    assert say(client_as(alice), table, "hi").status_code == 403
    assert not ChatMessage.objects.exists()


def test_a_missing_table_is_404(alice: User) -> None:
    response = client_as(alice).post(
        reverse("games:chat_say", kwargs={"pk": 10**9}), {"text": "hi"}, **HTMX
    )

    assert response.status_code == 404


def test_without_htmx_a_message_goes_back_to_the_page_it_came_from(game: Game, alice: User) -> None:
    page = f"http://testserver{reverse('games:game', kwargs={'pk': game.pk})}"

    response = say(client_as(alice), game.table, "hello", HTTP_REFERER=page)

    assert response.status_code == 302
    assert response["Location"] == page


def test_without_htmx_a_foreign_referer_is_not_followed(table: Table, alice: User) -> None:
    response = say(client_as(alice), table, "hello", HTTP_REFERER="https://evil.example/")

    assert response["Location"] == reverse("games:current", kwargs={"pk": table.pk})


def test_a_member_mutes_and_unmutes_another(table: Table, alice: User, bob: User) -> None:
    chat.say(table.pk, bob, "hurry up")
    client = client_as(alice)

    muted = client.post(chat_url("mute", table), {"member": bob.pk}, **HTMX)

    assert muted.status_code == 200
    assert "hurry up" not in muted.content.decode()
    assert 'aria-label="Unmute Bob"' in muted.content.decode()
    assert ChatMute.objects.filter(muter=alice, muted=bob).exists()

    unmuted = client.post(chat_url("unmute", table), {"member": bob.pk}, **HTMX)

    assert "hurry up" in unmuted.content.decode()
    assert not ChatMute.objects.exists()


@pytest.mark.parametrize("member", ["", "abc", "-1", "9" * 30])
def test_a_malformed_member_is_400(table: Table, alice: User, member: str) -> None:
    response = client_as(alice).post(chat_url("mute", table), {"member": member}, **HTMX)

    assert response.status_code == 400
    assert not ChatMute.objects.exists()


def test_muting_oneself_is_400_and_an_unknown_member_404(table: Table, alice: User) -> None:
    client = client_as(alice)

    assert client.post(chat_url("mute", table), {"member": alice.pk}, **HTMX).status_code == 400
    unknown = client.post(chat_url("mute", table), {"member": alice.pk + 999}, **HTMX)
    assert unknown.status_code == 404


def test_each_message_of_another_member_links_to_its_report_form(
    table: Table, alice: User, bob: User
) -> None:
    mine = chat.say(table.pk, alice, "gg")
    theirs = chat.say(table.pk, bob, "you were lucky")

    page = client_as(alice).get(reverse("games:table", kwargs={"pk": table.pk})).content.decode()

    assert f'href="/moderation/report/message/{theirs.pk}/"' in page
    assert f"/moderation/report/message/{mine.pk}/" not in page
