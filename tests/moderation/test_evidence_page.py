"""The evidence page as its moderator reads it: abandoned drafts, the chat, the solver's
lines (bounded, then cached), and a collusion case's pair history."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import override_settings

from accounts.models import User
from games import services
from games.models import ChatMessage, Game
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from leagues.models import Fixture
from moderation.models import Case, Category, LogEntry
from moderation.selectors.collusion import pair_histories
from moderation.selectors.evidence import game_evidence
from moderation.selectors.solver_lines import solver_lines
from tests.conftest import client_as
from tests.games.answers_support import answered
from tests.games.conftest import current_game
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url

pytestmark = pytest.mark.django_db


def _read(moderator: User, case: Case, turn: int | None = None) -> str:
    response = client_as(moderator).get(evidence_url(case, turn))
    assert response.status_code == 200
    return response.content.decode()


def test_a_draft_abandoned_for_a_draw_is_in_the_evidence(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    tile = str(casual_game.engine_state().racks[0][0])
    services.save_draft(casual_game.pk, alice, [[tile]])
    services.draw(casual_game.pk, alice, casual_game.version)
    case = claim(open_case(casual_game, bob, Category.STALLING), site_moderator)

    found = game_evidence(casual_game)
    html = _read(site_moderator, case, 1)

    draft = found.turns[0].draft
    assert draft is not None
    assert (draft.seat, draft.laid_from_rack, draft.saves) == (0, (tile,), 1)
    assert "Abandoned draft" in html
    assert f"had laid {tile} from the rack and did not play it." in html


def test_the_chat_is_in_the_evidence_escaped_and_hidden_lines_marked(
    league_game: Game, league_fixture: Fixture, bob: User, dave: User, club_moderator: User
) -> None:
    ChatMessage.objects.create(
        table=league_game.table, game=league_game, turn_number=1, author=bob, text="<b>hi</b>"
    )
    hidden = ChatMessage.objects.create(
        table=league_game.table, game=league_game, turn_number=2, author=dave, text="rude"
    )
    ChatMessage.objects.filter(pk=hidden.pk).update(hidden_at=hidden.created_at)
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)

    html = _read(club_moderator, case, 1)

    assert "&lt;b&gt;hi&lt;/b&gt;" in html and "<b>hi</b>" not in html
    assert 'rude <span class="muted">(hidden)</span>' in html
    assert "Said during this turn" in html


def test_solver_lines_are_cached_by_position(league_game: Game) -> None:
    turns = [turn.replay for turn in game_evidence(league_game).turns]
    cache.clear()

    first = solver_lines(turns, league_game.pk)
    with override_settings(MODERATION_EVIDENCE_SECONDS=1e-9):
        again = solver_lines(turns, league_game.pk)

    assert first.pending == 0 and again.pending == 0
    assert again.lines == first.lines
    assert len(first.lines) == 4  # four draws; the resignation has no line


def test_the_page_opens_with_the_cached_lines_and_a_worker_answers_the_rest(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User
) -> None:
    cache.clear()
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)

    html = _read(club_moderator, case)

    # The web process asked the solver nothing: the page shows what the cache holds,
    # and a job's "thinking" (eager here: its worker's answer is in already).
    assert "The solver is still working: 4 turns to go" in html
    assert "Solver: still working on this turn" in html
    assert 'ws-connect="/ws/answers/' in html
    assert '&amp;part=turns" hx-trigger' not in html  # the list waits for the push
    pushed = answered(html, club_moderator)
    assert pushed.lstrip().startswith('<section id="evidence-turns"')
    assert 'hx-swap-oob="true"' in pushed
    assert "still working" not in pushed and "hx-trigger" not in pushed
    assert pushed.count("<tr") == 6  # the head, and five turns


def test_the_list_of_turns_asks_a_worker_for_the_lines_still_missing(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User
) -> None:
    cache.clear()
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)
    client = client_as(club_moderator)

    response = client.get(evidence_url(case, 2) + "&part=turns", HTTP_HX_REQUEST="true")
    html = response.content.decode()

    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="evidence-turns"')
    assert "still working" not in answered(html, club_moderator)
    again = client.get(evidence_url(case, 2) + "&part=turns", HTTP_HX_REQUEST="true")
    assert "still working" not in again.content.decode()  # from the cache now
    assert "ws-connect" not in again.content.decode()  # and no job asked
    bad = client.get(evidence_url(case, 2) + "&part=racks", HTTP_HX_REQUEST="true")
    assert bad.status_code == 400


def test_a_collusion_case_shows_the_pairs_history_in_the_club(
    league_game: Game, league_fixture: Fixture, bob: User, dave: User, club_moderator: User
) -> None:
    case = claim(
        open_case(league_game, bob, Category.COLLUSION, fixture=league_fixture, accused=dave),
        club_moderator,
    )

    [pair] = pair_histories(case, seconds=30.0)  # as a worker asks (the page: the cache)
    html = _read(club_moderator, case)

    assert (pair.first, pair.second) == (dave.display_name, bob.display_name)
    assert (pair.games, pair.first_wins, pair.second_wins) == (1, 0, 1)  # the case's own game
    [game] = pair.recent
    turns = [turn.replay for turn in game_evidence(league_game).turns]
    lines = solver_lines([t for t in turns if t.mover == 1], league_game.pk).lines
    assert game.fed == sum(1 for line in lines.values() if line.missed)
    assert game.winner == bob.display_name
    assert "The pair&#x27;s history" in html or "The pair's history" in html
    assert f"{dave.display_name} and {bob.display_name}" in html


@pytest.mark.parametrize(
    "query", ["part=zzz", "turn=-1", "turn=99999999999999999999", "turn=²", "part=turns&turn=x"]
)
def test_a_refused_request_neither_renews_the_claim_nor_logs_an_opening(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User, query: str
) -> None:
    case = claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)
    before = _rows(case)
    response = client_as(club_moderator).get(f"{evidence_url(case)}?{query}")
    assert response.status_code == 400
    assert _rows(case) == before


def _rows(case: Case) -> tuple[object, ...]:
    """The case's row, its history and its log: what an opening of the evidence writes."""
    events = Case.pgh_event_model.objects.filter(pgh_obj_id=case.pk)  # type: ignore[attr-defined]
    return (
        Case.objects.filter(pk=case.pk).values().get(),
        list(events.values_list("pk", flat=True)),
        list(LogEntry.objects.filter(case=case).values_list("pk", flat=True)),
    )


def test_a_pair_with_no_finished_game_is_named_and_the_game_under_review_counts(
    casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claim(open_case(casual_game, alice, Category.COLLUSION, accused=bob), site_moderator)

    [pair] = pair_histories(case)
    html = _read(site_moderator, case)

    assert (pair.first, pair.second, pair.games) == ("Bob", "Alice", 1)
    [game] = pair.recent
    assert (game.game_id, game.finished_at, game.winner) == (casual_game.pk, None, "")
    assert "Bob and Alice" in html and "member " not in html
    assert "1 game together, this one included" in html
    assert "(this case)" in html and "still in play" in html


def test_a_bot_at_the_table_is_paired_with_the_accused_on_the_game_under_review(
    alice: User, bob: User, site_moderator: User
) -> None:
    table = services.create_table(
        alice,
        TableSettings(),
        [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob), SeatPlan.bot("normal")],
    )
    services.join_table(table.pk, bob)
    game = current_game(table)
    case = claim(open_case(game, alice, Category.COLLUSION, accused=bob), site_moderator)

    pairs = pair_histories(case)

    assert [(p.first, p.second, p.games) for p in pairs] == [
        ("Bob", "Alice", 1),
        ("Bob", "Bot (normal)", 1),
    ]
    assert pairs[1].recent[0].game_id == game.pk
    assert "Bob and Bot (normal)" in _read(site_moderator, case)
