"""A table's chat: who may say what to whom, who reads what, mutes, hiding, the limits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import TestCase, override_settings

from accounts.models import User
from games import services, signals
from games.errors import Barred, ChatRefused, ChatTooFast, NotFound
from games.models import ChatMessage, ChatMute, Game, Table
from games.models.table_settings import TableSettings
from games.rendering import render_chat_lines
from games.selectors.chat import table_chat
from games.services import SeatPlan, chat
from tests.games.conftest import current_game, start_table
from tests.games.views_support import hidden_from, tiles_in

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.fixture
def table(game: Game) -> Table:
    return game.table


def texts(table: Table, reader: User) -> list[str]:
    return [line.text for line in table_chat(table, reader).lines]


def refuse_everyone(user: User, table: Table) -> str:
    """A chat policy that refuses every member (the setting names it)."""
    return "You may not chat here."


def test_a_players_message_is_read_by_the_table_and_its_spectators(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    chat.say(table.pk, alice, "good luck")

    assert texts(table, bob) == ["good luck"]
    assert texts(table, carol) == ["good luck"]
    assert texts(table, alice) == ["good luck"]


def test_a_message_is_kept_with_the_game_and_turn_it_was_said_in(game: Game, alice: User) -> None:
    message = chat.say(game.table_id, alice, "hello")

    assert (message.game_id, message.turn_number) == (game.pk, game.turn_number)
    assert message.audience == ChatMessage.Audience.PLAYERS


def test_in_a_live_game_spectators_talk_apart_and_players_never_read_it(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    dave = User.objects.create(username="dave", display_name="Dave")
    said = chat.say(table.pk, carol, "alice should lay her run")

    assert said.audience == ChatMessage.Audience.SPECTATORS
    assert texts(table, alice) == texts(table, bob) == []
    assert texts(table, dave) == ["alice should lay her run"]
    assert table_chat(table, dave).spectators_apart
    assert not table_chat(table, alice).spectators_apart


def test_before_the_round_starts_a_member_without_a_seat_talks_to_the_table(
    alice: User, carol: User
) -> None:
    seats = [SeatPlan.taken_by(alice), SeatPlan.open()]
    waiting = services.create_table(alice, TableSettings(), seats)

    said = chat.say(waiting.pk, carol, "may I join?")

    assert said.audience == ChatMessage.Audience.PLAYERS
    assert said.game is None
    assert texts(waiting, alice) == ["may I join?"]
    assert not table_chat(waiting, carol).spectators_apart


def test_a_muted_member_is_not_read_by_the_muter_only(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    chat.say(table.pk, bob, "hurry up")
    chat.mute(alice, bob.pk)

    assert texts(table, alice) == []
    assert texts(table, carol) == ["hurry up"]
    assert [m.name for m in table_chat(table, alice).muted] == ["Bob"]

    chat.unmute(alice, bob.pk)

    assert texts(table, alice) == ["hurry up"]


def test_muting_twice_keeps_one_mute(alice: User, bob: User) -> None:
    chat.mute(alice, bob.pk)
    chat.mute(alice, bob.pk)

    assert ChatMute.objects.filter(muter=alice).count() == 1


def test_a_member_cannot_mute_themselves_or_nobody(alice: User) -> None:
    with pytest.raises(ChatRefused):
        chat.mute(alice, alice.pk)
    with pytest.raises(NotFound):
        chat.mute(alice, alice.pk + 1000)

    assert not ChatMute.objects.exists()


def test_a_hidden_message_is_read_by_nobody_at_the_table_and_kept(
    table: Table, alice: User, bob: User, carol: User
) -> None:
    said = chat.say(table.pk, bob, "something rude")

    chat.set_hidden(said.pk, True, by=carol)

    assert texts(table, alice) == texts(table, bob) == texts(table, carol) == []
    assert ChatMessage.objects.get(pk=said.pk).hidden_at is not None

    chat.set_hidden(said.pk, False, by=carol)

    assert texts(table, alice) == ["something rude"]


def test_saying_and_hiding_announce_the_change_after_commit(table: Table, alice: User) -> None:
    heard: list[dict[str, object]] = []

    def listen(sender: type, **facts: object) -> None:
        heard.append(facts)

    signals.chat_changed.connect(listen)
    try:
        with TestCase.captureOnCommitCallbacks(execute=True):
            said = chat.say(table.pk, alice, "hi")
            assert heard == []
        with TestCase.captureOnCommitCallbacks(execute=True):
            chat.set_hidden(said.pk, True, by=alice)
    finally:
        signals.chat_changed.disconnect(listen)

    assert [(h["table_id"], h["message_id"]) for h in heard] == [(table.pk, said.pk)] * 2


def test_white_space_is_tidied_and_nothing_else_is_changed(table: Table, alice: User) -> None:
    said = chat.say(table.pk, alice, "  <b>gg</b>\n\n  well\tplayed \x00 ")

    assert said.text == "<b>gg</b> well played"


@pytest.mark.parametrize("text", ["", "   \n\t ", "x" * 501])
def test_an_empty_or_too_long_message_is_refused(table: Table, alice: User, text: str) -> None:
    with pytest.raises(ChatRefused) as refused:
        chat.say(table.pk, alice, text)

    assert refused.value.message.endswith(".")
    assert not ChatMessage.objects.exists()


def test_a_message_of_the_longest_length_is_kept(table: Table, alice: User) -> None:
    assert chat.say(table.pk, alice, "x" * 500).text == "x" * 500


def test_a_missing_table_is_not_found(alice: User) -> None:
    with pytest.raises(NotFound):
        chat.say(10**9, alice, "hello")


@override_settings(GAMES_CHAT_BURST=(3, 10.0))
def test_a_burst_past_the_limit_is_refused_until_it_passes(table: Table, alice: User) -> None:
    with time_machine.travel(NOON, tick=False) as traveller:
        for n in range(3):
            chat.say(table.pk, alice, f"message {n}")
        with pytest.raises(ChatTooFast) as refused:
            chat.say(table.pk, alice, "one more")
        assert "3 messages in 10 seconds" in refused.value.message
        assert ChatMessage.objects.count() == 3

        traveller.shift(timedelta(seconds=11))
        chat.say(table.pk, alice, "one more")

    assert ChatMessage.objects.count() == 4


@override_settings(GAMES_CHAT_BURST=(100, 1.0), GAMES_CHAT_PER_DAY=4)
def test_the_days_cap_counts_every_table_and_lapses_after_a_day(
    table: Table, alice: User, carol: User
) -> None:
    other = start_table(alice, carol)
    with time_machine.travel(NOON, tick=False) as traveller:
        for n in range(4):
            chat.say((table if n % 2 else other).pk, alice, f"message {n}")
            traveller.shift(timedelta(hours=1))
        with pytest.raises(ChatTooFast, match="24 hours"):
            chat.say(table.pk, alice, "more")

        traveller.shift(timedelta(hours=21))
        chat.say(table.pk, alice, "more")

    assert ChatMessage.objects.filter(author=alice).count() == 5


@override_settings(GAMES_CHAT_POLICY="tests.games.test_chat.refuse_everyone")
def test_the_chat_policy_refuses_with_its_sentence_and_nothing_is_said(
    table: Table, alice: User
) -> None:
    with pytest.raises(Barred, match=r"You may not chat here\."):
        chat.say(table.pk, alice, "hello")

    assert not ChatMessage.objects.exists()


def test_the_chat_shows_only_what_was_typed_never_a_rack(
    game: Game, alice: User, bob: User, carol: User
) -> None:
    chat.say(game.table_id, alice, "my move next")
    chat.say(game.table_id, carol, "watching")
    state = current_game(game.table).engine_state()

    for reader, seat in ((alice, 0), (bob, 1), (carol, None)):
        html = render_chat_lines(game.table_id, reader)
        assert "my move next" in html
        assert not tiles_in(html) & hidden_from(state, seat)
        assert not tiles_in(html)
