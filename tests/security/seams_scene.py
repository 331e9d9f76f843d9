"""The scene of the seams' fuzzer (``test_fuzz_seams``): clubs whose leagues play, cases
about a private club's games, a substitute and suspended members, built through the
services a member's requests would call (or straight to the models where the tests of
those services do).

* **A** ("Open Tiles", public, alice's): a season under way ("A winter": bob-carol, their
  first game finished; erin-alice), another taking registrations ("A spring").
* **P** ("Hush Room", private, the ``owner``'s): a season under way ("P winter"),
  fixtures ``player``-``accused`` (table 1, its game in play, its chat) and
  ``owner``-quinn, whose entry the ``substitute`` plays (table 2, its first game
  finished); another taking registrations ("P spring").
* **R**: the ``rival``'s club.
* Case 1 (P, table 1): the ``filer`` reported the ``accused``'s chat line; the
  ``moderator`` claimed it, hid the line and proposed a suspension (awaiting a second
  moderator). Case 2 (P, table 2's finished game): the ``substitute`` reported the
  ``owner``; the ``moderator`` dismissed it and the ``substitute`` appealed. Case 3 (P,
  table 1): the ``player`` reported the ``accused`` for stalling; open, unclaimed.
* ``suspended`` is suspended from the site (a member of A), ``club_suspended`` from P
  (a member of P).

Texts that only some viewers may read carry a marker (:data:`SECRETS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import Group
from django.test import TestCase

from accounts.models import User
from games import services
from games.models import ChatMessage, Game, Table
from games.models.table_settings import TableSettings
from games.services import chat
from leagues.models import Club, Entry, Fixture, League, Matchday, Membership, Role, Season
from leagues.services import clubs
from leagues.services.matchdays import open_matchday
from moderation.models import SITE_MODERATORS, Appeal, Case, Category, Ruling
from moderation.services import appeals, claims, notes, rulings
from moderation.services.filing import Filing, file_game_report, file_message_report
from moderation.services.messages import set_message_hidden
from tests.factories import SeasonFactory, UserFactory
from tests.games.conftest import current_game
from tests.games.players import user_at
from tests.leagues.conftest import make_season, scheduled_fixture
from tests.moderation.conftest import open_case
from tests.moderation.test_policies import suspend

P_NAME = "Hush Room"
P_LEAGUE = "Whisper league"

# Markers of texts only some may read (test_fuzz_seams.SECRETS says who).
REPORT_1 = "SECRET-REPORT-ONE"
PROPOSAL_1 = "SECRET-PROPOSAL-ONE"
HIDDEN_LINE = "SECRET-HIDDEN-LINE"
PLAYERS_LINE = "SECRET-PLAYERS-LINE"
SPECTATORS_LINE = "SECRET-SPECTATORS-LINE"
REPORT_2 = "SECRET-REPORT-TWO"
APPEAL_2 = "SECRET-APPEAL-TWO"
REPORT_3 = "SECRET-REPORT-THREE"
NOTE_1 = "SECRET-NOTE-ONE"


@dataclass
class SeasonPlace:
    """A season's addresses and rows, for the path parameters of its pages."""

    season: Season
    matchday: Matchday | None = None
    fixtures: list[Fixture] = field(default_factory=list)
    entry: Entry | None = None


@dataclass(repr=False)
class SeamsScene:
    users: dict[str, User]
    clubs: dict[str, Club]
    seasons: dict[str, SeasonPlace]
    tables: dict[str, Table]
    games: dict[str, Game]
    messages: dict[str, ChatMessage]
    cases: dict[str, Case]
    rulings: dict[str, Ruling]
    appeals: dict[str, Appeal]

    def __repr__(self) -> str:
        # Hypothesis prints its fixtures with a failing example: the scene is the same
        # for every example, described in this module's docstring.
        return "SeamsScene(the seams' scene)"


def _user(username: str) -> User:
    return UserFactory(username=username, display_name=username.title())


def _running(
    club: Club, name: str, players: Sequence[User], *, substitute: User | None = None
) -> SeasonPlace:
    """A season of a new 2-seat league of ``club`` under way, ``players`` paired in order
    on matchday 1, opened the way the beat job opens it (tables named after the fixture).
    ``substitute`` plays the last entry from the start."""
    settings = TableSettings(clock=Table.Clock.CORRESPONDENCE, games_in_round=2)
    season = make_season(club, players, settings=settings)
    League.objects.filter(pk=season.league_id).update(name=name)
    season.refresh_from_db()
    fixtures = [scheduled_fixture(season, 1, players[n : n + 2]) for n in (0, 2)]
    entry = season.entries.get(user=players[-1])
    if substitute is not None:
        # Seated before the season: the club's owner plays this entry's fixture, and an
        # organiser chooses nobody's opponent (leagues.conflicts).
        Entry.objects.filter(pk=entry.pk).update(substitute=substitute)
    matchday = open_matchday(fixtures[0].matchday)
    for row in (*fixtures, entry):
        row.refresh_from_db()
    return SeasonPlace(season, matchday, fixtures, entry)


def _registering(club: Club) -> SeasonPlace:
    league = League.objects.create(
        club=club,
        name="Spring league",
        slug="spring",
        seats=2,
        table_settings=TableSettings(clock=Table.Clock.CORRESPONDENCE).to_dict(),
    )
    return SeasonPlace(SeasonFactory(league=league))


def _finish_first_game(table: Table) -> Game:
    """Game 1 of the table's round, ended by seat 1 resigning (game 2 starts)."""
    game = current_game(table)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.resign(game.pk, user_at(game, 1))
    game.refresh_from_db()
    assert game.is_over
    return game


def build() -> SeamsScene:
    names = [
        *("outsider", "rival", "member", "player", "substitute", "accused", "filer"),
        *("owner", "moderator", "site_moderator", "suspended", "club_suspended"),
        *("quinn", "mila", "alice", "bob", "carol", "erin"),
    ]
    u = {name: _user(name.replace("_", "")) for name in names}
    u["site_moderator"].groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])

    a = clubs.create_club(u["alice"], "Open Tiles")
    p = clubs.create_club(u["owner"], P_NAME, is_private=True)
    r = clubs.create_club(u["rival"], "Rival Club")
    for name in ("bob", "carol", "erin", "suspended"):
        Membership.objects.create(club=a, user=u[name])
    for name, role in [
        ("member", Role.MEMBER),
        ("player", Role.MEMBER),
        ("filer", Role.MEMBER),
        ("quinn", Role.MEMBER),
        ("club_suspended", Role.MEMBER),
        ("accused", Role.MODERATOR),
        ("substitute", Role.MODERATOR),
        ("moderator", Role.MODERATOR),
        # A second moderator free of conflicts in case 1, so that its suspension waits.
        ("mila", Role.MODERATOR),
    ]:
        Membership.objects.create(club=p, user=u[name], role=role)

    a_winter = _running(a, "Open league", [u["bob"], u["carol"], u["erin"], u["alice"]])
    p_winter = _running(
        p,
        P_LEAGUE,
        [u["player"], u["accused"], u["owner"], u["quinn"]],
        substitute=u["substitute"],
    )
    a_table, p_table_1, p_table_2 = (
        a_winter.fixtures[0].table,
        p_winter.fixtures[0].table,
        p_winter.fixtures[1].table,
    )
    assert a_table is not None and p_table_1 is not None and p_table_2 is not None
    a_finished = _finish_first_game(a_table)
    p_finished = _finish_first_game(p_table_2)
    p_playing = current_game(p_table_1)

    with TestCase.captureOnCommitCallbacks(execute=True):
        players_line = chat.say(p_table_1.pk, u["player"], f"Good luck! {PLAYERS_LINE}")
        hidden_line = chat.say(p_table_1.pk, u["accused"], f"You idiot. {HIDDEN_LINE}")
        spectators_line = chat.say(p_table_1.pk, u["filer"], f"Bold play. {SPECTATORS_LINE}")
        a_line = chat.say(a_table.pk, u["bob"], "Well played.")
    assert spectators_line.audience == ChatMessage.Audience.SPECTATORS

    # Case 1: a chat line reported, claimed, hidden, a suspension proposed.
    report_1 = file_message_report(
        hidden_line.pk, u["filer"], Category.ABUSE, f"He insulted his opponent. {REPORT_1}"
    )
    case_1 = report_1.case
    claims.claim(case_1.pk, u["moderator"])
    set_message_hidden(case_1.pk, hidden_line.pk, u["moderator"], True)
    notes.add_note(case_1.pk, u["moderator"], f"Check his other tables. {NOTE_1}")
    proposal = rulings.rule(
        case_1.pk,
        u["moderator"],
        Ruling.Kind.SUSPEND,
        f"Suspend him for a month. {PROPOSAL_1}",
        details={"scope": "club", "days": 30},
        target=u["accused"],
    )
    assert proposal.status == Ruling.Status.PROPOSED

    # Case 2: the owner accused by the substitute; dismissed, then appealed.
    filing = Filing(Category.OTHER, f"The owner kept stalling. {REPORT_2}", None, u["owner"].pk)
    case_2 = file_game_report(p_finished.pk, u["substitute"], filing).case
    claims.claim(case_2.pk, u["moderator"])
    dismissal = rulings.rule(case_2.pk, u["moderator"], Ruling.Kind.DISMISS, "Nothing wrong.")
    assert dismissal.status == Ruling.Status.APPLIED
    appeal = appeals.open_appeal(case_2.pk, u["substitute"], f"Please look again. {APPEAL_2}")

    # Case 3: open and unclaimed, in the division the substitute plays in.
    filing = Filing(Category.OTHER, f"He never moves. {REPORT_3}", None, u["accused"].pk)
    case_3 = file_game_report(p_playing.pk, u["player"], filing).case

    # The suspensions, by a ruling in a case of A's finished game.
    case_a = open_case(a_finished, u["bob"], fixture=a_winter.fixtures[0])
    assert case_a == Case.objects.filter(game=a_finished).first()  # the one suspend() takes
    suspend(u["suspended"], a_finished, u["site_moderator"])
    suspend(u["club_suspended"], a_finished, u["site_moderator"], club=p)

    for row in (case_1, case_2, case_3, hidden_line):
        row.refresh_from_db()
    return SeamsScene(
        users=u,
        clubs={"A": a, "P": p, "R": r},
        seasons={
            "A winter": a_winter,
            "A spring": _registering(a),
            "P winter": p_winter,
            "P spring": _registering(p),
        },
        tables={"A table": a_table, "P table 1": p_table_1, "P table 2": p_table_2},
        games={
            "A finished game": a_finished,
            "P game in play": p_playing,
            "P finished game": p_finished,
        },
        messages={
            "A line": a_line,
            "P players' line": players_line,
            "P hidden line": hidden_line,
            "P spectators' line": spectators_line,
        },
        cases={"case 1": case_1, "case 2": case_2, "case 3": case_3},
        rulings={"proposal 1": proposal, "dismissal 2": dismissal},
        appeals={"appeal 2": appeal},
    )
