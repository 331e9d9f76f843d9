"""The facts of play: each is announced once, and only once its transaction commits."""

import ast
import inspect
import itertools
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection, transaction
from django.dispatch import Signal

from accounts.models import User
from games import services, signals
from games.errors import IllegalPlay
from games.models import Game, Result, Seat, Table
from games.selectors.notifications import GameNotice
from games.services.abandonment import resign
from games.services.results import SeatCorrection, supersede
from games.services.vacations import plan_vacation
from notifications.models import Notification
from notifications.signals import notification_created
from tests.games.clocks import HOUR, T0
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at

pytestmark = pytest.mark.django_db

FACTS = {
    name: value
    for name, value in vars(signals).items()
    # ``game_dealing`` is no announcement: it is sent inside the deal's transaction.
    if isinstance(value, Signal) and not name.startswith("_") and value is not signals.game_dealing
}
# What the tests hear: the facts of play, and the notices they lead to.
HEARD = {**FACTS, "notification_created": notification_created}


class Heard:
    """Every signal of :mod:`games.signals` sent while it listens, in order."""

    def __init__(self) -> None:
        self.facts: list[tuple[str, dict[str, Any]]] = []

    def names(self) -> list[str]:
        return [name for name, _ in self.facts]

    def of(self, name: str) -> list[dict[str, Any]]:
        return [facts for heard, facts in self.facts if heard == name]

    def clear(self) -> None:
        self.facts.clear()


@pytest.fixture
def heard() -> Iterator[Heard]:
    listener = Heard()
    receivers = []
    for name, signal in HEARD.items():

        def receive(sender: type, signal: Signal, name: str = name, **facts: Any) -> None:
            listener.facts.append((name, facts))

        signal.connect(receive, weak=False, dispatch_uid=f"test-heard-{name}")
        receivers.append((signal, name))
    yield listener
    for signal, name in receivers:
        signal.disconnect(dispatch_uid=f"test-heard-{name}")


def mover(game: Game) -> User:
    game.refresh_from_db()
    return user_at(game, game.current_seat or 0)


def test_every_fact_has_a_signal_that_names_its_arguments() -> None:
    assert set(FACTS) >= {
        "move_committed",
        "turn_started",
        "turn_ended",
        "game_started",
        "game_finished",
        "round_finished",
    }
    documented = _docstrings_of_signals()
    assert {name for name in FACTS if "``" in documented.get(name, "")} == set(FACTS)


def _docstrings_of_signals() -> dict[str, str]:
    """``{name: the string right after "name = Signal()"}`` in games/signals.py."""
    body = ast.parse(inspect.getsource(signals)).body
    found = {}
    for node, following in itertools.pairwise(body):
        if not (isinstance(node, ast.Assign) and isinstance(following, ast.Expr)):
            continue
        if isinstance(following.value, ast.Constant) and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = str(following.value.value)
    return found


def test_a_move_is_announced_once_and_only_after_commit(
    game: Game, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    user = mover(game)
    seat, turn, version = game.current_seat, game.turn_number, game.version

    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, user, version)
        assert heard.facts == []  # still inside the transaction: nothing is told

    game.refresh_from_db()
    assert heard.names()[:3] == ["move_committed", "turn_ended", "turn_started"]
    assert heard.of("move_committed") == [
        {
            "game_id": game.pk,
            "table_id": game.table_id,
            "version": version + 1,
            "seat": seat,
            "turn_number": turn,
            "by": "user",
            "page": "",
        }
    ]
    assert len(heard.of("turn_ended")) == 1
    ended = heard.of("turn_ended")[0]
    assert (ended["turn_number"], ended["seat"], ended["clock"]) == (turn, seat, "live")
    assert ended["member_id"] == user.pk
    assert heard.of("turn_started") == [
        {
            "game_id": game.pk,
            "table_id": game.table_id,
            "turn_number": game.turn_number,
            "seat": game.current_seat,
            "deadline": game.turn_deadline,
            "reminder_at": game.turn_reminder_at,
            "clock": "live",
            # Who plays the turn, as the move loaded the seat: the receivers read nothing.
            "kind": "player",
            "member_id": user_at(game, game.current_seat or 0).pk,
            "wants_proof": True,
        }
    ]
    assert not heard.of("game_finished")


def test_a_move_that_leaves_the_turn_open_announces_only_itself(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    game = current_game(start_table(alice, bob, options={"draw_mode": "river"}))
    user = mover(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, user, 0)  # the River: two tiles drawn, one to discard
    assert heard.names() == ["move_committed"]

    heard.clear()
    game.refresh_from_db()
    pending = game.engine_state().pending_draw
    with django_capture_on_commit_callbacks(execute=True):
        services.discard(game.pk, user, 1, str(pending[1]))
    assert heard.names()[:3] == ["move_committed", "turn_ended", "turn_started"]
    assert [f["turn_number"] for f in heard.of("turn_ended")] == [1]


def test_a_refused_move_announces_nothing(
    game: Game, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    user = mover(game)
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(IllegalPlay),
    ):
        services.play(game.pk, user, game.version, [["R1", "R2"]])
    assert callbacks == []
    assert heard.facts == []


def test_a_draft_is_announced_without_a_move(
    game: Game, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    user = mover(game)
    with django_capture_on_commit_callbacks(execute=True):
        services.reset_draft(game.pk, user)
    assert heard.names() == ["draft_saved"]
    assert heard.of("draft_saved") == [{"game_id": game.pk, "seat": game.current_seat, "page": ""}]


def test_a_full_table_announces_its_first_game_and_turn_once(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        table = start_table(alice, bob)
    game = current_game(table)
    # (Besides the invitation of the second player, told when the table was made.)
    names = [name for name in heard.names() if name != "notification_created"]
    assert names[:2] == ["game_started", "turn_started"]
    assert heard.of("game_started") == [{"game_id": game.pk, "table_id": table.pk, "number": 1}]
    assert [t["turn_number"] for t in heard.of("turn_started")][:1] == [game.turn_number]


def test_the_last_game_finishes_the_round_once(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    game = current_game(start_table(alice, bob, games_in_round=1))
    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, alice)
    game.refresh_from_db()
    table = Table.objects.get(pk=game.table_id)

    # Alice (seat 0) resigned: Bob wins the game, and so the round of one game.
    assert heard.of("game_finished") == [
        {"game_id": game.pk, "table_id": table.pk, "number": 1, "winner_seat": 1}
    ]
    assert heard.of("round_finished") == [{"table_id": table.pk, "winner_seat": 1}]
    assert not heard.of("turn_started")
    assert not heard.of("game_started")


def test_a_game_that_is_not_the_last_starts_the_next_once(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    game = current_game(start_table(alice, bob, games_in_round=2))
    with django_capture_on_commit_callbacks(execute=True):
        resign(game.pk, bob)
    following = current_game(Table.objects.get(pk=game.table_id))

    assert following.number == 2
    assert [f["game_id"] for f in heard.of("game_finished")] == [game.pk]
    assert heard.of("game_started") == [
        {"game_id": following.pk, "table_id": following.table_id, "number": 2}
    ]
    assert [(t["game_id"], t["turn_number"]) for t in heard.of("turn_started")][:1] == [
        (following.pk, following.turn_number)
    ]
    assert not heard.of("round_finished")
    # The finished game is told before the next one starts.
    names = heard.names()
    assert names.index("game_finished") < names.index("game_started")


def test_a_forfeit_to_a_bot_is_announced_once(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(
            start_table(alice, bob, turn_seconds=60, timeouts_to_forfeit=1, on_forfeit="bot")
        )
    seat = game.current_seat
    leaver = user_at(game, seat or 0)
    assert game.turn_deadline is not None
    with (
        time_machine.travel(game.turn_deadline + timedelta(seconds=2), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.time_out_turn(game.pk, game.turn_number)

    assert heard.of("seat_handed_to_bot") == [
        {"game_id": game.pk, "table_id": game.table_id, "seat": seat, "user_id": leaver.pk}
    ]
    assert heard.of("move_committed")[0]["by"] == "timeout"
    assert Seat.objects.get(table_id=game.table_id, number=seat).kind == Seat.Kind.BOT


def test_a_correspondence_turn_notifies_once_after_commit(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    with (
        time_machine.travel(T0, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game = current_game(start_table(alice, bob, clock="correspondence"))
        # The turn is not committed yet (only the second player's invitation is made).
        assert not Notification.objects.filter(kind=GameNotice.YOUR_TURN).exists()

    player = user_at(game, game.current_seat or 0)
    turn_note = Notification.objects.get(kind=GameNotice.YOUR_TURN)
    told = [n for n in heard.of("notification_created") if n["notification_id"] == turn_note.pk]
    assert told == [
        {
            "notification_id": turn_note.pk,
            "user_id": player.pk,
            "email_now": True,
            "push_now": False,
        }
    ]


def test_a_vacation_is_announced_once_and_reclocks_the_turn_once(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    with time_machine.travel(T0, tick=False):
        game = current_game(start_table(alice, bob, clock="correspondence"))
    player = user_at(game, game.current_seat or 0)
    with (
        time_machine.travel(T0 + HOUR, tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        plan_vacation(player, 2)

    assert heard.of("vacation_changed") == [{"user_id": player.pk}]
    game.refresh_from_db()
    assert heard.of("turn_reclocked") == [
        {
            "game_id": game.pk,
            "turn_number": game.turn_number,
            "deadline": game.turn_deadline,
            "reminder_at": game.turn_reminder_at,
        }
    ]


@pytest.mark.django_db(transaction=True)
def test_receivers_run_after_a_real_commit_and_see_it(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    user = mover(game)
    seen: list[tuple[bool, int | None]] = []

    def from_elsewhere() -> int | None:
        """The game's version as another connection sees it: only what is committed."""
        found: list[int | None] = []

        def read() -> None:
            try:
                found.append(
                    Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
                )
            finally:
                connection.close()

        thread = threading.Thread(target=read)
        thread.start()
        thread.join()
        return found[0]

    def receive(sender: type, version: int, **facts: Any) -> None:
        seen.append((connection.in_atomic_block, from_elsewhere() == version))

    signals.move_committed.connect(receive, weak=False, dispatch_uid="test-real-commit")
    try:
        services.draw(game.pk, user, game.version)
        assert seen == [(False, True)]
    finally:
        signals.move_committed.disconnect(dispatch_uid="test-real-commit")


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_move_announces_nothing(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    user = mover(game)
    heard: list[str] = []

    def receive(sender: type, signal: Signal, **facts: Any) -> None:
        heard.append(str(facts))

    for signal in FACTS.values():
        signal.connect(receive, weak=False, dispatch_uid="test-rolled-back")
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            services.draw(game.pk, user, game.version)
            raise RuntimeError("the outer transaction fails after the move")
        assert heard == []
        assert Game.objects.get(pk=game.pk).version == game.version
    finally:
        for signal in FACTS.values():
            signal.disconnect(dispatch_uid="test-rolled-back")


def test_a_ruling_announces_the_results_it_superseded_after_commit(
    alice: User, bob: User, heard: Heard, django_capture_on_commit_callbacks: Any
) -> None:
    game = current_game(start_table(alice, bob, games_in_round=1))
    resign(game.pk, alice)
    heard.clear()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        supersede(game.pk, {0: SeatCorrection(score=7)}, Result.Source.RULING, "Recount", None)
    assert not heard.names()
    for callback in callbacks:
        callback()

    assert heard.of("results_superseded") == [
        {"game_id": game.pk, "table_id": game.table_id, "seats": [0], "source": "ruling"}
    ]
    assert "round_finished" not in heard.names()


@pytest.mark.parametrize(
    ("said", "named"),
    [("3f2a9c0d41b7e655aa01", "3f2a9c0d41b7e655aa01"), ("<b>not an id</b>", ""), (None, "")],
)
def test_a_move_names_the_page_it_was_sent_from(
    game: Game,
    heard: Heard,
    client: Any,
    django_capture_on_commit_callbacks: Any,
    said: str | None,
    named: str,
) -> None:
    user = mover(game)
    client.force_login(user)
    headers = {"HTTP_HX_REQUEST": "true"}
    if said is not None:
        headers["HTTP_X_GAME_PAGE"] = said

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/games/{game.pk}/draw/", {"version": game.version}, **headers)

    assert response.status_code == 200
    assert [facts["page"] for facts in heard.of("move_committed")] == [named]
