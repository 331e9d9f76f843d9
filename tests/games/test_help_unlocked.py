"""The solver never runs under the game's row lock, and its answers are bounded and cached.

Hint, "arrange for me" and the River take compute on a snapshot read without a lock,
then lock, check that the turn is still the one they saw, and write. The race tests
prove both halves with a real second connection: it holds the game's row lock, waits
until the helper's connection queues behind it (so the solver has already finished on
its snapshot), changes the turn, and commits; the helper must then refuse.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from django.core.cache import cache
from django.db import connection, connections, transaction

from accounts.models import User
from engine.actions import parse_table
from engine.tiles import format_tiles
from engine.verdict import judge_turn
from games import services
from games.errors import DraftError, HelpBusy, StaleVersion
from games.models import Draft, Game
from games.services import help as solver_help
from games.services.drafts import move_tiles
from games.services.locking import lock_game
from games.solver_tasks import ask_arrange, ask_hint
from tests.conftest import client_as
from tests.engine.worst_cases import manipulation_case
from tests.games.answers_support import answered
from tests.games.conftest import current_game, start_table
from tests.games.positions import put_on_the_river, set_position
from tests.games.views_support import HTMX, RACK, TABLE, mover

pytestmark = pytest.mark.django_db(transaction=True)


def _wait_for_a_lock_waiter(timeout: float = 20.0) -> None:
    """Until another connection of this database waits for a row lock."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            # Inside a transaction PostgreSQL keeps showing its first view of the
            # activity table unless told to look again.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("nobody queued for the game's lock")


def _hold_the_game_then(game_id: int, change: Callable[[], object]) -> None:
    """In this thread's own connection: lock the game, wait for the helper to queue
    behind the lock, make ``change`` and commit."""
    try:
        with transaction.atomic():
            lock_game(game_id)
            _wait_for_a_lock_waiter()
            change()
    finally:
        connections.close_all()


def _race(game_id: int, helper: Callable[[], object], change: Callable[[], object]) -> object:
    """Run ``helper`` while another connection holds the game and changes it."""

    def run_helper() -> object:
        try:
            return helper()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(2) as pool:
        holder = pool.submit(_hold_the_game_then, game_id, change)
        time.sleep(0.2)  # the holder takes the lock first
        result = pool.submit(run_helper)
        holder.result(timeout=60)
        try:
            return result.result(timeout=60)
        except Exception as err:
            return err


@pytest.fixture
def turn(position: Game) -> Game:
    return position


def test_arrange_computes_on_a_snapshot_and_refuses_if_the_draft_changed(turn: Game) -> None:
    me = mover(turn)
    seat = turn.engine_state().current_player

    def edit_in_another_tab() -> None:
        Draft.objects.update_or_create(
            game=turn,
            seat=seat,
            defaults={"turn_number": turn.turn_number, "table": [*TABLE, ["K1", "K2", "K3"]]},
        )

    outcome = _race(
        turn.pk, lambda: solver_help.arrange_for_me(turn.pk, me, ["R4"]), edit_in_another_tab
    )

    assert isinstance(outcome, DraftError)
    assert "changed while the solver was working" in str(outcome)
    draft = Draft.objects.get(game=turn, seat=seat)
    assert draft.table == [*TABLE, ["K1", "K2", "K3"]]  # the other tab's edit stands


def test_arrange_refuses_if_the_game_moved_on_while_it_computed(turn: Game) -> None:
    me = mover(turn)
    version = turn.version

    outcome = _race(
        turn.pk,
        lambda: solver_help.arrange_for_me(turn.pk, me, ["R4"]),
        lambda: services.draw(turn.pk, me, version),
    )

    assert isinstance(outcome, StaleVersion)
    turn.refresh_from_db()
    assert turn.version == version + 1
    assert not Draft.objects.filter(game=turn, turn_number=turn.turn_number).exists()


def test_a_river_take_is_committed_only_on_the_version_it_computed_on(
    alice: User, bob: User
) -> None:
    game = set_position(
        current_game(start_table(alice, bob, options={"draw_mode": "river"})), TABLE, RACK
    )
    put_on_the_river(game, "O5")  # with O2 O3 O4 on the rack it is a play
    me, version = mover(game), game.version
    move_tiles(game.pk, me, [("O2", "rack"), ("O3", "rack"), ("O4", "rack")], "new")

    outcome = _race(
        game.pk,
        lambda: solver_help.take_from_river_arranged(game.pk, me, version, 0),
        lambda: services.draw(game.pk, me, version),
    )

    assert isinstance(outcome, StaleVersion)
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.moves.count() == game.version
    assert [str(t) for t in game.engine_state().river] == ["O5"]


def test_a_hint_is_answered_while_another_writer_holds_the_game(turn: Game) -> None:
    me = mover(turn)

    def hint_then_release() -> object:
        try:
            return solver_help.hint(turn.pk, me, turn.version)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool, transaction.atomic():
        lock_game(turn.pk)
        found = pool.submit(hint_then_release).result(timeout=30)

    assert found.found  # type: ignore[attr-defined]


def test_a_repeated_hint_for_the_same_version_comes_from_the_cache(turn: Game) -> None:
    me = mover(turn)
    first = solver_help.hint(turn.pk, me, turn.version)
    key = solver_help._hint_key(solver_help._read_own_turn(turn.pk, me))

    assert cache.get(key) == first
    assert solver_help.hint(turn.pk, me, turn.version) == first

    set_position(turn, TABLE, [*RACK[:-1]])  # another position at the same version
    other = solver_help._hint_key(solver_help._read_own_turn(turn.pk, me))
    assert other != key and cache.get(other) is None


def test_one_member_gets_one_computation_at_a_time(turn: Game, client: object) -> None:
    me = mover(turn)
    busy = solver_help.help_busy_key(me)
    cache.add(busy, "another job", 60)

    with pytest.raises(HelpBusy):
        ask_arrange(turn.pk, me, ["R4"])
    with pytest.raises(HelpBusy):
        ask_hint(turn.pk, me)

    cache.delete(busy)  # the other job is done
    ask_arrange(turn.pk, me, ["R4"])
    assert cache.get(busy) is None  # (eager here: this one is done too, and gave it back)


def test_a_busy_member_is_told_to_wait_with_a_429(turn: Game, client: object) -> None:
    me = mover(turn)
    client.force_login(me)  # type: ignore[attr-defined]

    cache.add(solver_help.help_busy_key(me), "another job", 60)
    response = client.post(  # type: ignore[attr-defined]
        f"/games/{turn.pk}/arrange/", {"tile": ["R4"]}, **HTMX
    )

    assert response.status_code == 429
    assert "still working on your last request" in response.content.decode()
    assert not Draft.objects.filter(game=turn).exists()


def test_a_hint_on_the_worst_known_position_answers_within_its_budget(
    position: Game, settings: object
) -> None:
    """The review's worst case (same-turn manipulation, a table of 57 and a rack of 35)
    took 121 s and 2.2 GB for one hint. The issue's acceptance criterion is an answer
    within about 2 s (3 s of processor time measured here: the budget is steps, so
    other work on the machine changes nothing), legal, and labelled "best found" when
    not proven best."""
    game = _worst_position(position)
    me = mover(game)
    client = client_as(me)

    started = time.process_time()
    response = client.get(f"/games/{game.pk}/hint/", **HTMX)
    elapsed = time.process_time() - started

    assert response.status_code == 200
    assert elapsed < 3.0  # (eager here: the job ran in this process, in the request)
    shown = answered(response, me)
    assert "Cut short" not in shown
    found = solver_help.hint(game.pk, me, game.version)  # the cached answer the page showed
    heading = "Hint:" if found.exact else "Best found:"
    assert heading in shown
    if found.found:
        state = game.engine_state()
        verdict = judge_turn(
            state.table,
            state.racks[state.current_player],
            parse_table(found.table),
            False,
            state.ruleset,
        )
        assert verdict.valid, verdict


def test_a_hint_the_wall_time_ceiling_stops_says_so_and_is_not_kept(
    position: Game, settings: object
) -> None:
    """Wall time is only the last stop of the hint's budget of steps: a hint it cuts
    short (a server too busy to do the work in time) says so, and the next ask does the
    work again instead of showing what the busy moment found."""
    game = _worst_position(position)
    me = mover(game)
    client = client_as(me)
    settings.GAMES_HELP_SECONDS = 1e-6  # type: ignore[attr-defined]

    busy = client.get(f"/games/{game.pk}/hint/", **HTMX)

    assert busy.status_code == 200
    assert "Cut short: the server was too busy" in answered(busy, me)
    settings.GAMES_HELP_SECONDS = 20.0  # type: ignore[attr-defined]
    again = solver_help.hint(game.pk, me, game.version)
    assert not again.cut_short and again.found


def _worst_position(game: Game) -> Game:
    """``game`` with the review's worst position on the mover's turn."""
    case = manipulation_case()
    state = game.engine_state()
    game.state = replace(state, ruleset=replace(case.rules, players=state.players)).to_dict()
    game.save(update_fields=["state"])
    table = [format_tiles(tile_set) for tile_set in case.table]
    set_position(game, table, format_tiles(case.rack), meld_done=False)
    return game
