"""The preview of a ruling (the standings before and after, nothing written), pausing a
running game while its case is open, and suspending a member (undone by a later
ruling)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.errors import GameHeld
from games.models import Game, Result
from moderation.errors import ModerationError, NotAllowed
from moderation.models import Case, Category, LogEntry, Ruling, Suspension
from moderation.services.previews import preview
from tests.games.players import user_at
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed, league_case, ruled

pytestmark = pytest.mark.django_db

__all__ = ["league_case"]


def test_the_preview_shows_the_standings_before_and_after_and_writes_nothing(
    league_case: Case, league_game: Game, club_moderator: User
) -> None:
    counts = (Result.objects.count(), Ruling.objects.count(), LogEntry.objects.count())
    winner = Result.objects.current().of_game(league_game).get(is_winner=True).seat
    shown = preview(
        league_case,
        club_moderator,
        Ruling.Kind.SET_RESULT,
        "Scored wrongly.",
        details={"scores": {str(winner): -60, str(1 - winner): 60}, "winner": 1 - winner},
    )
    assert (Result.objects.count(), Ruling.objects.count(), LogEntry.objects.count()) == counts
    assert shown.division == "Division 1"
    assert shown.standings_change and not shown.proposed
    assert {line.seat for line in shown.seats if line.changed} == {0, 1}
    after = {line.seat: line.after for line in shown.seats}
    assert after[1 - winner] == (60, 1, True, True)
    assert len(shown.standings) == 4
    # The game changes hands by 120 points: the two players swap places in the table.
    moved = {line.name for line in shown.standings if line.rank_before != line.rank_after}
    assert moved == {"Bob", "Dave"}
    league_case.refresh_from_db()
    assert league_case.status == Case.Status.OPEN


@pytest.fixture
def casual_case(casual_game: Game, bob: User, site_moderator: User) -> Case:
    return claimed(open_case(casual_game, bob, Category.STALLING), site_moderator)


def test_a_pause_holds_the_game_until_the_case_is_decided(
    casual_case: Case, casual_game: Game, site_moderator: User
) -> None:
    pause = ruled(casual_case, site_moderator, Ruling.Kind.PAUSE)
    assert pause.effects == {"held": True, "holds": True}
    casual_case.refresh_from_db()
    assert casual_case.status == Case.Status.OPEN
    with pytest.raises(GameHeld):
        services.draw(casual_game.pk, user_at(casual_game, 0), casual_game.version)
    decided = ruled(casual_case, site_moderator, Ruling.Kind.DISMISS)
    assert decided.effects == {"released": True, "decided": True}
    casual_game.refresh_from_db()
    assert casual_game.held_at is None
    services.draw(casual_game.pk, user_at(casual_game, 0), casual_game.version)


def test_a_suspension_is_lifted_by_the_ruling_that_supersedes_it(
    league_case: Case, club_moderator: User, dave: User
) -> None:
    suspension = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SUSPEND,
        target=dave,
        details={"scope": "club", "days": 7},
    )
    held = Suspension.objects.get(ruling=suspension)
    assert held.club_id == league_case.club_id and held.lifted_at is None
    assert held.ends_at - held.starts_at == timedelta(days=7)
    with pytest.raises(NotAllowed, match="site moderator"):
        ruled(
            league_case,
            club_moderator,
            Ruling.Kind.SUSPEND,
            target=dave,
            supersedes_id=suspension.pk,
            details={"scope": "site", "days": 7},
        )
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=suspension.pk)
    held.refresh_from_db()
    assert held.lifted_at is not None and held.lifted_at <= timezone.now()


def drawn_twice(game: Game) -> None:
    for _ in range(2):
        services.draw(game.pk, user_at(game, game.current_seat or 0), game.version)
        game.refresh_from_db()


def rewound(
    case: Case, by: User, game: Game, turn: int, supersedes_id: int | None = None
) -> Ruling:
    """A rewind ruling on ``case`` to ``turn``; ``game`` is read again after it."""
    ruling = ruled(
        case, by, Ruling.Kind.REWIND, details={"turn": turn}, supersedes_id=supersedes_id
    )
    game.refresh_from_db()
    return ruling


def test_a_rewind_ruling_superseded_at_once_restores_the_game_exactly(
    casual_case: Case, casual_game: Game, site_moderator: User
) -> None:
    drawn_twice(casual_game)
    before = (casual_game.state, casual_game.turn_number, casual_game.current_seat)
    with pytest.raises(ModerationError, match="earlier turn"):
        ruled(casual_case, site_moderator, Ruling.Kind.REWIND, details={"turn": 3})
    version = casual_game.version
    ruling = rewound(casual_case, site_moderator, casual_game, 1)
    assert ruling.effects == {"rewound": 1, "rewind_move": version + 1, "decided": True}
    assert casual_game.turn_number == 1
    regret = ruled(casual_case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=ruling.pk)
    casual_game.refresh_from_db()
    assert (casual_game.state, casual_game.turn_number, casual_game.current_seat) == before
    assert casual_game.engine_state() == casual_game.replay_state()
    assert casual_game.turn_deadline is not None  # the restored turn has a fresh clock
    log = [move.action["type"] for move in casual_game.moves.order_by("seq")]
    assert log == ["draw", "draw", "rewind", "restore"]
    assert regret.effects == {
        "decided": True,
        "undoing": {"restored": 1, "restore_move": casual_game.version, "reopened": True},
    }
    page = Client()
    page.force_login(site_moderator)
    shown = page.get(reverse("moderation:ruling", args=[regret.pk])).content.decode()
    assert "supersedes: the rewind to turn 1 was taken back" in shown
    # Superseding the dismissal undoes only the dismissal: it found the game as it was
    # before the rewind, and leaves it so (the rewind stays undone).
    ruled(casual_case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=regret.pk)
    casual_game.refresh_from_db()
    assert (casual_game.state, casual_game.turn_number, casual_game.current_seat) == before
    log = [move.action["type"] for move in casual_game.moves.order_by("seq")]
    assert log == ["draw", "draw", "rewind", "restore"]


def test_a_rewind_ruling_cannot_be_undone_once_a_move_was_made(
    casual_case: Case, casual_game: Game, site_moderator: User
) -> None:
    from moderation.errors import Conflict

    drawn_twice(casual_game)
    ruling = rewound(casual_case, site_moderator, casual_game, 1)
    services.draw(
        casual_game.pk, user_at(casual_game, casual_game.current_seat or 0), casual_game.version
    )
    with pytest.raises(Conflict, match="cannot be undone"):
        ruled(casual_case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=ruling.pk)
    casual_game.refresh_from_db()
    assert casual_game.turn_number == 2
    assert casual_game.moves.order_by("-seq").first().action == {"type": "draw"}  # type: ignore[union-attr]


def test_a_rewind_superseding_a_rewind_is_undone_back_to_what_it_found(
    casual_case: Case, casual_game: Game, site_moderator: User
) -> None:
    drawn_twice(casual_game)
    at_turn_3 = casual_game.state
    first = rewound(casual_case, site_moderator, casual_game, 2)
    second = rewound(casual_case, site_moderator, casual_game, 1, supersedes_id=first.pk)
    assert casual_game.turn_number == 1
    ruled(casual_case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=second.pk)
    casual_game.refresh_from_db()
    # The second rewind found the game with the first one taken back: turn 3.
    assert casual_game.turn_number == 3 and casual_game.state == at_turn_3
    assert casual_game.engine_state() == casual_game.replay_state()
