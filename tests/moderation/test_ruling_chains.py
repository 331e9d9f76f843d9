"""Chains of rulings, as the moderation walk made them: each ruling is measured against
what it found once the ruling it supersedes is undone, so undoing the last one leaves
everything exactly as it was before the chain; and a pause is its case's, so rulings of
another case neither hold nor release the game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from accounts.models import User
from games import services
from games.errors import GameHeld
from games.models import Game, Result
from leagues.services import adjustments
from moderation.errors import Conflict
from moderation.models import Case, Category, LogEntry, Ruling
from moderation.notices import ModerationNotice
from moderation.services.previews import preview
from moderation.services.rulings import decline
from notifications.models import Notification
from tests.games.conftest import current_game, start_table
from tests.games.players import user_at
from tests.leagues.conftest import RunningSeason
from tests.moderation.chains import ruled, world
from tests.moderation.conftest import open_case
from tests.moderation.test_rulings import claimed, league_case, second_moderator

pytestmark = pytest.mark.django_db

PAUSED = "Paused by a moderator while a case is looked into"

__all__ = ["league_case", "second_moderator"]


@pytest.fixture
def resigned(alice: User, bob: User) -> Game:
    """Game 1 of a two-game round (table 3 of the walk): bob resigned it."""
    table = start_table(alice, bob, games_in_round=2, first=0)
    game = current_game(table)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.resign(game.pk, bob)
    game.refresh_from_db()
    assert game.is_over
    return game


def test_set_result_then_void_then_dismiss_leaves_the_played_result(
    resigned: Game, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(resigned, bob), site_moderator)
    before = world(resigned)
    set_result = ruled(
        case,
        site_moderator,
        Ruling.Kind.SET_RESULT,
        details={"scores": {"0": -75, "1": 75}, "winner": 1},
    )
    void = ruled(case, site_moderator, Ruling.Kind.VOID, supersedes_id=set_result.pk)
    dismiss = ruled(
        case,
        site_moderator,
        Ruling.Kind.DISMISS,
        supersedes_id=void.pk,
        note="The resignation stands. The played result counts.",
    )
    after = world(resigned)
    assert after["rows"] == before["rows"] and after["round"] == before["round"]
    assert after == {**before, "cases": [(case.pk, "decided")]}
    # The dismissal changed nothing itself; undoing the void is recorded, in words too.
    assert dismiss.effects["undoing"]["results"]
    log = (
        LogEntry.objects.filter(case=case, action=LogEntry.Action.SUPERSEDED).order_by("pk").last()
    )
    assert log is not None and any("void →" in line for line in log.changes["effects"])
    # And the table's scoreboard no longer marks the game as corrected.
    page = Client()
    page.force_login(bob)
    table = page.get(reverse("games:table", args=[resigned.table_id])).content.decode()
    assert "(ruling)" not in table and "(void)" not in table


def test_a_voided_game_reads_as_void_on_the_scoreboard(
    resigned: Game, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(resigned, bob), site_moderator)
    ruled(case, site_moderator, Ruling.Kind.VOID)
    page = Client()
    page.force_login(bob)
    table = page.get(reverse("games:table", args=[resigned.table_id])).content.decode()
    assert "(void)" in table and "(ruling)" not in table


def test_warn_suspend_warn_dismiss_leaves_nobody_suspended(
    league_case: Case, league_game: Game, club_moderator: User, dave: User, running: RunningSeason
) -> None:
    before = world(league_game, running.season)
    warn = ruled(league_case, club_moderator, Ruling.Kind.WARN, target=dave)
    suspend = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SUSPEND,
        target=dave,
        supersedes_id=warn.pk,
        details={"scope": "club", "days": 3},
    )
    assert world(league_game, running.season)["suspended"]
    again = ruled(
        league_case, club_moderator, Ruling.Kind.WARN, target=dave, supersedes_id=suspend.pk
    )
    dismiss = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.DISMISS,
        supersedes_id=again.pk,
        note="No sanction at all.",
    )
    after = world(league_game, running.season)
    # While Dave was suspended a bot took his seat in the round's next game and moved
    # there: that move stands, and the round's record says who played.
    totals, rows, winner = after["round"]
    assert [row.name for row in rows] == ["Bob", "Dave, then Bot (normal) for Dave"]
    after["round"] = (
        totals,
        tuple(replace(row, name=row.name.split(",")[0]) for row in rows),
        winner,
    )
    assert after == {**before, "cases": [(league_case.pk, "decided")]}
    assert "suspended" not in dismiss.effects and "lifted" not in dismiss.effects.get("undoing", {})
    assert again.effects["undoing"]["lifted"]
    page = Client()
    page.force_login(club_moderator)
    shown = page.get(reverse("moderation:ruling", args=[again.pk])).content.decode()
    assert "suspension was lifted" in shown


def test_set_result_then_dismiss_in_the_league_takes_the_corrected_marks_away(
    league_case: Case, league_game: Game, club_moderator: User, running: RunningSeason
) -> None:
    before = world(league_game, running.season)
    set_result = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SET_RESULT,
        details={"scores": {"0": 40, "1": -40}, "winner": 0},
    )
    assert world(league_game, running.season)["corrected"][0]
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=set_result.pk)
    assert world(league_game, running.season) == {
        **before,
        "cases": [(league_case.pk, "decided")],
    }


@pytest.fixture
def played_on(casual_game: Game) -> Game:
    for _ in range(4):
        services.draw(
            casual_game.pk, user_at(casual_game, casual_game.current_seat or 0), casual_game.version
        )
        casual_game.refresh_from_db()
    return casual_game


def test_pause_rewind_dismiss_leaves_the_game_as_it_was_and_running(
    played_on: Game, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(played_on, bob, Category.COLLUSION), site_moderator)
    before = world(played_on)
    ruled(case, site_moderator, Ruling.Kind.PAUSE)
    assert world(played_on)["held"]
    rewind = ruled(case, site_moderator, Ruling.Kind.REWIND, details={"turn": 2})
    assert not world(played_on)["held"]
    # The rewind shuffled the pool from a seed of its own; undoing it gives back the old
    # order with the rest of the state (the world compares the whole cached state).
    logged = played_on.moves.get(seq=rewind.effects["rewind_move"]).action
    assert logged["type"] == "rewind" and logged["seed"]
    dismiss = ruled(case, site_moderator, Ruling.Kind.DISMISS, supersedes_id=rewind.pk)
    after = world(played_on)
    assert after == {**before, "cases": [(case.pk, "decided")]}
    assert dismiss.effects == {
        "decided": True,
        "released": True,
        "undoing": {
            "restored": 2,
            "restore_move": played_on.version,
            "reopened": True,
            "held": True,
        },
    }
    services.draw(played_on.pk, user_at(played_on, played_on.current_seat or 0), played_on.version)


def test_two_cases_on_one_game_hold_it_each_and_release_only_their_own(
    played_on: Game, alice: User, bob: User, site_moderator: User
) -> None:
    collusion = claimed(open_case(played_on, alice, Category.COLLUSION), site_moderator)
    chat = claimed(open_case(played_on, bob, Category.STALLING), site_moderator)
    before = world(played_on)
    ruled(collusion, site_moderator, Ruling.Kind.PAUSE)
    # Every ruling of the other case leaves the collusion case's hold alone.
    warn = ruled(chat, site_moderator, Ruling.Kind.WARN, target=bob)
    assert world(played_on)["held"] and "released" not in warn.effects
    suspend = ruled(
        chat,
        site_moderator,
        Ruling.Kind.SUSPEND,
        target=bob,
        supersedes_id=warn.pk,
        details={"scope": "site", "days": 3},
    )
    assert world(played_on)["held"] and "held" not in suspend.effects
    dismiss = ruled(chat, site_moderator, Ruling.Kind.DISMISS, supersedes_id=suspend.pk)
    assert world(played_on)["held"]
    with pytest.raises(GameHeld):
        services.draw(
            played_on.pk, user_at(played_on, played_on.current_seat or 0), played_on.version
        )
    # The other case pauses too: two holds; deciding one leaves the other's.
    ruled(chat, site_moderator, Ruling.Kind.PAUSE, supersedes_id=dismiss.pk)
    ruled(collusion, site_moderator, Ruling.Kind.DISMISS)
    assert world(played_on)["held"]
    last = Ruling.objects.get(case=chat, status=Ruling.Status.APPLIED)
    released = ruled(chat, site_moderator, Ruling.Kind.DISMISS, supersedes_id=last.pk)
    # Undoing its pause released the game: no open case holds it any more.
    assert released.effects["undoing"]["released"] is True
    after = world(played_on)
    assert {k: v for k, v in after.items() if k != "cases"} == {
        k: v for k, v in before.items() if k != "cases"
    }


def test_a_pause_tells_the_filer_the_case_is_still_open(
    played_on: Game, alice: User, site_moderator: User
) -> None:
    case = claimed(open_case(played_on, alice, Category.COLLUSION), site_moderator)
    ruled(case, site_moderator, Ruling.Kind.PAUSE)
    told = Notification.objects.get(user=alice, kind=ModerationNotice.MODERATION_CASE)
    assert "still open" in told.text and "decided" not in told.text


def test_a_pause_superseding_a_ruling_of_a_decided_case_opens_it_again(
    played_on: Game, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(played_on, bob, Category.COLLUSION), site_moderator)
    warn = ruled(case, site_moderator, Ruling.Kind.WARN, target=bob)
    pause = ruled(case, site_moderator, Ruling.Kind.PAUSE, supersedes_id=warn.pk)
    case.refresh_from_db()
    assert case.status == Case.Status.OPEN and world(played_on)["held"]
    assert pause.effects["undoing"] == {"reopened": True}
    with pytest.raises(Conflict, match="holds the game's clocks already"):
        ruled(case, site_moderator, Ruling.Kind.PAUSE)


def test_a_paused_game_says_so_and_offers_no_move(
    played_on: Game, alice: User, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(played_on, bob, Category.COLLUSION), site_moderator)
    mover = user_at(played_on, played_on.current_seat or 0)
    page = Client()
    page.force_login(mover)
    before = page.get(reverse("games:game", args=[played_on.pk])).content.decode()
    assert "Your turn" in before and PAUSED not in before
    ruled(case, site_moderator, Ruling.Kind.PAUSE)
    shown = page.get(reverse("games:game", args=[played_on.pk])).content.decode()
    assert PAUSED in shown and "Your turn" not in shown and "Draw a tile" not in shown
    assert "data-deadline" not in shown.split('id="game-status"')[1].split("</section>")[0]
    listed = page.get(reverse("games:your_move")).content.decode()
    assert PAUSED in listed


def test_the_preview_says_what_happens_to_the_clocks(
    played_on: Game, bob: User, site_moderator: User
) -> None:
    case = claimed(open_case(played_on, bob, Category.COLLUSION), site_moderator)
    pausing = preview(case, site_moderator, Ruling.Kind.PAUSE, "Looking into it.")
    assert "clocks stop" in pausing.clocks
    assert not world(played_on)["held"]
    ruled(case, site_moderator, Ruling.Kind.PAUSE)
    deciding = preview(case, site_moderator, Ruling.Kind.WARN, "Careful.", target=bob)
    assert "run again" in deciding.clocks
    assert any("warn" in line.lower() or "decided" in line for line in deciding.effects)
    assert world(played_on)["held"]


def test_the_log_says_each_effect_in_words(
    league_case: Case, club_moderator: User, dave: User
) -> None:
    suspend = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SUSPEND,
        target=dave,
        details={"scope": "club", "days": 3},
    )
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=suspend.pk)
    page = Client()
    page.force_login(club_moderator)
    shown = page.get(reverse("moderation:log")).content.decode()
    assert "Dave was suspended from the club" in shown
    assert "Dave&#x27;s suspension was lifted." in shown
    assert "effects: [" not in shown


def _without_times(world_now: dict[str, Any]) -> dict[str, Any]:
    """The world, each correction without the moment its row was written (an undoing
    writes rows of its own; what they say is compared)."""
    entries, by_level = world_now["corrected"]
    return {
        **world_now,
        "corrected": (
            entries,
            {level: [replace(c, at=None) for c in found] for level, found in by_level.items()},
        ),
    }


def test_void_then_its_undoing_gives_back_an_organisers_change_as_it_was(
    league_case: Case, league_game: Game, club_moderator: User, running: RunningSeason
) -> None:
    # Alice (the club's organiser) changed seat 1's score; mo confirmed it. Then a void,
    # then its undoing: seat 0 reads as played again, seat 1 as alice's change, with its
    # "before -> after" (the first chain that did not undo).
    loser = Result.objects.current().of_game(league_game).get(is_winner=False)
    change = adjustments.propose(
        running.season, league_game.pk, loser.seat, loser.score - 3, running.organiser, "Typo."
    )
    adjustments.confirm(change.pk, club_moderator)
    before = _without_times(world(league_game, running.season))
    (correction,) = before["corrected"][1][1]
    # The standings name no reason (a ruling's note is the parties'): the seat alice
    # changed is corrected, with its "before -> after" (the game keeps its sum).
    assert (loser.score, loser.score - 3) in [(s.before, s.after) for s in correction.seats]

    void = ruled(league_case, club_moderator, Ruling.Kind.VOID)
    ruled(league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=void.pk)

    assert _without_times(world(league_game, running.season)) == {
        **before,
        "cases": [(league_case.pk, "decided")],
    }


def test_a_declined_proposal_lets_go_of_the_warning_it_would_have_superseded(
    league_case: Case,
    league_game: Game,
    club_moderator: User,
    second_moderator: User,
    dave: User,
    running: RunningSeason,
) -> None:
    # The second chain: the warning stayed taken by the declined proposal, and
    # the next ruling superseding it answered 500 on the one-to-one ``supersedes``.
    warn = ruled(league_case, club_moderator, Ruling.Kind.WARN, target=dave)
    suspend = ruled(
        league_case,
        club_moderator,
        Ruling.Kind.SUSPEND,
        target=dave,
        supersedes_id=warn.pk,
        details={"scope": "club", "days": 3},
    )
    assert suspend.status == Ruling.Status.PROPOSED
    with TestCase.captureOnCommitCallbacks(execute=True):
        decline(suspend.pk, second_moderator, "A warning is enough.")

    shown = preview(
        league_case, club_moderator, Ruling.Kind.DISMISS, "No sanction.", supersedes_id=warn.pk
    )
    assert shown is not None
    dismiss = ruled(
        league_case, club_moderator, Ruling.Kind.DISMISS, supersedes_id=warn.pk, note="None."
    )

    assert dismiss.status == Ruling.Status.APPLIED
    warn.refresh_from_db()
    assert warn.status == Ruling.Status.SUPERSEDED
    # What the declined proposal would have done stays on record.
    declined = LogEntry.objects.get(case=league_case, action=LogEntry.Action.DECLINED)
    assert declined.changes["would_supersede"] == warn.pk
