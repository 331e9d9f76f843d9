"""The games app's receivers: what follows from each fact, once, after commit."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine

from accounts.models import User
from common.publish import publisher
from games import receivers, services, signals
from games.models import Game, Result
from games.models.table_settings import TableSettings
from games.selectors.notifications import GameNotice, turn_key
from games.services import SeatPlan
from games.services.results import SeatCorrection, supersede
from notifications.models import Notification
from tests.games.clocks import HOUR, T0, at
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db

__all__ = ["at"]  # the fixture

Pushes = list[tuple[str, dict[str, object]]]


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Pushes]:
    """What would have gone to the Channels groups, in order."""
    sent: Pushes = []
    monkeypatch.setattr(publisher, "publish", sent.extend)
    yield sent


def test_a_move_is_pushed_once_even_if_the_receivers_are_connected_again(
    game: Game, pushed: Pushes, django_capture_on_commit_callbacks: Any
) -> None:
    receivers.connect()  # as a second ready() would
    user = user_at(game, game.current_seat or 0)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, user, game.version)

    changed = [message for group, message in pushed if group == f"game-{game.pk}"]
    assert changed == [{"type": "game.changed", "version": 1}]


def test_a_bot_taking_a_seat_shows_on_the_clock_and_in_the_leavers_header(
    alice: User, bob: User, pushed: Pushes, django_capture_on_commit_callbacks: Any
) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(
            start_table(alice, bob, turn_seconds=60, timeouts_to_forfeit=1, on_forfeit="bot")
        )
    leaver = user_at(game, game.current_seat or 0)
    assert game.turn_deadline is not None
    with (
        time_machine.travel(game.turn_deadline + timedelta(seconds=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.time_out_turn(game.pk, game.turn_number)

    assert (f"game-{game.pk}", {"type": "game.clock"}) in pushed
    gone = {"type": "your_move.changed", "count": 0, "next": None}
    assert (f"user-{leaver.pk}", gone) in pushed


def test_the_third_player_hears_nothing_of_a_turn_between_the_other_two(
    alice: User,
    bob: User,
    carol: User,
    dave: User,
    pushed: Pushes,
    django_capture_on_commit_callbacks: Any,
) -> None:
    game = current_game(start_table(alice, bob, carol, dave))
    seat = game.current_seat or 0
    mover, next_up = user_at(game, seat), user_at(game, (seat + 1) % 4)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, mover, game.version)

    told = {group for group, message in pushed if message["type"] == "your_move.changed"}
    assert told == {f"user-{mover.pk}", f"user-{next_up.pk}"}
    assert all(message["type"] != "notifications.changed" for _, message in pushed)


def test_a_bots_turns_tell_no_header(
    alice: User, pushed: Pushes, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = services.create_table(
            alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.bot("easy")]
        )
    game = current_game(table)  # the bot's first turn, if it had it, is played
    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, alice, game.version)  # the bot answers at once (eager)

    # Alice's turns ended and began; the bot's turns told nobody.
    told = [group for group, m in pushed if m["type"] == "your_move.changed"]
    assert told and set(told) == {f"user-{alice.pk}"}
    assert game.moves.filter(seat=1).exists()


def test_a_ruling_refreshes_the_pages_of_every_game_of_the_round(
    alice: User, bob: User, pushed: Pushes, django_capture_on_commit_callbacks: Any
) -> None:
    table = start_table(alice, bob, games_in_round=2)
    first = current_game(table)
    services.resign(first.pk, alice)
    second = current_game(table)
    pushed.clear()

    with django_capture_on_commit_callbacks(execute=True):
        supersede(first.pk, {0: SeatCorrection(score=9)}, Result.Source.RULING, "Recount", None)

    # Neither game moved: the pages render afresh, not "changed to version V".
    assert pushed == [
        (f"game-{first.pk}", {"type": "game.clock"}),
        (f"game-{second.pk}", {"type": "game.clock"}),
    ]


def test_a_turn_that_is_over_by_the_time_it_is_heard_of_notifies_nobody(
    alice: User, bob: User, at: Any
) -> None:
    with at(T0):
        game = current_game(start_table(alice, bob, clock="correspondence"))
    first_turn, first_seat = game.turn_number, game.current_seat or 0
    with at(T0 + HOUR):
        services.draw(game.pk, user_at(game, first_seat), game.version)
    game.refresh_from_db()
    Notification.objects.all().delete()

    # A late delivery of the first turn's signal: that turn ended an hour ago.
    receivers.tell_player_turn_started(
        Game,
        game_id=game.pk,
        table_id=game.table_id,
        turn_number=first_turn,
        seat=first_seat,
        clock="correspondence",
        member_id=user_at(game, first_seat).pk,
    )
    assert not Notification.objects.exists()

    receivers.tell_player_turn_started(
        Game,
        game_id=game.pk,
        table_id=game.table_id,
        turn_number=game.turn_number,
        seat=game.current_seat,
        clock="correspondence",
        member_id=user_at(game, game.current_seat or 0).pk,
    )
    assert [(n.user_id, n.key) for n in Notification.objects.all()] == [
        (
            user_at(game, game.current_seat or 0).pk,
            turn_key(GameNotice.YOUR_TURN, game.pk, game.turn_number),
        )
    ]


def test_the_end_of_a_turn_marks_its_notifications_read_after_commit(
    alice: User, bob: User, at: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with at(T0):
        game = current_game(start_table(alice, bob, clock="correspondence"))
    note = Notification.objects.get(kind=GameNotice.YOUR_TURN)
    with (
        time_machine.travel(T0 + HOUR, tick=False),
        django_capture_on_commit_callbacks(execute=False) as callbacks,
    ):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        note.refresh_from_db()
        assert note.read_at is None  # the move alone does not touch it
    for callback in callbacks:
        callback()

    note.refresh_from_db()
    assert note.read_at == T0 + HOUR


def test_every_signal_has_a_receiver_in_games_or_is_left_to_the_apps_above() -> None:
    heard = {signal for signal, _ in receivers.RECEIVERS}
    unheard = {
        name
        for name, value in vars(signals).items()
        if isinstance(value, type(signals.move_committed)) and value not in heard
    }
    # Nothing in games follows from these yet; leagues and moderation will subscribe. A
    # game's start needs nothing of its own: its first turn's turn_started tells the header.
    assert unheard - {"game_dealing"} == {"game_finished", "round_finished", "game_started"}
    # The deal's own signal, inside its transaction, is heard by the forfeits' service.
    assert signals.game_dealing.has_listeners(Game)
