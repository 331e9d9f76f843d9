"""The solver's help and multi-tile edits (games.services.help), below the views."""

from collections import Counter

import pytest

from accounts.models import User
from engine.actions import parse_table
from engine.tiles import parse_tiles
from games.errors import DraftError, NotSeated, NotYourTurn
from games.models import Game
from games.selectors.replay import mark_new
from games.services import help as solver_help
from games.services.drafts import move_tiles
from tests.games.views_support import TABLE, mover, waiter

pytestmark = pytest.mark.django_db


def sets(view: object) -> list[list[str]]:
    return [list(s.tiles) for s in view.sets]  # type: ignore[attr-defined]


def test_several_tiles_move_at_once_and_indices_refer_to_the_table_before(position: Game) -> None:
    me = mover(position)
    move_tiles(position.pk, me, [("J", "rack")], "new")

    view = move_tiles(position.pk, me, [("J", 2), ("K1", "rack")], 0)

    assert sets(view) == [["R5", "R6", "R7", "J", "K1"], TABLE[1]]


def test_a_multi_move_is_all_or_nothing(position: Game) -> None:
    me = mover(position)

    with pytest.raises(DraftError, match="B13 is not on your rack"):
        move_tiles(position.pk, me, [("K1", "rack"), ("B13", "rack")], "new")
    with pytest.raises(DraftError, match="Set 1 has no K9"):
        move_tiles(position.pk, me, [("K9", 0)], "new")


def test_only_the_mover_edits_and_gets_help(position: Game, carol: User) -> None:
    with pytest.raises(NotYourTurn):
        move_tiles(position.pk, waiter(position), [("K1", "rack")], "new")
    with pytest.raises(NotYourTurn):
        solver_help.hint(position.pk, waiter(position), position.version)
    with pytest.raises(NotSeated):
        solver_help.arrange_for_me(position.pk, carol, ["K1"])


def test_a_hint_marks_the_rack_tiles_it_lays(position: Game) -> None:
    hint = solver_help.hint(position.pk, mover(position), position.version)

    new = Counter(t.tile for s in hint.sets for t in s.tiles if t.is_new)
    assert new == Counter(hint.played)
    assert all(s.changed for s in hint.sets if any(t.is_new for t in s.tiles))


def test_unchanged_sets_are_not_marked() -> None:
    before = parse_table([["R5", "R6", "R7"], ["K9", "B9", "O9"]])
    after = parse_table([["K9", "B9", "O9"], ["R4", "R5", "R6", "R7"]])

    shown = mark_new(before, after, Counter(parse_tiles(["R4"])))

    assert [s.changed for s in shown] == [False, True]
    assert [t.is_new for t in shown[1].tiles] == [True, False, False, False]
