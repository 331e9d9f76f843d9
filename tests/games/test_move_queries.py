"""The queries of a move, counted: the service's transaction and the receivers at commit.

Each bound is what the move costs now; a change that makes a move read or write less
lowers it here (issue 27: a move at the floor). The seat rows are counted apart: they
were read up to seven times per move, for numbers the lock's load has.

Before the move had its own module (services/move.py), statements (seat reads): a live
draw 13 (5), with its request and answer 22 (6), a correspondence draw with a bank 30
(7; vacations 2), a play 13 (5), a bot's move 12 (5), a timeout 13 (5).
"""

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services, tasks
from games.errors import NotYourTurn
from games.models import Draft, Game, Seat
from games.models.table_settings import TableSettings
from games.selectors.drafts import working_table
from games.services import NEW_SET, SeatPlan
from games.services import RACK as RACK_SOURCE
from games.services.vacations import plan_vacation
from tests.games.conftest import current_game, seat_starts, start_table
from tests.games.positions import set_position
from tests.games.views_support import HTMX, RACK, TABLE
from tests.queries import Counted, count_everywhere

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 6, 2, 9, 0, tzinfo=UTC)

Queued = list[tuple[str, tuple[Any, ...]]]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> Iterator[Queued]:
    """The tasks a move queues, recorded instead of run: what they do later is no query
    of the move."""
    calls: Queued = []

    def recorder(name: str) -> Any:
        def queue(args: Any = (), *_: Any, **__: Any) -> None:
            calls.append((name, tuple(args)))

        return queue

    def delayer(name: str) -> Any:
        return lambda *args, **_: calls.append((name, tuple(args)))

    for name in ("play_bot_turn", "expire_turn", "remind_turn", "draw_forced_turn"):
        monkeypatch.setattr(getattr(tasks, name), "apply_async", recorder(name))
    for name in ("prove_forced_turn", "reclock_player"):
        monkeypatch.setattr(getattr(tasks, name), "delay", delayer(name))
    yield calls


def counted_move(capture: Any, move: Any) -> Counted:
    """The statements of ``move()`` and of what its commit runs."""
    with count_everywhere() as counted, capture(execute=True):
        move()
    return counted


def first_draw(capture: Any, game: Game, user: User) -> Counted:
    """The statements of ``user``'s draw on the game's first turn, 5 s into it."""
    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        return counted_move(capture, lambda: services.draw(game.pk, user, 0))


def live(alice: User, bob: User, **settings: Any) -> Game:
    with time_machine.travel(T0, tick=False), seat_starts(0):
        return current_game(start_table(alice, bob, **{"turn_seconds": 60, **settings}))


def test_a_live_draw(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = live(alice, bob)

    counted = first_draw(django_capture_on_commit_callbacks, game, alice)

    assert len(counted) <= 6, counted.listing()
    assert counted.reads("games_seat") <= 2, counted.listing()
    assert counted.writes("games_seat") <= 1, counted.listing()


def test_a_live_draw_answered_by_the_page(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    """The whole request: the session, the sight, the move, its receivers, the answer."""
    game = live(alice, bob)
    client = Client()
    client.force_login(alice)

    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        counted = counted_move(
            django_capture_on_commit_callbacks,
            lambda: client.post(reverse("games:draw", args=[game.pk]), {"version": 0}, **HTMX),
        )

    game.refresh_from_db()
    assert game.version == 1
    assert len(counted) <= 14, counted.listing()
    assert counted.reads("games_seat") <= 3, counted.listing()


def test_a_correspondence_draw_with_a_time_bank(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = live(alice, bob, clock="correspondence", turn_seconds=86400, time_bank_seconds=3600)

    with time_machine.travel(T0 + timedelta(hours=2), tick=False):
        counted = counted_move(
            django_capture_on_commit_callbacks, lambda: services.draw(game.pk, alice, 0)
        )

    game.refresh_from_db()
    assert game.table.seats.get(number=0).bank_seconds == 3600
    assert len(counted) <= 19, counted.listing()
    assert counted.reads("games_seat") <= 2, counted.listing()
    assert counted.reads("games_vacation") <= 1, counted.listing()


def test_a_play(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = set_position(live(alice, bob), TABLE, RACK)
    laid = [["R4", "R5", "R6", "R7", "R8"], ["B9", "K9", "O9"]]

    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        counted = counted_move(
            django_capture_on_commit_callbacks,
            lambda: services.play(game.pk, alice, 0, table=laid),
        )

    game.refresh_from_db()
    assert game.turn_number == 2
    assert len(counted) <= 6, counted.listing()
    assert counted.reads("games_seat") <= 2, counted.listing()


def test_a_bot_move(alice: User, queued: Queued, django_capture_on_commit_callbacks: Any) -> None:
    with time_machine.travel(T0, tick=False), seat_starts(1):
        table = services.create_table(
            alice,
            TableSettings(turn_seconds=60),
            [SeatPlan.taken_by(alice), SeatPlan.bot("easy")],
        )
    game = current_game(table)
    assert game.current_seat == 1

    with time_machine.travel(T0 + timedelta(seconds=2), tick=False):
        counted = counted_move(
            django_capture_on_commit_callbacks,
            lambda: services.play_bot_move(game.pk, game.turn_number),
        )

    game.refresh_from_db()
    assert game.version >= 1
    assert len(counted) <= 7, counted.listing()
    assert counted.reads("games_seat") <= 3, counted.listing()


def test_a_timeout(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = live(alice, bob)

    with time_machine.travel(T0 + timedelta(seconds=62), tick=False):
        counted = counted_move(
            django_capture_on_commit_callbacks,
            lambda: services.time_out_turn(game.pk, game.turn_number),
        )

    game.refresh_from_db()
    assert game.turn_number == 2
    assert game.table.seats.get(number=0).timeouts_in_a_row == 1
    assert len(counted) <= 7, counted.listing()
    assert counted.reads("games_seat") <= 2, counted.listing()


def test_a_refused_move_writes_nothing_and_reads_seats_once(
    alice: User, bob: User, queued: Queued
) -> None:
    game = live(alice, bob)

    with (
        time_machine.travel(T0 + timedelta(seconds=5), tick=False),
        count_everywhere() as counted,
        pytest.raises(NotYourTurn),
    ):
        services.draw(game.pk, bob, 0)

    assert [s.kind for s in counted.queries if s.kind != "SELECT"] == [], counted.listing()
    assert counted.reads("games_seat") == 1, counted.listing()


def test_a_correspondence_move_reads_vacations_once(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    """The mover's vacation in progress ends with her move, and the next player's to come
    stops his clock: both from one read, which also settles her bank."""
    game = live(alice, bob, clock="correspondence", turn_seconds=86400, time_bank_seconds=3600)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        away = plan_vacation(alice, 3)
        plan_vacation(bob, 2, starts_on=date(2025, 6, 3))
    moved_at = T0 + timedelta(hours=2)

    with time_machine.travel(moved_at, tick=False):
        counted = counted_move(
            django_capture_on_commit_callbacks, lambda: services.draw(game.pk, alice, 0)
        )

    game.refresh_from_db()
    away.refresh_from_db()
    assert counted.reads("games_vacation") == 1, counted.listing()
    assert away.ends_at == moved_at
    assert game.turn_deadline is not None
    assert game.turn_deadline > moved_at + timedelta(days=2)


def test_a_move_by_a_player_with_no_timeouts_updates_no_seat(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = live(alice, bob)

    counted = first_draw(django_capture_on_commit_callbacks, game, alice)

    assert counted.writes("games_seat") == 0, counted.listing()
    assert counted.writes("games_draft") == 0, counted.listing()


def test_the_game_update_names_only_the_moved_columns(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = live(alice, bob)

    counted = first_draw(django_capture_on_commit_callbacks, game, alice)

    [update] = counted.of("UPDATE", "games_game")
    assert '"state" =' in update.sql and '"turn_deadline" =' in update.sql
    for untouched in ("seed", "ruleset", "starting_seat", "held_at", "status", "outcome"):
        assert f'"{untouched}" =' not in update.sql


def test_a_move_after_two_timeouts_resets_the_count(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    game = live(alice, bob)
    Seat.objects.filter(table_id=game.table_id, number=0).update(timeouts_in_a_row=2)

    counted = first_draw(django_capture_on_commit_callbacks, game, alice)

    assert Seat.objects.get(table_id=game.table_id, number=0).timeouts_in_a_row == 0
    assert counted.writes("games_seat") == 1, counted.listing()


def test_a_stale_draft_is_never_shown_and_is_gone_with_the_game(
    alice: User, bob: User, queued: Queued
) -> None:
    game = live(alice, bob)
    tile = str(game.engine_state().racks[0][0])
    with time_machine.travel(T0 + timedelta(seconds=5), tick=False):
        services.move_tiles(game.pk, alice, [(tile, RACK_SOURCE)], NEW_SET)
        services.draw(game.pk, alice, 0)
        services.draw(game.pk, bob, 1)

    game.refresh_from_db()
    state = game.engine_state()
    assert state.current_player == 0
    assert Draft.objects.filter(game=game, seat=0).exists()
    assert working_table(game, state, 0) == state.table

    services.resign(game.pk, bob)

    assert not Draft.objects.filter(game=game).exists()


def test_the_after_commit_work_of_a_live_turn_reads_only_the_headers_push(
    alice: User, bob: User, queued: Queued, django_capture_on_commit_callbacks: Any
) -> None:
    """The receivers know who plays the next turn from the move's facts; what they still
    read is the players' header push (``live.publish_players``: issue 26 sends the count
    with the move instead)."""
    game = live(alice, bob)
    with (
        time_machine.travel(T0 + timedelta(seconds=5), tick=False),
        django_capture_on_commit_callbacks() as callbacks,
    ):
        services.draw(game.pk, alice, 0)

    with (
        time_machine.travel(T0 + timedelta(seconds=5), tick=False),
        count_everywhere() as counted,
    ):
        for callback in callbacks:
            callback()

    assert [s.table for s in counted.queries] == ["games_seat"], counted.listing()
    # A 60 s turn's timeout is left to the sweep: no task at its start.
    assert [name for name, _ in queued] == ["prove_forced_turn"]
