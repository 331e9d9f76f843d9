"""Forced turns that play themselves: the proof, the delay, the draw by a member's
standing order (games.services.forced), and never otherwise."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from engine.solver import Budget
from games import receivers, services, tasks
from games.conf import eta_horizon_seconds
from games.models import ForcedTurn, Game, Move, Table
from games.models.table_settings import TableSettings
from games.rendering import game_context, render_live_fragments
from games.services import SeatPlan, forced
from notifications.models import Notification
from tests.conftest import client_as
from tests.games.conftest import current_game, seat_is_forced_first, start_table
from tests.games.positions import set_position
from tests.moderation.conftest import open_case, site_moderator
from tests.moderation.evidence_support import claim, evidence_url

pytestmark = pytest.mark.django_db

__all__ = ["site_moderator"]  # the moderators' fixture, from tests/moderation

# Alice (seat 0, to move, melded) holds nothing that fits this table, or one another.
NO_PLAY = (["R1", "R5", "B9", "K13", "O7"], [["R10", "R11", "R12"]])
# No play either, but only a search shows it (B2 would take B3 from the group).
NO_PLAY_SEARCHED = (["B2", "O7", "K13", "R1"], [["K3", "O3", "B3"], ["B4", "B5", "B6"]])
# ...while R13 fits the run.
A_PLAY = (["R1", "R5", "B9", "K13", "R13"], [["R10", "R11", "R12"]])


def _game(
    alice: User, bob: User, answer: bool | None, position: tuple[list[str], list[list[str]]]
) -> Game:
    User.objects.filter(pk=alice.pk).update(draws_forced_turns=answer)
    game = current_game(start_table(alice, bob, first=0))
    rack, table = position
    return set_position(game, table, rack)


def _proven_and_planned(game: Game, rng_seed: int = 7) -> tuple[forced.Proof, float | None]:
    proof = forced.prove_turn(game.pk, game.turn_number)
    assert proof is not None
    return proof, forced.plan_draw(game.pk, proof, random.Random(rng_seed), timezone.now())


def test_an_opted_in_member_with_no_play_gets_the_draw_after_the_delay(
    alice: User, bob: User
) -> None:
    game = _game(alice, bob, True, NO_PLAY)
    proof, delay = _proven_and_planned(game)
    assert proof.check.answer == "none" and proof.forced_turn is not None
    assert delay is not None and delay >= 2
    # Too early: nothing (a task delivered early).
    assert forced.draw_for_member(game.pk, game.turn_number, proof.version) is None
    assert not Move.objects.filter(game=game).exists()
    with time_machine.travel(timezone.now() + timedelta(seconds=delay + 1)):
        drawn = forced.draw_for_member(game.pk, game.turn_number, proof.version)
    assert drawn is not None and drawn.turn_number == 2
    move = Move.objects.get(game=game)
    assert (move.by, move.user_id, move.action["type"]) == (Move.By.ORDER, alice.pk, "draw")
    assert ForcedTurn.objects.get(game=game).drawn_for_them
    notice = Notification.objects.get(user=alice, kind="drawn_for_you")
    assert notice.text.startswith("Turn 1 had no play: drawn for you")
    assert not Notification.objects.filter(user=bob, kind="drawn_for_you").exists()


def test_the_delay_is_the_same_for_the_same_seed_and_within_the_bounds(
    alice: User, bob: User
) -> None:
    game = _game(alice, bob, True, NO_PLAY)
    proof = forced.prove_turn(game.pk, game.turn_number)
    assert proof is not None
    now = timezone.now()
    first = forced.plan_draw(game.pk, proof, random.Random(3), now)
    again = forced.plan_draw(game.pk, proof, random.Random(3), now)
    assert first == again
    assert first is not None and 2 <= first <= 900


def test_a_turn_with_a_play_is_never_drawn(alice: User, bob: User) -> None:
    game = _game(alice, bob, True, A_PLAY)
    proof, delay = _proven_and_planned(game)
    assert proof.check.answer == "play" and proof.forced_turn is None and delay is None
    assert not ForcedTurn.objects.exists()
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert forced.draw_for_member(game.pk, 1, game.version) is None
    assert not Move.objects.filter(game=game).exists()


def test_a_proof_cut_short_by_its_budget_draws_nothing(alice: User, bob: User) -> None:
    game = _game(alice, bob, True, NO_PLAY_SEARCHED)
    proof = forced.prove_turn(game.pk, game.turn_number, Budget(steps=1))
    assert proof is not None and proof.check.answer == "unknown"
    assert proof.forced_turn is None
    assert forced.plan_draw(game.pk, proof, random.Random(1), timezone.now()) is None
    assert not ForcedTurn.objects.exists()


def test_a_task_that_comes_after_the_member_moved_does_nothing(alice: User, bob: User) -> None:
    game = _game(alice, bob, True, NO_PLAY)
    proof, delay = _proven_and_planned(game)
    assert delay is not None
    services.draw(game.pk, alice, game.version)  # she was quicker
    with time_machine.travel(timezone.now() + timedelta(seconds=delay + 1)):
        assert forced.draw_for_member(game.pk, 1, proof.version) is None
        assert forced.draw_for_member(game.pk, 1, proof.version) is None
    assert list(Move.objects.filter(game=game).values_list("by", flat=True)) == [Move.By.USER]


def test_it_draws_only_once_when_its_task_comes_twice(alice: User, bob: User) -> None:
    game = _game(alice, bob, True, NO_PLAY)
    proof, delay = _proven_and_planned(game)
    assert delay is not None
    with time_machine.travel(timezone.now() + timedelta(seconds=delay + 1)):
        assert forced.draw_for_member(game.pk, 1, proof.version) is not None
        assert forced.draw_for_member(game.pk, 1, proof.version) is None
    assert Move.objects.filter(game=game).count() == 1


def test_a_member_who_said_no_is_not_proven_for_nor_drawn_for(alice: User, bob: User) -> None:
    game = _game(alice, bob, False, NO_PLAY)
    assert forced.prove_turn(game.pk, game.turn_number) is None
    assert not ForcedTurn.objects.exists()


def test_a_member_not_asked_yet_is_proven_for_but_not_drawn_for(alice: User, bob: User) -> None:
    game = _game(alice, bob, None, NO_PLAY)
    proof, delay = _proven_and_planned(game)
    assert proof.forced_turn is not None and delay is None
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert forced.draw_for_member(game.pk, 1, proof.version) is None
    assert not Move.objects.filter(game=game).exists()


def test_the_offer_shows_once_the_member_drew_a_forced_turn_and_goes_with_an_answer(
    alice: User, bob: User
) -> None:
    game = _game(alice, bob, None, NO_PLAY)
    forced.prove_turn(game.pk, game.turn_number)
    game.refresh_from_db()
    assert game_context(game, alice)["forced_offer"] is None  # not drawn yet
    services.draw(game.pk, alice, game.version)
    game.refresh_from_db()
    alice.refresh_from_db()
    assert game_context(game, alice)["forced_offer"] == 1
    assert game_context(game, bob)["forced_offer"] is None
    forced.answer_offer(alice, True)
    assert game_context(game, alice)["forced_offer"] is None


def test_the_turn_start_proves_and_queues_the_draw_on_the_bots_queue(
    alice: User, bob: User
) -> None:
    """Through the receiver of a turn's start and its tasks (Celery eager: the draw's
    task runs at once, before its moment, and so does nothing; the moment is kept with
    the proof, and a task then draws)."""
    game = _game(alice, bob, True, NO_PLAY)
    receivers.prove_forced_turn(Game, game_id=game.pk, turn_number=1, seat=0, wants_proof=True)
    row = ForcedTurn.objects.get(game=game, turn_number=1)
    assert row.draw_at is not None and not row.drawn_for_them
    assert not Move.objects.filter(game=game).exists()
    with time_machine.travel(row.draw_at + timedelta(seconds=1)):
        tasks.draw_forced_turn.delay(game.pk, 1, row.version)
    assert Move.objects.get(game=game).by == Move.By.ORDER


def test_the_proof_and_the_draw_run_on_the_bots_queue() -> None:
    routes = settings.CELERY_TASK_ROUTES
    for name in ("games.tasks.prove_forced_turn", "games.tasks.draw_forced_turn"):
        assert routes[name]["queue"].endswith("bots")


def test_the_notice_s_delivery_is_offered_to_members_who_gave_the_order(
    alice: User, bob: User
) -> None:
    User.objects.filter(pk=alice.pk).update(draws_forced_turns=True)
    alice.refresh_from_db()
    page = client_as(alice).get(reverse("notifications:list")).text
    assert "A turn with no play drawn for you" in page
    assert (
        "A turn with no play drawn for you"
        not in client_as(bob).get(reverse("notifications:list")).text
    )


def test_the_others_read_an_ordinary_draw_the_member_and_moderators_what_it_was(
    alice: User, bob: User, site_moderator: User, django_capture_on_commit_callbacks: Any
) -> None:
    """A game played from the deal (the log replays it): the draw of Alice's forced
    first turn, made by her standing order."""
    User.objects.filter(pk=alice.pk).update(draws_forced_turns=True)
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    )
    # The facts' receivers run as the facts commit: the turn's start queues the proof.
    with seat_is_forced_first(0), django_capture_on_commit_callbacks(execute=True):
        services.join_table(table.pk, bob)
    game = current_game(table)
    if game.current_seat == 1:
        with django_capture_on_commit_callbacks(execute=True):
            services.draw(game.pk, bob, game.version)
    row = ForcedTurn.objects.get(game=game)  # proven as the turn started (Celery eager)
    assert row.draw_at is not None
    with time_machine.travel(row.draw_at + timedelta(seconds=1)):
        assert forced.draw_for_member(game.pk, row.turn_number, row.version) is not None
    game.refresh_from_db()
    alices = game_context(game, alice)["log"].entries[0].words
    assert alices.startswith("No play: your standing order drew ")
    assert game_context(game, bob)["log"].entries[0].words == "Alice drew a tile."
    assert game_context(game, None)["log"].entries[0].words == "Alice drew a tile."
    for reader in (bob, None):
        html = render_live_fragments(game, reader)
        assert "standing order" not in html and "had no play" not in html
    case = claim(open_case(game, bob, turn_number=row.turn_number), site_moderator)
    page = client_as(site_moderator).get(evidence_url(case, row.turn_number))
    assert "Drawn by the player's standing order" in page.content.decode()


# -- the answer to the offer -------------------------------------------------------------


def _answer(user: User | None, game: Game, answer: str = "yes", method: str = "post") -> Any:
    url = reverse("games:standing_order", args=[game.pk])
    return getattr(client_as(user), method)(url, {"answer": answer}, HTTP_HX_REQUEST="true")


def test_a_player_answers_the_offer_yes_or_no(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob, first=0))
    response = _answer(alice, game, "yes")
    assert response.status_code == 200
    assert "drawn for you after a while" in response.text
    alice.refresh_from_db()
    assert alice.draws_forced_turns is True
    assert _answer(alice, game, "no").status_code == 200
    alice.refresh_from_db()
    assert alice.draws_forced_turns is False


def test_the_opponent_answers_only_for_themselves(alice: User, bob: User) -> None:
    game = current_game(start_table(alice, bob, first=0))
    assert _answer(bob, game, "yes").status_code == 200
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.draws_forced_turns, bob.draws_forced_turns) == (None, True)


def test_an_outsider_a_spectator_a_visitor_and_bad_input_change_nothing(
    alice: User, bob: User, carol: User
) -> None:
    game = current_game(start_table(alice, bob, first=0))
    assert _answer(carol, game).status_code == 403  # a spectator of a public table: no turns
    assert _answer(None, game).status_code == 302  # to the login page
    assert _answer(alice, game, "maybe").status_code == 400
    assert _answer(alice, game, method="get").status_code == 405
    Table.objects.filter(pk=game.table_id).update(private=True)
    assert _answer(carol, game).status_code == 404
    assert not User.objects.exclude(draws_forced_turns=None).exists()


def test_the_sweep_makes_a_due_draw_once_and_no_other(alice: User, bob: User) -> None:
    """A wait past the horizon of queued tasks (a correspondence table's turn times),
    or a lost task: beat's sweep draws when the moment has come, and only then."""
    game = _game(alice, bob, True, NO_PLAY)
    _, delay = _proven_and_planned(game)
    assert delay is not None
    row = ForcedTurn.objects.get(game=game)
    assert row.draw_at is not None
    assert forced.sweep_draws(row.draw_at - timedelta(seconds=1)) == 0
    assert forced.sweep_draws(row.draw_at + timedelta(seconds=5)) == 0  # still too early now
    with time_machine.travel(row.draw_at + timedelta(seconds=5)):
        assert tasks.sweep_forced_draws.delay().get() == 1
        assert forced.sweep_draws(timezone.now()) == 0
    assert Move.objects.get(game=game).by == Move.By.ORDER


def test_a_long_wait_is_taken_from_the_table_s_turn_times_and_left_to_the_sweep(
    alice: User, bob: User
) -> None:
    durations = [6 * 3600.0, 7 * 3600.0, 5 * 3600.0]
    delay = forced.draw_delay(durations, 48 * 3600.0, random.Random(5))
    assert 4 * 3600 <= delay <= 8.4 * 3600
    assert delay > eta_horizon_seconds()  # its task is not queued: the sweep makes it
    # Never past half the time left on the turn's clock.
    assert forced.draw_delay(durations, 3600.0, random.Random(5)) == 1800.0
