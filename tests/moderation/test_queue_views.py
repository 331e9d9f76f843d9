"""The queue, the case hub, claiming and releasing, "next case", and the header's link,
as a moderator, a moderator who sat at the table, a party, an outsider, and with the
wrong method."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.models import Case
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason
from tests.moderation.conftest import open_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(league_game: Game, league_fixture: Fixture, bob: User) -> Case:
    return open_case(league_game, bob, text="Turn 2 went wrong.", fixture=league_fixture)


def test_a_moderator_sees_the_queue_with_its_reasons(case: Case, club_moderator: User) -> None:
    page = client_as(club_moderator).get("/moderation/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Case {case.pk}: A bug" in html
    assert "(severity 5 of 6)" in html
    assert "1 filer" in html
    assert f'action="/moderation/cases/{case.pk}/claim/"' in html


def test_the_queue_is_for_moderators_only(case: Case, bob: User) -> None:
    response = client_as(bob).get("/moderation/")
    assert response.status_code == 403
    assert "Only moderators see the queue" in response.content.decode()
    assert client_as(bob).post("/moderation/next/").status_code == 403
    assert Client().get("/moderation/").status_code == 302
    assert client_as(bob).post("/moderation/").status_code == 405


def test_a_moderator_claims_and_another_sees_it_claimed(
    running: RunningSeason, case: Case, club_moderator: User
) -> None:
    response = client_as(club_moderator).post(f"/moderation/cases/{case.pk}/claim/")
    assert response.status_code == 302
    assert response["Location"] == f"/moderation/cases/{case.pk}/"
    meg = UserFactory(username="meg", display_name="Meg")
    Membership.objects.create(club=running.club, user=meg, role=Role.MODERATOR)
    assert "Claimed by Mo" in client_as(meg).get("/moderation/").content.decode()
    refused = client_as(meg).post(f"/moderation/cases/{case.pk}/claim/")
    assert refused.status_code == 409
    assert "Mo claimed this case" in refused.content.decode()
    assert client_as(meg).post(f"/moderation/cases/{case.pk}/release/").status_code == 409
    released = client_as(club_moderator).post(f"/moderation/cases/{case.pk}/release/")
    assert released.status_code == 302
    case.refresh_from_db()
    assert case.claimed_by is None


def test_a_moderator_who_sat_at_the_table_is_refused_with_the_reason(
    running: RunningSeason, case: Case, dave: User
) -> None:
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    queue = client_as(dave).get("/moderation/").content.decode()
    assert "You sat at this game&#x27;s table." in queue
    response = client_as(dave).post(f"/moderation/cases/{case.pk}/claim/")
    assert response.status_code == 403
    assert "You sat at this game&#x27;s table." in response.content.decode()
    case.refresh_from_db()
    assert case.claimed_by is None


def test_a_party_who_moderates_reads_that_a_moderator_has_it_not_who(
    running: RunningSeason, case: Case, club_moderator: User, dave: User
) -> None:
    """Security review wave 3, S8: a party's own entry in the queue names no holder."""
    Membership.objects.filter(club=running.club, user=dave).update(role=Role.MODERATOR)
    assert client_as(club_moderator).post(f"/moderation/cases/{case.pk}/claim/").status_code == 302

    queue = client_as(dave).get("/moderation/").content.decode()

    assert "A moderator has it." in queue and "is-claimed" in queue
    assert "Claimed by" not in queue and "Mo claimed" not in queue and ">Mo<" not in queue


def test_claiming_needs_a_post_and_a_moderator(case: Case, club_moderator: User) -> None:
    assert client_as(club_moderator).get(f"/moderation/cases/{case.pk}/claim/").status_code == 405
    assert client_as(UserFactory()).post(f"/moderation/cases/{case.pk}/claim/").status_code == 404
    assert client_as(club_moderator).post("/moderation/cases/99999/claim/").status_code == 404


def test_the_case_hub_for_a_moderator_a_party_and_an_outsider(
    league_game: Game, case: Case, club_moderator: User, bob: User, dave: User
) -> None:
    open_case(league_game, dave, "other", text="Something else.")
    moderator = client_as(club_moderator).get(f"/moderation/cases/{case.pk}/")
    assert moderator.status_code == 200
    html = moderator.content.decode()
    assert "Turn 2 went wrong." in html
    assert "Reports (1)" in html
    assert "What was done" in html

    party = client_as(bob).get(f"/moderation/cases/{case.pk}/").content.decode()
    assert "Turn 2 went wrong." in party
    assert "What was done" not in party
    assert "/claim/" not in party
    assert client_as(UserFactory()).get(f"/moderation/cases/{case.pk}/").status_code == 404
    assert client_as(bob).post(f"/moderation/cases/{case.pk}/").status_code == 405


def test_opening_the_case_keeps_the_claim_seen(case: Case, club_moderator: User) -> None:
    client = client_as(club_moderator)
    client.post(f"/moderation/cases/{case.pk}/claim/")
    Case.objects.filter(pk=case.pk).update(claim_seen_at=case.opened_at)
    client.get(f"/moderation/cases/{case.pk}/")
    case.refresh_from_db()
    assert case.claim_seen_at is not None
    assert case.claim_seen_at > case.opened_at


def test_next_case_opens_the_best_one(case: Case, club_moderator: User) -> None:
    response = client_as(club_moderator).post("/moderation/next/")
    assert response["Location"] == f"/moderation/cases/{case.pk}/"
    case.refresh_from_db()
    assert case.claimed_by == club_moderator
    Case.objects.filter(pk=case.pk).update(status=Case.Status.DECIDED)
    empty = client_as(club_moderator).post("/moderation/next/", follow=True)
    assert "No case that you may take is waiting." in empty.content.decode()
    assert client_as(club_moderator).get("/moderation/next/").status_code == 405


def test_the_header_shows_moderators_their_open_cases(
    case: Case, club_moderator: User, bob: User
) -> None:
    html = client_as(club_moderator).get("/").content.decode()
    assert 'href="/moderation/"' in html
    assert re.search(r'\(open cases\)</span> <span class="header-count">1</span>', html)
    assert 'href="/moderation/"' not in client_as(bob).get("/").content.decode()


def test_the_queue_refreshes_its_list_alone(case: Case, club_moderator: User) -> None:
    response = client_as(club_moderator).get("/moderation/", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="case-queue"')
    assert f'data-case="{case.pk}"' in html
    assert "<html" not in html


def test_the_accused_reads_the_case_without_the_reports(case: Case, dave: User) -> None:
    Case.objects.filter(pk=case.pk).update(accused=dave)
    html = client_as(dave).get(f"/moderation/cases/{case.pk}/").content.decode()
    assert "You did not file a report in this case" in html
    assert "Turn 2 went wrong." not in html
