import re

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.models import User
from games import services
from games.errors import DraftError, NotSeated, NotYourTurn
from games.live import game_group
from games.models import Draft, Game
from games.selectors.drafts import DraftView, read_draft
from games.services import NEW_SET, RACK
from tests.games.players import user_at
from tests.games.positions import set_position

pytestmark = pytest.mark.django_db

TABLE = [["R5", "R6", "R7"], ["K9", "B9", "O9"]]
RACK_TILES = ["R4", "R5", "R8", "B9", "K1", "K2", "K3", "J"]


@pytest.fixture
def position(game: Game) -> Game:
    return set_position(game, TABLE, RACK_TILES)


@pytest.fixture
def me(position: Game) -> User:
    assert position.current_seat is not None
    return user_at(position, position.current_seat)


@pytest.fixture
def other(position: Game) -> User:
    assert position.current_seat is not None
    return user_at(position, 1 - position.current_seat)


def tiles(view: DraftView) -> list[list[str]]:
    return [list(tile_set.tiles) for tile_set in view.sets]


def test_a_turn_starts_from_the_table_as_it_is(position: Game, me: User) -> None:
    view = read_draft(position, me)

    assert tiles(view) == TABLE
    assert list(view.rack) == sorted(RACK_TILES, key=lambda t: RACK_TILES.index(t))
    assert (view.editable, view.changed, view.ready) == (True, False, False)
    assert view.played == ()


def test_a_tile_from_the_rack_starts_a_new_set(position: Game, me: User) -> None:
    view = services.move_tiles(position.pk, me, [("K1", RACK)], NEW_SET)

    assert tiles(view) == [*TABLE, ["K1"]]
    assert view.sets[2].valid is False
    assert view.sets[2].problem == "K1 has only 1 tile: a set needs at least 3 tiles"
    assert "K1" not in view.rack
    assert (view.changed, view.played, view.ready) == (True, ("K1",), False)
    draft = Draft.objects.get(game=position)
    assert (draft.turn_number, draft.table) == (position.turn_number, [*TABLE, ["K1"]])


def test_a_draft_never_changes_the_games_version(position: Game, me: User) -> None:
    services.move_tiles(position.pk, me, [("K1", RACK)], NEW_SET)
    services.reset_draft(position.pk, me)

    position.refresh_from_db()
    assert position.version == 0
    assert not position.moves.exists()


def test_a_finished_draft_is_ready_and_played_as_it_is(position: Game, me: User) -> None:
    for tile in ("K1", "K2", "K3"):
        view = services.move_tiles(position.pk, me, [(tile, RACK)], NEW_SET if tile == "K1" else 2)
    view = services.move_tiles(position.pk, me, [("R4", RACK)], 0, position=0)

    assert tiles(view) == [["R4", "R5", "R6", "R7"], TABLE[1], ["K1", "K2", "K3"]]
    assert view.sets[0].kinds == ("run",) and view.sets[2].value == 6
    assert (view.ready, view.verdict) == (True, "Plays 4 tiles")

    services.play(position.pk, me, version=0)

    position.refresh_from_db()
    assert [[str(t) for t in s] for s in position.engine_state().table] == tiles(view)
    # The played draft stays until the game ends, but counts for no later turn.
    assert not Draft.objects.filter(turn_number=position.turn_number).exists()


def test_table_tiles_may_move_between_sets(position: Game, me: User) -> None:
    services.move_tiles(position.pk, me, [("R8", RACK)], 0)
    view = services.move_tiles(position.pk, me, [("R5", 0)], NEW_SET)

    assert tiles(view) == [["R6", "R7", "R8"], TABLE[1], ["R5"]]
    assert view.rack.count("R5") == 1


def test_a_tile_that_was_on_the_table_cannot_go_to_the_rack(position: Game, me: User) -> None:
    message = "R6 was on the table when your turn began: it stays on the table."

    with pytest.raises(DraftError, match=re.escape(message)):
        services.move_tiles(position.pk, me, [("R6", 0)], RACK)

    assert not Draft.objects.exists()


def test_a_copy_from_the_rack_may_go_back_from_any_set(position: Game, me: User) -> None:
    # Copies are interchangeable: with the rack's R5 on the table, either R5 may go back.
    services.move_tiles(position.pk, me, [("R5", RACK)], NEW_SET)
    view = services.move_tiles(position.pk, me, [("R5", 0)], RACK)

    assert tiles(view) == [["R6", "R7"], TABLE[1], ["R5"]]
    assert view.rack.count("R5") == 1 and view.played == ()
    with pytest.raises(DraftError, match="R5 was on the table"):
        services.move_tiles(position.pk, me, [("R5", 2)], RACK)


def test_a_set_left_empty_disappears(position: Game, me: User) -> None:
    services.move_tiles(position.pk, me, [("J", RACK)], NEW_SET)
    view = services.move_tiles(position.pk, me, [("J", 2)], RACK)

    assert tiles(view) == TABLE
    assert view.changed is False


def test_a_position_counts_in_the_order_the_page_shows_the_set(position: Game, me: User) -> None:
    # The group K9 B9 O9 is shown (and, once touched, kept) in colour order: B9 K9 O9.
    view = services.move_tiles(position.pk, me, [("K1", RACK)], 1, position=1)

    assert tiles(view) == [TABLE[0], ["B9", "K1", "K9", "O9"]]


def test_without_a_position_a_tile_joins_a_run_where_its_number_belongs(
    position: Game, me: User
) -> None:
    view = services.move_tiles(position.pk, me, [("R8", RACK), ("R4", RACK)], 0)

    assert tiles(view) == [["R4", "R5", "R6", "R7", "R8"], TABLE[1]]


@pytest.mark.parametrize(
    ("tile", "source", "target", "message"),
    [
        ("O13", RACK, NEW_SET, "O13 is not on your rack."),
        ("R9", 0, NEW_SET, "Set 1 has no R9."),
        ("R5", 5, NEW_SET, "There is no set 5 on the table."),
        ("R4", RACK, 9, "There is no set 9 on the table."),
        ("R4", RACK, RACK, "R4 is already on your rack."),
        ("R44", RACK, NEW_SET, "'R44' is not a tile"),
    ],
)
def test_impossible_edits_are_refused(
    position: Game, me: User, tile: str, source: int | str, target: int | str, message: str
) -> None:
    with pytest.raises(DraftError, match=re.escape(message)):
        services.move_tiles(position.pk, me, [(tile, source)], target)  # type: ignore[arg-type]


def test_reset_puts_everything_back(position: Game, me: User) -> None:
    services.move_tiles(position.pk, me, [("R8", RACK)], 0)

    view = services.reset_draft(position.pk, me)

    assert tiles(view) == TABLE and view.changed is False
    assert tiles(read_draft(position, me)) == TABLE


def test_a_draft_from_an_earlier_turn_is_ignored(position: Game, me: User) -> None:
    Draft.objects.create(game=position, seat=position.current_seat, turn_number=0, table=[])

    assert tiles(read_draft(position, me)) == TABLE
    view = services.move_tiles(position.pk, me, [("R8", RACK)], 0)
    assert tiles(view)[0] == ["R5", "R6", "R7", "R8"]


def test_only_the_player_whose_turn_it_is_edits(position: Game, other: User, carol: User) -> None:
    with pytest.raises(NotYourTurn):
        services.move_tiles(position.pk, other, [("R8", RACK)], 0)
    with pytest.raises(NotSeated):
        services.move_tiles(position.pk, carol, [("R8", RACK)], 0)

    view = read_draft(position, other)
    assert view.editable is False and tiles(view) == TABLE
    assert len(view.rack) == 14


def test_a_whole_table_can_be_saved_when_its_tiles_add_up(position: Game, me: User) -> None:
    view = services.save_draft(position.pk, me, [["R4", *TABLE[0]], TABLE[1], ["K1", "K2", "K3"]])
    assert view.ready

    with pytest.raises(DraftError, match="B9 was on the table"):
        services.save_draft(position.pk, me, [TABLE[0]])
    with pytest.raises(DraftError, match=re.escape("O11 is not on your rack.")):
        services.save_draft(position.pk, me, [*TABLE, ["O11", "O12", "O13"]])


def test_saving_a_draft_tells_the_game_only_who_is_building(
    position: Game, me: User, django_capture_on_commit_callbacks
) -> None:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(game_group(position.pk), channel)

    with django_capture_on_commit_callbacks(execute=True):
        services.move_tiles(position.pk, me, [("R8", RACK)], 0)

    message = async_to_sync(layer.receive)(channel)
    assert message == {"type": "game.building", "seat": position.current_seat}
    async_to_sync(layer.group_discard)(game_group(position.pk), channel)


def test_a_move_tells_the_game_only_its_new_version(
    game: Game, django_capture_on_commit_callbacks
) -> None:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(game_group(game.pk), channel)
    assert game.current_seat is not None

    with django_capture_on_commit_callbacks(execute=True):
        services.draw(game.pk, user_at(game, game.current_seat), 0)

    assert async_to_sync(layer.receive)(channel) == {"type": "game.changed", "version": 1}
    async_to_sync(layer.group_discard)(game_group(game.pk), channel)
