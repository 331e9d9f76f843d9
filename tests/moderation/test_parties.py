"""Parties are parties everywhere: a member who is a party to a case (a filer, the
accused, a player of the game) reads it as a party whatever their role (the club's owner,
an organiser, a moderator, a site moderator): never its log entries, the other parties'
appeals, its proposals or the rulings form; a moderator who is no party reads everything
as before.

The case: bob reported dave (both sat at the game); mo dismissed it; bob and dave
appealed; mo then proposed to void the game, waiting for a second moderator.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import Group
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.errors import NotFound
from moderation.models import SITE_MODERATORS, Appeal, AppealMessage, Case, Category, Report, Ruling
from moderation.notices import ModerationNotice
from moderation.permissions import is_party, party_cases, party_ids
from moderation.services import appeals
from moderation.services.escalation import escalate_overdue
from moderation.services.filing import Filing, file_game_report
from moderation.services.rulings import rule
from notifications.models import Notification
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case
from tests.moderation.telling_support import apply_ruling

pytestmark = pytest.mark.django_db

REPORT = "BOB-REPORT dave disconnects when he is losing"
BOB_APPEAL = "BOB-APPEAL the dismissal ignores turn 9"
DAVE_APPEAL = "DAVE-APPEAL bob makes this up"
PROPOSAL = "PROPOSAL-NOTE void the game, dave stalled it"


def give_role(running: RunningSeason, user: User, role: str) -> None:
    """``user`` takes ``role`` in the club (the owner hands over the club for ``OWNER``),
    or joins the site moderators for ``"site"``."""
    if role == "site":
        user.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
        return
    if role == Role.OWNER:
        Membership.objects.filter(club=running.club, role=Role.OWNER).update(role=Role.ORGANISER)
    Membership.objects.update_or_create(club=running.club, user=user, defaults={"role": role})


@pytest.fixture
def case(
    running: RunningSeason, league_game: Game, bob: User, dave: User, club_moderator: User
) -> Case:
    filing = Filing(Category.STALLING, REPORT, accused_id=dave.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        found = file_game_report(league_game.pk, bob, filing).case
    # A second moderator free of conflicts: mo's void waits for them.
    max_ = UserFactory(username="max", display_name="Max")
    Membership.objects.create(club=running.club, user=max_, role=Role.MODERATOR)
    dismissal = apply_ruling(found, club_moderator, Ruling.Kind.DISMISS, note="Nothing seen.")
    Case.objects.filter(pk=found.pk).update(status=Case.Status.DECIDED)
    with TestCase.captureOnCommitCallbacks(execute=True):
        appeals.open_appeal(found.pk, bob, BOB_APPEAL)
        appeals.open_appeal(found.pk, dave, DAVE_APPEAL)
        proposal = rule(
            found.pk, club_moderator, Ruling.Kind.VOID, PROPOSAL, supersedes_id=dismissal.pk
        )
    assert proposal.status == Ruling.Status.PROPOSED
    return found


def appeal_of(case: Case, user: User) -> Appeal:
    return Appeal.objects.get(case=case, appellant=user)


def proposal_of(case: Case) -> Ruling:
    return Ruling.objects.get(case=case, status=Ruling.Status.PROPOSED)


# --- who is a party -----------------------------------------------------------------------


def test_is_party_asks_the_same_question_as_the_cases_parties(
    case: Case, alice: User, bob: User, dave: User, erin: User, club_moderator: User
) -> None:
    for user in (alice, bob, dave, erin, club_moderator):
        assert is_party(user, case) == (user.pk in party_ids(case)), user
    assert set(party_cases(bob)) == {case} == set(party_cases(dave))
    assert not party_cases(alice).exists()


# --- the log ------------------------------------------------------------------------------

PARTIES: list[tuple[str, str]] = [
    ("dave", Role.OWNER),  # the accused owner
    ("dave", Role.MODERATOR),  # the accused moderator
    ("dave", "site"),  # the accused site moderator
    ("bob", Role.ORGANISER),  # the filer, an organiser
    ("bob", "site"),  # the filer, a site moderator
]


@pytest.fixture
def party(
    request: pytest.FixtureRequest, running: RunningSeason, bob: User, dave: User, case: Case
) -> User:
    name, role = request.param
    user = {"bob": bob, "dave": dave}[name]
    give_role(running, user, role)
    return user


@pytest.mark.parametrize("party", PARTIES, indirect=True, ids=[f"{n}-{r}" for n, r in PARTIES])
def test_a_party_reads_none_of_the_cases_log_entries(party: User, case: Case) -> None:
    url = reverse("moderation:log")
    page = client_as(party).get(url)
    assert page.status_code == 200
    html = page.content.decode()
    for secret in (REPORT, BOB_APPEAL[:40], DAVE_APPEAL[:40], PROPOSAL[:40]):
        assert secret not in html
    narrowed = client_as(party).get(url, {"case": case.pk})
    assert narrowed.status_code == 200
    assert narrowed.context["entries"].paginator.count == 0


@pytest.mark.parametrize("role", [Role.OWNER, "site"])
def test_a_moderator_who_is_no_party_reads_the_whole_case_in_the_log(
    running: RunningSeason, case: Case, erin: User, role: str
) -> None:
    give_role(running, erin, role)
    html = client_as(erin).get(reverse("moderation:log"), {"case": case.pk}).content.decode()
    for secret in (REPORT, BOB_APPEAL, DAVE_APPEAL, PROPOSAL):
        assert secret in html


# --- appeals ------------------------------------------------------------------------------


@pytest.mark.parametrize("party", PARTIES, indirect=True, ids=[f"{n}-{r}" for n, r in PARTIES])
def test_a_party_reads_only_their_own_appeal(
    party: User, case: Case, bob: User, dave: User
) -> None:
    other = appeal_of(case, dave if party == bob else bob)
    mine = appeal_of(case, party)
    client = client_as(party)
    assert client.get(reverse("moderation:appeal", args=[other.pk])).status_code == 404
    assert client.get(reverse("moderation:appeal", args=[mine.pk])).status_code == 200
    queue = client.get(reverse("moderation:appeals")).content.decode()
    assert f'data-appeal="{other.pk}"' not in queue
    assert BOB_APPEAL not in queue and DAVE_APPEAL not in queue
    hub = client.get(reverse("moderation:case", args=[case.pk])).content.decode()
    assert f"/moderation/appeals/{other.pk}/" not in hub


def test_a_moderator_who_is_no_party_reads_every_appeal(
    case: Case, alice: User, bob: User, dave: User
) -> None:
    client = client_as(alice)  # the owner, no party
    queue = client.get(reverse("moderation:appeals")).content.decode()
    for appellant in (bob, dave):
        appeal = appeal_of(case, appellant)
        assert f'data-appeal="{appeal.pk}"' in queue
        assert client.get(reverse("moderation:appeal", args=[appeal.pk])).status_code == 200


# --- rulings ------------------------------------------------------------------------------


@pytest.mark.parametrize("party", PARTIES, indirect=True, ids=[f"{n}-{r}" for n, r in PARTIES])
def test_a_party_opens_neither_the_rulings_form_nor_the_proposal(party: User, case: Case) -> None:
    client = client_as(party)
    form = client.get(reverse("moderation:rule", args=[case.pk]))
    assert form.status_code == 404
    assert PROPOSAL not in form.content.decode()
    proposal = client.get(reverse("moderation:ruling", args=[proposal_of(case).pk]))
    assert proposal.status_code == 404
    assert PROPOSAL not in proposal.content.decode()
    hub = client.get(reverse("moderation:case", args=[case.pk])).content.decode()
    assert "Void the game" not in hub  # the proposal is not listed on the party's hub


def test_a_moderator_who_is_no_party_reads_the_proposal(case: Case, alice: User) -> None:
    client = client_as(alice)
    form = client.get(reverse("moderation:rule", args=[case.pk]))
    assert form.status_code == 200 and "Void the game" in form.content.decode()
    page = client.get(reverse("moderation:ruling", args=[proposal_of(case).pk]))
    assert page.status_code == 200 and PROPOSAL in page.content.decode()


def test_a_party_who_moderates_cannot_decline_the_proposal_nor_learn_its_state(
    running: RunningSeason, case: Case, dave: User
) -> None:
    give_role(running, dave, Role.MODERATOR)
    proposal = proposal_of(case)
    url = reverse("moderation:ruling_decline", args=[proposal.pk])
    refused = client_as(dave).post(url, {"note": "No."})
    assert refused.status_code == 403
    assert "The case is about you." in refused.content.decode()
    Ruling.objects.filter(pk=proposal.pk).update(status=Ruling.Status.DECLINED)
    again = client_as(dave).post(url, {"note": "No."})
    assert again.status_code == 403
    assert "The case is about you." in again.content.decode()


def test_an_outsider_is_still_told_there_is_no_such_ruling(case: Case) -> None:
    url = reverse("moderation:ruling", args=[proposal_of(case).pk])
    assert client_as(UserFactory(username="olly")).get(url).status_code == 404


# --- the escalation -----------------------------------------------------------------------


@pytest.mark.parametrize("olga_is", ["filer", "accused"])
def test_a_case_whose_owner_is_a_party_escalates_past_them_to_the_site(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    site_moderator: User,
    olga_is: str,
) -> None:
    # Olga owns the club and plays in no division: only being a party keeps her out.
    olga = UserFactory(username="olga", display_name="Olga")
    give_role(running, olga, Role.OWNER)
    give_role(running, bob, "site")  # a site moderator who is a party is not told either
    accused = olga if olga_is == "accused" else None
    case = open_case(league_game, bob, Category.STALLING, fixture=league_fixture, accused=accused)
    if olga_is == "filer":
        Report.objects.create(case=case, filer=olga, text="Seen too.", created_at=timezone.now())
    later = timezone.now() + timedelta(hours=settings.MODERATION_ESCALATE_HOURS + 1)
    with time_machine.travel(later, tick=False):
        assert escalate_overdue() == [case.pk]
    case.refresh_from_db()
    assert case.escalation == Case.Escalation.SITE
    told = Notification.objects.filter(kind=ModerationNotice.MODERATION_QUEUE)
    assert list(told.values_list("user", flat=True)) == [site_moderator.pk]


# --- the queue ----------------------------------------------------------------------------


def test_a_party_sees_their_case_in_the_queue_but_not_how_many_reported_it(
    running: RunningSeason,
    league_game: Game,
    league_fixture: Fixture,
    bob: User,
    dave: User,
    erin: User,
    club_moderator: User,
) -> None:
    give_role(running, dave, Role.MODERATOR)
    case = open_case(league_game, bob, Category.STALLING, fixture=league_fixture, accused=dave)
    Report.objects.create(case=case, filer=erin, text="Me too.", created_at=timezone.now())
    queue = client_as(dave).get(reverse("moderation:queue")).content.decode()
    assert f'data-case="{case.pk}"' in queue
    assert "The case is about you." in queue
    assert "2 filers" not in queue
    assert "2 filers" in client_as(club_moderator).get(reverse("moderation:queue")).content.decode()


# --- the moderators' names ----------------------------------------------------------------


def test_the_parties_read_the_moderators_not_their_names(
    running: RunningSeason, league_game: Game, league_fixture: Fixture, bob: User
) -> None:
    maud = UserFactory(username="maud", display_name="Maud")
    Membership.objects.create(club=running.club, user=maud, role=Role.MODERATOR)
    case = open_case(league_game, bob, Category.BUG, fixture=league_fixture)
    apply_ruling(case, maud, Ruling.Kind.DISMISS, note="Nothing seen.")
    with TestCase.captureOnCommitCallbacks(execute=True):
        appeal = appeals.open_appeal(case.pk, bob, "Please look again.")
        appeals.write(appeal.pk, maud, "We replayed turn 3.")
    pages = [
        reverse("moderation:appeal_new", args=[case.pk]),
        reverse("moderation:appeal", args=[appeal.pk]),
        reverse("moderation:case", args=[case.pk]),
    ]
    for url in pages:
        page = client_as(bob).get(url)
        assert page.status_code == 200
        assert "Maud" not in page.content.decode(), url
    thread = client_as(bob).get(pages[1]).content.decode()
    assert "The moderators" in thread and "We replayed turn 3." in thread
    moderators = client_as(maud).get(pages[1]).content.decode()
    assert "Maud (moderator)" in moderators


def test_a_moderator_with_a_conflict_reads_an_appeal_and_is_told_why_they_may_not_answer(
    case: Case, alice: User, bob: User, dave: User, running: RunningSeason
) -> None:
    # Alice owns the club and plays in the parties' division: a conflict, no party.
    url = reverse("moderation:appeal", args=[appeal_of(case, bob).pk])
    page = client_as(alice).get(url).content.decode()
    assert "you have a conflict of interest in its case" in page
    refused = client_as(alice).post(url, {"text": "Noted."})
    assert refused.status_code == 403
    assert (
        "You play in Division 1 of Winter league, season 1, as a party of the case does."
        in refused.content.decode()
    )
    give_role(running, dave, Role.MODERATOR)  # a party: no such appeal, even by the service
    with pytest.raises(NotFound):
        appeals.write(appeal_of(case, bob).pk, dave, "Noted.")
    assert AppealMessage.objects.filter(appeal__case=case).count() == 2
