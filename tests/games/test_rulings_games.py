"""What the games app gives moderators' rulings: a voided game counts for nobody (and
counts again when a ruling restores it), and a hold stops a running game's clocks."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games import services
from games.errors import GameFinished, GameHeld, InvalidRuling
from games.models import Game, Result, Table
from games.services.holds import hold_clocks, release_clocks
from games.services.results import supersede
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.games.test_results import finish_by_drawing, two_game_round

pytestmark = pytest.mark.django_db


def test_a_void_game_leaves_the_rounds_totals_and_counts_again_when_restored(
    alice: User, bob: User
) -> None:
    table = two_game_round(alice, bob)
    first = finish_by_drawing(current_game(table))
    counting = Result.objects.counting().of_table(table)
    played = counting.totals(table)
    assert played != (0, 0)
    moderator = UserFactory(username="mod")

    rows = supersede(first.pk, {}, Result.Source.VOID, "Dealt from a broken pool", moderator)

    assert {row.source for row in rows} == {"void"}
    assert [row.score for row in rows] == list(played)  # kept, for the audit and a restore
    assert counting.totals(table) == (0, 0)
    with pytest.raises(InvalidRuling, match="changes nothing"):
        supersede(first.pk, {}, Result.Source.VOID, "Again", moderator)
    # A ruling giving the same values makes the game count again, every seat rewritten.
    restored = supersede(first.pk, {}, Result.Source.RULING, "Not void after all", moderator)
    assert {row.source for row in restored} == {"ruling"}
    assert counting.totals(table) == played


@pytest.fixture
def correspondence(alice: User, bob: User) -> Game:
    return current_game(start_table(alice, bob, first=0, clock=Table.Clock.CORRESPONDENCE))


def test_a_held_game_refuses_moves_and_its_deadline_cannot_pass(correspondence: Game) -> None:
    game = correspondence
    assert game.turn_deadline is not None
    left = game.turn_deadline - timezone.now()
    held = hold_clocks(game.pk)
    assert held.turn_deadline is None and held.turn_reminder_at is None
    with pytest.raises(GameHeld, match="paused"):
        services.draw(game.pk, user_at(game, 0), game.version)
    with pytest.raises(InvalidRuling, match="held already"):
        hold_clocks(game.pk)
    with time_machine.travel(timezone.now() + left + timedelta(days=3), tick=False):
        assert services.time_out_turn(game.pk, game.turn_number) is None
        released = release_clocks(game.pk)
        assert released is not None and released.held_at is None
        # The player has what was left of their turn, from the release on.
        assert released.turn_deadline is not None
        assert abs((released.turn_deadline - timezone.now()) - left) < timedelta(seconds=2)
    assert release_clocks(game.pk) is None
    services.draw(game.pk, user_at(game, 0), game.version)


def test_a_finished_game_has_no_clock_to_hold(alice: User, bob: User) -> None:
    game = finish_by_drawing(current_game(two_game_round(alice, bob)))
    with pytest.raises(GameFinished):
        hold_clocks(game.pk)


def test_a_rewind_takes_the_game_back_and_it_still_replays_exactly(correspondence: Game) -> None:
    from games.selectors.replay import replay_frame
    from games.services.rewinds import rewind

    game = correspondence
    dealt = game.engine_state()
    for _ in range(3):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    assert game.turn_number == 4
    rewound = rewind(game.pk, 2)
    assert rewound.turn_number == 2 and rewound.current_seat == 1
    assert rewound.engine_state() == rewound.replay_state()
    assert rewound.engine_state().racks[0] != dealt.racks[0]  # seat 0's draw of turn 1 stays
    assert rewound.turn_deadline is not None
    logged = game.moves.order_by("-seq").first().action  # type: ignore[union-attr]
    assert logged == {"type": "rewind", "turn": 2, "seed": logged["seed"]}
    with pytest.raises(InvalidRuling, match="earlier turn"):
        rewind(game.pk, 2)
    # Play goes on from turn 2, and the finished game's replay shows the rewind as a step.
    services.resign(game.pk, user_at(game, 0))
    game.refresh_from_db()
    frames = [replay_frame(game, step) for step in range(8)]
    assert any("took the game back to the start of turn 2" in " ".join(f.events) for f in frames)
    assert frames[-1].outcome is not None
    with pytest.raises(GameFinished):
        rewind(game.pk, 1)


def test_a_rewind_taken_back_at_once_restores_the_game_and_its_log_says_so(
    correspondence: Game,
) -> None:
    from games.selectors.move_log import move_log
    from games.selectors.replay import replay_frame
    from games.services.rewinds import restore, rewind

    game = correspondence
    for _ in range(3):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()
    before = game.engine_state()
    rewound = rewind(game.pk, 2)
    restored = restore(game.pk, rewound.version)
    assert restored.engine_state() == before == restored.replay_state()
    assert restored.turn_number == 4 and restored.current_seat == before.current_player
    assert restored.turn_deadline is not None
    with pytest.raises(InvalidRuling, match="played on"):
        restore(game.pk, rewound.version)
    words = [entry.words for entry in move_log(restored, ["A", "B"], 0).entries]
    assert words[0].startswith("A later ruling took that back")
    # The finished game's replay walks through both, each a step of its own.
    services.resign(game.pk, user_at(game, 0))
    game.refresh_from_db()
    frames = [replay_frame(game, step) for step in range(8)]
    assert any("A later ruling took that back" in " ".join(f.events) for f in frames)
    assert frames[-1].outcome is not None
