"""Beside a timeout in a case's evidence: when the mover's page was not connected; and
the turns in which a player asked the solver for help. Moderators only."""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import page_connections, services
from games.errors import NoArrangement
from games.models import Game, HelpAsked
from games.selectors.connections import merged
from games.services import help as solver_help
from moderation.models import Category
from moderation.selectors.evidence import game_evidence
from moderation.selectors.page_connections import NO_RECORD, at, beside_timeout
from tests.games.conftest import current_game
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url, timed_out_after

pytestmark = pytest.mark.django_db


def test_the_evidence_says_when_the_timed_out_player_s_page_was_not_connected(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    began = casual_game.created_at
    first = page_connections.opened(casual_game.pk, alice.pk, began + timedelta(seconds=5))
    assert first is not None
    page_connections.closed(first, began + timedelta(minutes=2))
    # A second tab open over the first: one presence.
    second = page_connections.opened(casual_game.pk, alice.pk, began + timedelta(minutes=1))
    assert second is not None
    page_connections.closed(second, began + timedelta(minutes=3))
    page_connections.opened(casual_game.pk, alice.pk, began + timedelta(minutes=35))
    page_connections.opened(casual_game.pk, bob.pk, began)  # bob's page says nothing of alice's
    game = timed_out_after(casual_game, 30)
    case = claim(open_case(game, alice, Category.STALLING), site_moderator)

    turn = game_evidence(game).turns[0]
    expected = (
        f"Alice's page was not connected from {at(began + timedelta(minutes=3))} "
        f"to {at(began + timedelta(minutes=35))}; the turn ran out at "
        f"{at(began + timedelta(minutes=30))}."
    )
    assert turn.replay.timed_out and turn.presence == expected
    assert "UTC" in expected
    page = Client()
    page.force_login(site_moderator)
    html = page.get(evidence_url(case, 1)).content.decode()
    assert html.count(expected.replace("'", "&#x27;")) == 2  # the summary and the turn
    # The parties never read it: the evidence is the moderator's.
    for party in (alice, bob):
        page.force_login(party)
        assert page.get(evidence_url(case, 1)).status_code == 404


def test_a_game_with_no_connection_on_record_says_so_beside_a_timeout(
    casual_game: Game,
) -> None:
    game = timed_out_after(casual_game, 5)

    assert game_evidence(game).turns[0].presence == NO_RECORD


def test_a_turn_not_timed_out_has_nothing_beside_it(
    casual_game: Game, alice: User, site_moderator: User
) -> None:
    page_connections.opened(casual_game.pk, alice.pk, casual_game.created_at)
    services.draw(casual_game.pk, alice, casual_game.version)

    assert game_evidence(current_game(casual_game.table)).turns[0].presence == ""


def test_a_page_never_connected_and_one_connected_throughout_are_said() -> None:
    began = timezone.now()
    ran_out = began + timedelta(hours=1)
    assert beside_timeout("Bob", [], began, ran_out).startswith(
        "Bob's page of this game was never connected while the history was kept (the last 90"
    )
    whole = beside_timeout("Bob", [(began - timedelta(minutes=1), ran_out)], began, ran_out)
    assert whole.startswith("Bob's page was connected for the whole turn")
    late = beside_timeout("Bob", [(began + timedelta(minutes=50), ran_out)], began, ran_out)
    assert late.startswith(
        f"Bob's page was not connected until {at(began + timedelta(minutes=50))}"
    )
    left = beside_timeout("Bob", [(began, began + timedelta(minutes=5))], began, ran_out)
    assert f"from {at(began + timedelta(minutes=5))} on;" in left
    blip = [(began, began + timedelta(minutes=5)), (began + timedelta(seconds=320), ran_out)]
    assert beside_timeout("Bob", blip, began, ran_out).startswith("Bob's page was connected for")


def test_spans_that_overlap_or_touch_are_one() -> None:
    t = timezone.now()
    m = timedelta(minutes=1)
    assert merged([(t + 3 * m, t + 4 * m), (t, t + 2 * m), (t + m, t + 3 * m)]) == [(t, t + 4 * m)]
    assert merged([(t, t + m), (t + 2 * m, t + 3 * m)]) == [(t, t + m), (t + 2 * m, t + 3 * m)]


def test_the_evidence_names_the_turns_in_which_a_player_asked_for_help(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    solver_help.hint(casual_game.pk, alice)
    solver_help.hint(casual_game.pk, alice)  # asked again: counted, answered from the cache
    services.draw(casual_game.pk, alice, casual_game.version)
    game = current_game(casual_game.table)
    services.draw(game.pk, bob, game.version)
    case = claim(open_case(game, bob, Category.COLLUSION), site_moderator)

    (row,) = HelpAsked.objects.all()
    assert (row.seat, row.turn_number, row.kind, row.times) == (0, 1, HelpAsked.Kind.HINT, 2)
    evidence = game_evidence(game)
    assert evidence.turns[0].help == ("a hint (2 times)",)
    assert evidence.turns[1].help == ()
    assert evidence.help_asked == {"Alice": [1]}
    page = Client()
    page.force_login(site_moderator)
    html = page.get(evidence_url(case, 1)).content.decode()
    assert "Solver help asked: Alice in turn 1." in html
    assert "Asked the solver for a hint (2 times) in this turn." in html
    assert "(asked for a hint (2 times))" in html


def test_asking_to_arrange_is_recorded_too(casual_game: Game, alice: User) -> None:
    tile = str(casual_game.engine_state().racks[0][0])
    with contextlib.suppress(NoArrangement):  # asked all the same: one tile makes no set
        solver_help.arrange_for_me(casual_game.pk, alice, [tile])

    assert HelpAsked.objects.get().kind == HelpAsked.Kind.ARRANGE
