"""A game a moderator rewound replays in its evidence through the engine's Timeline:
the rewind is a step of its own, and the turns played again after it follow on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.models import User
from engine.actions import Draw, Rewind
from engine.game import new_game
from engine.ruleset import Ruleset
from games import services
from games.models import Game
from games.services.rewinds import rewind
from moderation.models import Category
from moderation.selectors.evidence import game_evidence
from moderation.selectors.solver_lines import solver_lines
from moderation.selectors.turns import MoveRecord, replay_turns
from tests.conftest import client_as
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url
from tests.moderation.test_evidence_builders import T0


def _record(seq: int, seat: int, action: object, turn: int) -> MoveRecord:
    return MoveRecord(seq, seat, action, turn, "user", T0 + timedelta(seconds=seq))  # type: ignore[arg-type]


def test_a_rewind_is_a_step_and_the_game_goes_on_from_the_turn_it_went_back_to() -> None:
    start = new_game(Ruleset(players=2), 7, 0)
    log = [
        _record(1, 0, Draw(), 1),
        _record(2, 1, Draw(), 2),
        _record(3, 0, Draw(), 3),
        _record(4, 0, Rewind(2), 4),
        _record(5, 1, Draw(), 2),
        _record(6, 0, Draw(), 3),
    ]

    turns = replay_turns(start, log, ["Ann", "Ben"])

    assert [t.kind for t in turns] == ["draw", "draw", "draw", "rewind", "draw", "draw"]
    rewound, again = turns[3], turns[4]
    assert rewound.events == ("A moderator's ruling took the game back to the start of turn 2.",)
    assert not rewound.is_choice
    # Back to the start of turn 2: the racks as they were then, and played again from there.
    assert rewound.racks_after == turns[1].racks_before
    assert again.racks_before == rewound.racks_after
    assert (again.turn_number, again.mover) == (2, 1)
    assert again.racks_after == turns[1].racks_after
    assert rewound.pool_after == turns[1].pool_before


@pytest.mark.django_db
def test_the_evidence_of_a_rewound_game_shows_the_rewind_as_a_step(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    services.draw(casual_game.pk, alice, casual_game.version)
    casual_game.refresh_from_db()
    services.draw(casual_game.pk, bob, casual_game.version)
    rewind(casual_game.pk, 1)
    casual_game.refresh_from_db()
    services.draw(casual_game.pk, alice, casual_game.version)
    casual_game.refresh_from_db()
    case = claim(open_case(casual_game, bob, Category.BUG), site_moderator)

    found = game_evidence(casual_game)
    lines = solver_lines([t.replay for t in found.turns], casual_game.pk)

    assert [t.replay.kind for t in found.turns] == ["draw", "draw", "rewind", "draw"]
    assert found.turns[2].replay.racks_after == found.turns[0].replay.racks_before
    # Alice drew again from the pool the rewind shuffled afresh.
    now = casual_game.engine_state()
    assert found.turns[3].replay.racks_after == tuple(
        tuple(str(tile) for tile in rack) for rack in now.racks
    )
    assert 3 not in lines.lines
    client = client_as(site_moderator)
    html = client.get(evidence_url(case, 3)).content.decode()
    # The case's moderator still sees the turn the rewind undid (players no longer do).
    undone = client.get(evidence_url(case, 2)).content.decode()
    assert "Turn 2: Bob</h2>" in undone and " drew " in undone
    assert "A moderator's ruling</h2>" in html
    assert "Clock:" not in html  # a ruling is nobody's turn
    # After the rewind the evidence names the game's turns, not its steps.
    after = client.get(evidence_url(case, 4)).content.decode()
    assert "Turn 1: Alice</h2>" in after
    assert "· step 4 of 4" in after
    assert "UTC" in after.split('class="evidence-clock"')[1].split("</p>")[0]
    assert "took the game back to the start of turn 1." in html
    assert "Solver: nothing to say about this move." in html
    assert "From the rack to the table" not in html
    assert "<td><em>a moderator</em></td>" in html  # the list of turns names no player
    assert "hx-trigger" not in html.split('id="evidence-turn"')[1].split(">")[0]
