"""What happened in a game, as each viewer may know it: the move log, a timeout in
words, the tiles just drawn and just laid, and the value of an initial meld."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from engine.round import Round
from engine.solver import solve
from engine.tiles import parse_tiles
from engine.verdict import judge_turn
from games import services
from games.models import Game, Table
from games.rendering import game_context
from games.selectors.move_log import move_log
from games.selectors.players import seat_names
from games.templatetags.game_tags import tile_name
from tests.conftest import client_as
from tests.games.conftest import current_game, start_table
from tests.games.views_support import (
    TILE,
    as_codes,
    hidden_from,
    mover,
    tiles_in,
    url,
    waiter,
)

pytestmark = pytest.mark.django_db


def seed_where_the_starter_melds_with_a_joker(table: Table) -> str:
    """A round seed whose first game's starter can make an initial meld at once, with a
    joker in it (so the joker's value matters)."""
    ruleset = table.engine_ruleset()
    for n in range(2000):
        seed = f"meld-{n}"
        state = Round.start(ruleset, seed, table.games_in_round).game(0)
        seat = state.current_player
        best = solve(state.table, state.racks[seat], False, ruleset)
        if any(tile.is_joker for tile in best.played):
            return seed
    raise AssertionError("no seed found")


@contextmanager
def starter_melds() -> Iterator[None]:
    with override_settings(GAMES_ROUND_SEED=seed_where_the_starter_melds_with_a_joker):
        yield


def log_of(game: Game, user: User | None):  # type: ignore[no-untyped-def]
    return game_context(game, user)["log"]


def time_out(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    result = services.time_out_turn(game.pk, game.turn_number)
    assert result is not None
    game.refresh_from_db()
    return game


# --- draws ---------------------------------------------------------------------------


def test_a_drawn_tile_is_named_to_the_drawer_only(alice: User, bob: User, carol: User) -> None:
    game = current_game(start_table(alice, bob))
    drawer, other = mover(game), waiter(game)
    rack_before = Counter(game.engine_state().racks[game.current_seat])

    services.draw(game.pk, drawer, 0)
    game.refresh_from_db()
    seat = 1 - game.current_seat
    (tile,) = (Counter(game.engine_state().racks[seat]) - rack_before).elements()

    mine = log_of(game, drawer)
    assert mine.entries[0].words == f"You drew {tile}."
    assert mine.drawn == (str(tile),)
    for viewer in (other, carol):
        log = log_of(game, viewer)
        assert log.entries[0].words == f"{drawer.display_name} drew a tile."
        assert not TILE.search(log.entries[0].words)
        assert log.drawn == ()


def test_the_drawn_tile_stays_marked_until_the_drawer_moves_again(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    first, second = mover(game), waiter(game)
    services.draw(game.pk, first, 0)
    services.draw(game.pk, second, 1)
    game.refresh_from_db()
    assert len(log_of(game, first).drawn) == 1  # the other's move does not clear it

    services.draw(game.pk, first, 2)
    game.refresh_from_db()
    log = log_of(game, first)
    assert len(log.drawn) == 1
    assert [entry.turn for entry in log.entries] == [3, 2, 1]  # newest first
    assert log.entries[0].words.startswith("You drew ")


def test_the_rack_marks_the_drawn_tile_for_the_drawer_and_for_nobody_else(
    alice: User, bob: User
) -> None:
    game = current_game(start_table(alice, bob))
    drawer, other = mover(game), waiter(game)
    services.draw(game.pk, drawer, 0)
    game.refresh_from_db()
    (drawn,) = log_of(game, drawer).drawn

    mine = client_as(drawer).get(url("game", game)).text
    theirs = client_as(other).get(url("game", game)).text

    assert mine.count("is-drawn") == 1
    assert f'aria-label="{tile_name(drawn)}, just drawn"' in mine
    assert "is-drawn" not in theirs
    assert not tiles_in(theirs) & hidden_from(game.engine_state(), game.current_seat)


# --- a timeout -----------------------------------------------------------------------


def test_a_timeout_after_moving_tiles_is_told_in_words(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    player, other = mover(game), waiter(game)
    tile = str(game.engine_state().racks[game.current_seat][0])
    services.move_tiles(game.pk, player, [(tile, "rack")], "new")
    rack_before = Counter(game.engine_state().racks[game.current_seat])

    game = time_out(game)
    seat = 1 - game.current_seat
    penalty = Counter(game.engine_state().racks[seat]) - rack_before
    assert sum(penalty.values()) == 3

    mine = log_of(game, player)
    codes = " ".join(sorted(str(t) for t in penalty.elements()))
    assert mine.timeout.startswith(
        "Your time ran out: your tiles went back and you drew 3 penalty tiles: "
    )
    assert sorted(mine.timeout.rstrip(".").split(": ")[-1].split()) == codes.split()
    assert sorted(mine.drawn) == codes.split()
    theirs = log_of(game, other)
    assert theirs.timeout == ""
    assert theirs.entries[0].words == (
        f"{player.display_name}\u2019s time ran out: their tiles went back and they drew "
        "3 penalty tiles."
    )


def test_the_page_tells_the_player_their_time_ran_out(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    player, other = mover(game), waiter(game)
    game = time_out(game)  # nothing moved: the overtime penalty, one tile

    html = client_as(player).get(url("game", game)).text
    assert "Your time ran out: you drew 1 tile: " in as_codes(html)
    assert 'class="timeout-note"' in html
    assert "Your time ran out" not in client_as(other).get(url("game", game)).text


def test_a_later_move_of_the_player_clears_the_timeout_note(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob))
    player, other = mover(game), waiter(game)
    game = time_out(game)
    services.draw(game.pk, other, game.version)
    services.draw(game.pk, player, game.version + 1)
    game.refresh_from_db()

    assert log_of(game, player).timeout == ""


# --- plays ---------------------------------------------------------------------------


def test_an_initial_meld_is_worth_the_same_in_the_log_the_hint_and_the_verdict(
    alice: User, bob: User
) -> None:
    with starter_melds():
        game = current_game(start_table(alice, bob))
    player = mover(game)
    state = game.engine_state()
    seat = game.current_seat

    hint = services.help.hint(game.pk, player)
    table = [parse_tiles(tiles) for tiles in hint.table]
    verdict = judge_turn(state.table, state.racks[seat], table, False)
    assert "J" in hint.played
    assert hint.meld_value == verdict.initial_meld_value
    assert hint.meld_value != hint.value  # the solver counts a joker as 0
    html = client_as(player).get(url("hint", game), HTTP_HX_REQUEST="true").text
    assert f"initial meld worth {verdict.initial_meld_value}" in html
    assert "points" not in html

    services.play(game.pk, player, 0, [list(s) for s in hint.table])
    game.refresh_from_db()
    for viewer in (alice, bob):
        log = log_of(game, viewer)
        assert log.entries[0].words.endswith(
            f"as the initial meld (worth {verdict.initial_meld_value})."
        )
        assert sorted(log.laid) == sorted(hint.played)


def test_the_tiles_of_the_last_play_are_marked_on_the_table(alice: User, bob: User) -> None:
    with starter_melds():
        game = current_game(start_table(alice, bob))
    player, other = mover(game), waiter(game)
    hint = services.help.hint(game.pk, player)
    services.play(game.pk, player, 0, [list(s) for s in hint.table])
    game.refresh_from_db()

    html = client_as(other).get(url("game", game)).text
    board = html[html.index('id="game-board"') : html.index('id="game-rack"')]
    assert board.count("is-new") == len(hint.played)
    assert "the tiles of the last play" in board


def test_a_game_whose_state_was_rewritten_has_an_empty_log(position: Game) -> None:
    services.draw(position.pk, mover(position), 0)
    position.refresh_from_db()

    log = move_log(position, seat_names(position), position.current_seat)
    assert log.entries == () and log.drawn == ()
