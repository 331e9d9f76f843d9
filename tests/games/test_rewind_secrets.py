"""A rewind keeps secrets: the undrawn pool is shuffled afresh (from a seed logged with
the rewind, so the game still replays exactly), and what players are told of the game
(the move log of the page and of its pushes, the finished game's replay) leaves out the
turns it undid; the rewind's own line says it happened."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from accounts.models import User
from engine.game import replay
from games import services
from games.models import Game, Table
from games.selectors.move_log import move_log
from games.selectors.replay import replay_frame
from games.services.rewinds import restore, rewind
from tests.conftest import client_as, communicator
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.views_support import url

REWOUND = "took the game back to the start of turn 2"


@pytest.fixture
def drawn_four(alice: User, bob: User) -> Game:
    """Alice (seat 0) and Bob have drawn twice each: moves 1 to 4, turns 1 to 4."""
    game = current_game(start_table(alice, bob, first=0, clock=Table.Clock.CORRESPONDENCE))
    for _ in range(4):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    return game


def seqs_in(html: str) -> set[int]:
    return {int(seq) for seq in re.findall(r'data-seq="(\d+)"', html)}


@pytest.mark.django_db
def test_a_rewind_shuffles_the_pool_afresh_from_a_seed_it_logs(drawn_four: Game) -> None:
    game = drawn_four
    turn_two = game.moves.get(seq=2)
    first_move = [(0, game.moves.get(seq=1).engine_action())]
    starter = None if game.start_drawn else game.starting_seat
    before_turn_two = replay(game.engine_ruleset(), game.seed, first_move, starter)

    rewound = rewind(game.pk, 2)

    action = rewound.moves.order_by("-seq").first().action  # type: ignore[union-attr]
    assert set(action) == {"type", "turn", "seed"} and len(action["seed"]) == 32
    state = rewound.engine_state()
    assert state == rewound.replay_state()
    assert state.racks == before_turn_two.racks and state.table == before_turn_two.table
    assert sorted(state.pool) == sorted(before_turn_two.pool)
    # Bob's undone draw of turn 2 told him the pool's next tile; that order is gone.
    assert state.pool != before_turn_two.pool
    assert turn_two.turn_number == 2


@pytest.mark.django_db
def test_players_are_told_the_rewind_and_not_the_turns_it_undid(drawn_four: Game) -> None:
    game = rewind(drawn_four.pk, 2)
    names = ["Alice", "Bob"]

    for seat in (0, 1, None):
        log = move_log(game, names, seat)
        assert [entry.seq for entry in log.entries] == [5, 1]
        assert REWOUND in log.entries[0].words and log.total == 2
        assert log.drawn == ()
    html = client_as(user_at(game, 1)).get(url("game", game)).content.decode()
    assert seqs_in(html) == {5, 1} and REWOUND in html
    # Played on, the log goes on from the rewind.
    services.draw(game.pk, user_at(game, 1), game.version)
    game.refresh_from_db()
    assert [e.seq for e in move_log(game, names, 1).entries] == [6, 5, 1]


@pytest.mark.django_db
def test_a_rewind_taken_back_gives_the_players_their_log_again(drawn_four: Game) -> None:
    rewound = rewind(drawn_four.pk, 2)
    game = restore(drawn_four.pk, rewound.version)

    assert [e.seq for e in move_log(game, ["Alice", "Bob"], 1).entries] == [6, 5, 4, 3, 2, 1]


@pytest.mark.django_db
def test_the_finished_games_replay_steps_over_the_undone_turns(drawn_four: Game) -> None:
    game = rewind(drawn_four.pk, 2)
    for seat in (1, 0):  # moves 6 and 7, turns 2 and 3
        services.draw(game.pk, user_at(game, seat), game.version)
        game.refresh_from_db()
    rewind(game.pk, 3)  # move 8: undoes move 7, Alice's draw after the first rewind
    services.resign(game.pk, user_at(game, 0))
    game.refresh_from_db()

    frames = [replay_frame(game, step) for step in range(6)]

    # The deal, Alice's turn 1, the first rewind, Bob's turn 2, the second rewind, the end.
    assert [f.steps for f in frames] == [5] * 6
    events = [" ".join(f.events) for f in frames]
    assert REWOUND in events[2] and "start of turn 3" in events[4]
    assert "resigned" in events[5]
    assert sum("drew" in e for e in events) == 2
    assert frames[5].outcome is not None
    final = game.engine_state()
    assert [s.rack for s in frames[5].seats] == [
        tuple(str(t) for t in rack) for rack in final.racks
    ]
    # The first rewind's frame is the game at the start of turn 2, with the fresh pool.
    assert [s.rack for s in frames[2].seats] == [s.rack for s in frames[1].seats]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_players_socket_is_pushed_the_log_without_the_undone_turns(
    alice: User, bob: User
) -> None:
    game = await sync_to_async(lambda: drawn_four_of(alice, bob))()
    socket = communicator(f"/ws/games/{game.pk}/", bob)
    connected, _ = await socket.connect()
    assert connected
    try:
        assert seqs_in(await socket.receive_from()) == {1, 2, 3, 4}
        await sync_to_async(rewind)(game.pk, 2)
        html = await socket.receive_from(timeout=5)
        assert 'id="game-log"' in html
        assert seqs_in(html) == {5, 1} and REWOUND in html
    finally:
        await socket.disconnect()
        await sync_to_async(connections.close_all)()


def drawn_four_of(alice: User, bob: User) -> Game:
    game = current_game(start_table(alice, bob, first=0, clock=Table.Clock.CORRESPONDENCE))
    for _ in range(4):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    return game
