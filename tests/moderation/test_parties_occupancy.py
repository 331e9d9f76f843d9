"""A party is everyone who ever sat in the game's seats (review wave 3, S2): bob played
the first moves of game 1 of bob-dave, then olga seated hank for him and hank finished
it. Bob moderates the club. Dave's case about the game is one bob is a party to: he
does not read it as its moderator nor its private notes, and he may report and appeal
the game he played, as any of its players may.
"""

from __future__ import annotations

import pytest
from django.test import TestCase
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, SeatOccupancy
from leagues.models import Fixture, Membership, Role
from leagues.services.organiser import replace_player
from moderation.errors import NotAllowed
from moderation.forms.filing import GameReportForm
from moderation.models import Case, Category, Ruling
from moderation.permissions import conflicts, is_party, party_cases, player_ids
from moderation.services import appeals, notes
from moderation.services.filing import Filing, file_game_report
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import RunningSeason, olga
from tests.moderation.conftest import draw_turns
from tests.moderation.telling_support import apply_ruling

pytestmark = pytest.mark.django_db

__all__ = ["olga"]  # the organiser who seats hank for bob

NOTE = "PRIVATE-NOTE dave's report reads like a grudge"


@pytest.fixture
def hank(running: RunningSeason) -> User:
    user = UserFactory(username="hank", display_name="Hank")
    Membership.objects.create(club=running.club, user=user)
    return user


@pytest.fixture
def game(running: RunningSeason, bob: User, dave: User, hank: User, olga: User) -> Game:
    """Game 1 of bob-dave: bob and dave draw, hank takes bob's seat, hank and dave draw,
    dave resigns. Bob moderates the club."""
    fixture: Fixture = running.fixtures[0]
    assert fixture.table is not None
    played = current_game(fixture.table)
    draw_turns(played, 2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        replace_player(running.entries[0], hank, olga, "Bob moves house.")
    draw_turns(played, 2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.resign(played.pk, dave)
    played.refresh_from_db()
    assert played.is_over
    Membership.objects.filter(club=running.club, user=bob).update(role=Role.MODERATOR)
    return played


@pytest.fixture
def case(running: RunningSeason, game: Game, dave: User, hank: User) -> Case:
    filing = Filing(Category.STALLING, "Hank stalled every turn.", accused_id=hank.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return file_game_report(game.pk, dave, filing).case


def test_the_replaced_player_sat_at_the_game_only_by_its_occupancy(
    game: Game, bob: User, hank: User
) -> None:
    # Neither the table's seats nor the results name bob: only who played the moves.
    assert not game.table.seats.filter(user=bob).exists()
    assert not game.results.filter(member=bob).exists()
    assert SeatOccupancy.objects.filter(game=game, member=bob).exists()
    assert SeatOccupancy.objects.filter(game=game, member=hank, plays_for=bob).exists()
    assert bob.pk in player_ids(game)


def test_the_replaced_player_is_a_party_and_reads_the_case_as_one(
    case: Case, bob: User, site_moderator: User
) -> None:
    assert is_party(bob, case)
    assert case in party_cases(bob)
    assert "You sat at this game's table." in conflicts(bob, case)
    assert bob.has_perm("moderation.view_case", case)  # he moderates the club
    for perm in ("read_case", "take_case", "read_notes", "add_note"):
        assert not bob.has_perm(f"moderation.{perm}", case), perm
    with pytest.raises(NotAllowed, match="parties to a case do not read or write its notes"):
        notes.add_note(case.pk, bob, "I know this one.")
    notes.add_note(case.pk, site_moderator, NOTE)
    page = client_as(bob).get(reverse("moderation:case", args=[case.pk]))
    html = page.content.decode()
    assert NOTE not in html
    assert "Hank stalled every turn." not in html  # dave's report: the other side's


def test_the_replaced_player_may_report_the_game_he_played(
    game: Game, bob: User, dave: User
) -> None:
    assert str(bob.pk) not in dict(GameReportForm(game, bob).fields["accused"].choices)
    assert str(bob.pk) in dict(GameReportForm(game, dave).fields["accused"].choices)
    report = file_game_report(game.pk, bob, Filing(Category.OTHER, "Dave was rude before I left."))
    assert report.filer == bob
    assert client_as(bob).get(reverse("moderation:file", args=[game.pk])).status_code == 200


def test_the_replaced_player_may_appeal_the_ruling(
    case: Case, bob: User, site_moderator: User
) -> None:
    apply_ruling(case, site_moderator, Ruling.Kind.DISMISS, note="Nothing seen.")
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    appeal = appeals.open_appeal(case.pk, bob, "The stalling cost me the game.")
    assert appeal.appellant == bob
