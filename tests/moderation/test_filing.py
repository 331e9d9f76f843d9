"""Filing a dispute: a player's report opens a case or joins the open one; the form
refuses what cannot be true and says why; a member's daily limit; credibility."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from games.models import ChatMessage, Game
from leagues.models import Fixture
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound, TooMany
from moderation.models import Case, Category, LogEntry, Report, Ruling
from moderation.services.filing import Filing, credibility, file_game_report, file_message_report
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


def bug(text: str = "My play of R7 R8 R9 was refused.", turn: int | None = 1) -> Filing:
    return Filing(Category.BUG, text, turn)


def say(game: Game, author: User, text: str, audience: str = "players") -> ChatMessage:
    return ChatMessage.objects.create(
        table=game.table, game=game, turn_number=2, author=author, audience=audience, text=text
    )


def test_a_player_files_a_dispute_about_a_finished_league_game(
    running: RunningSeason, league_game: Game, league_fixture: Fixture, bob: User, dave: User
) -> None:
    report = file_game_report(
        league_game.pk, bob, Filing(Category.BUG, "My draw went wrong.", 2, dave.pk)
    )

    case = report.case
    assert (case.category, case.status, case.turn_number) == ("bug", "open", 2)
    assert case.club == running.club
    assert case.fixture == league_fixture
    assert case.accused == dave
    assert report.weight == 1.0
    entry = LogEntry.objects.get(case=case)
    assert (entry.action, entry.actor, entry.club) == ("filed", bob, running.club)
    assert entry.reason == "My draw went wrong."


def test_a_second_filer_joins_the_open_case(league_game: Game, bob: User, dave: User) -> None:
    first = file_game_report(league_game.pk, bob, bug())
    second = file_game_report(league_game.pk, dave, bug("Mine too, on turn 3.", 3))

    assert second.case_id == first.case_id
    assert Case.objects.count() == 1
    assert list(LogEntry.objects.values_list("action", flat=True).order_by("pk")) == [
        "filed",
        "joined",
    ]


def test_another_category_opens_another_case(league_game: Game, bob: User) -> None:
    first = file_game_report(league_game.pk, bob, bug())
    other = file_game_report(league_game.pk, bob, Filing(Category.OTHER, "Something else."))
    assert other.case_id != first.case_id


def test_a_player_files_once_per_case(league_game: Game, bob: User) -> None:
    file_game_report(league_game.pk, bob, bug())
    with pytest.raises(Conflict, match="You reported this already"):
        file_game_report(league_game.pk, bob, bug("Again."))
    assert Report.objects.count() == 1


def test_only_the_games_players_file_about_it(league_game: Game, erin: User) -> None:
    with pytest.raises(NotAllowed, match="Only the game's players"):
        file_game_report(league_game.pk, erin, bug())
    with pytest.raises(NotFound):
        file_game_report(league_game.pk + 1000, erin, bug())
    assert not Case.objects.exists()


@pytest.mark.parametrize(
    ("filing", "sentence"),
    [
        (Filing(Category.CLOCK, "The clock was wrong."), "No turn of this game ran out of time"),
        (Filing(Category.ABUSE, "He insulted me."), "reported from the message itself"),
        (Filing(Category.BUG, "On turn 40.", 40), "turn 40 never happened"),
        (Filing(Category.BUG, "On turn 0.", 0), "turn 0 never happened"),
        (Filing(Category.BUG, "   "), "Say what happened"),
        (Filing("cheating", "Bad."), "Choose what the report is about"),
    ],
)
def test_the_form_refuses_what_cannot_be_true_and_says_why(
    league_game: Game, bob: User, filing: Filing, sentence: str
) -> None:
    with pytest.raises(ModerationError, match=sentence):
        file_game_report(league_game.pk, bob, filing)
    assert not Case.objects.exists()
    assert not LogEntry.objects.exists()


def test_stalling_needs_someone_who_timed_out_or_left(
    casual_game: Game, league_game: Game, alice: User, bob: User
) -> None:
    with pytest.raises(ModerationError, match="Nobody in this game has timed out"):
        file_game_report(casual_game.pk, alice, Filing(Category.STALLING, "Bob is slow."))
    # Dave resigned the league game: that is leaving it.
    report = file_game_report(league_game.pk, bob, Filing(Category.STALLING, "Dave left."))
    assert report.case.category == "stalling"


def test_the_accused_is_another_player_of_the_game(
    league_game: Game, bob: User, erin: User
) -> None:
    for accused in (bob, erin):
        with pytest.raises(ModerationError, match="Name another player"):
            file_game_report(league_game.pk, bob, Filing(Category.BUG, "It.", 1, accused.pk))


def test_a_casual_games_case_belongs_to_no_club(casual_game: Game, alice: User) -> None:
    case = file_game_report(casual_game.pk, alice, bug()).case
    assert case.club is None
    assert case.fixture is None


@override_settings(MODERATION_REPORTS_PER_DAY=2)
def test_a_member_files_a_limited_number_of_reports_a_day(
    league_game: Game, casual_game: Game, bob: User
) -> None:
    file_game_report(league_game.pk, bob, bug())
    file_game_report(league_game.pk, bob, Filing(Category.OTHER, "Also this."))
    with pytest.raises(TooMany, match="You have filed 2 reports in the last 24 hours"):
        file_game_report(casual_game.pk, bob, bug())
    assert Report.objects.count() == 2


def test_a_member_whose_reports_were_dismissed_weighs_less(
    league_game: Game, league_fixture: Fixture, casual_game: Game, bob: User, alice: User
) -> None:
    assert credibility(bob) == 1.0
    for category in (Category.OTHER, Category.COLLUSION):
        old = open_case(league_game, bob, category, fixture=league_fixture)
        Case.objects.filter(pk=old.pk).update(status=Case.Status.DECIDED)
        Ruling.objects.create(
            case=old,
            kind=Ruling.Kind.DISMISS,
            status=Ruling.Status.APPLIED,
            note="Nothing happened.",
            by=alice,
            created_at=timezone.now(),
        )
    assert credibility(bob) == 0.5
    report = file_game_report(casual_game.pk, bob, bug())
    assert report.weight == 0.5


def test_a_player_reports_a_chat_message_and_its_author_is_accused(
    league_game: Game, bob: User, dave: User
) -> None:
    message = say(league_game, dave, "You play like a potato.")

    report = file_message_report(message.pk, bob, Category.ABUSE, "Insulting.")

    case = report.case
    assert (case.category, case.accused, case.message, case.turn_number) == (
        "abuse",
        dave,
        message,
        2,
    )
    assert report.message == message


def test_a_message_report_refuses_ones_own_and_what_one_cannot_read(
    league_game: Game, bob: User, dave: User, erin: User
) -> None:
    own = say(league_game, bob, "Good game.")
    with pytest.raises(ModerationError, match="your own message"):
        file_message_report(own.pk, bob, Category.ABUSE, "Me.")
    spectators = say(league_game, erin, "Bob should lay his run.", audience="spectators")
    with pytest.raises(NotFound):
        file_message_report(spectators.pk, bob, Category.ABUSE, "Coaching.")
    with pytest.raises(ModerationError, match="abusive chat, suspected collusion or other"):
        file_message_report(say(league_game, dave, "Hm.").pk, bob, Category.CLOCK, "Clock.")
    assert not Case.objects.exists()


def test_a_message_said_before_the_round_is_filed_against_the_tables_game(
    casual_game: Game, alice: User, bob: User
) -> None:
    message = ChatMessage.objects.create(table=casual_game.table, author=bob, text="Hurry up.")
    report = file_message_report(message.pk, alice, Category.ABUSE, "Rude.")
    assert report.case.game == casual_game
    assert report.case.turn_number is None
    second = ChatMessage.objects.create(
        table=casual_game.table, game=casual_game, author=bob, text="Again."
    )
    joined = file_message_report(second.pk, UserFactory(), Category.ABUSE, "Rude too.")
    assert joined.case_id == report.case_id
    assert [r.message for r in Report.objects.order_by("pk")] == [message, second]
