"""Nobody but a case's moderator sees a rack: not the players, a spectator, another
moderator or an outsider, on the evidence page, its fragments, the game's pages, or the
game's websocket, while the evidence of a running game is open."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game
from leagues.models import Fixture, Membership, Role
from moderation.models import SITE_MODERATORS, Case, Category, LogEntry
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.players import user_at
from tests.games.views_support import HTMX, hidden_from, tiles_in
from tests.moderation.conftest import open_case
from tests.moderation.evidence_support import claim, evidence_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_case(
    league_game: Game, league_fixture: Fixture, bob: User, club_moderator: User
) -> Case:
    return claim(open_case(league_game, bob, fixture=league_fixture), club_moderator)


@pytest.fixture
def running_case(casual_game: Game, alice: User, site_moderator: User) -> Case:
    return claim(open_case(casual_game, alice, Category.STALLING), site_moderator)


def _page(client: Client, game: Game) -> str:
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_case_moderator_sees_every_rack_turn_by_turn(
    league_case: Case, club_moderator: User, league_game: Game
) -> None:
    response = client_as(club_moderator).get(evidence_url(league_case, 2))

    assert response.status_code == 200
    html = response.content.decode()
    state = league_game.engine_state()
    for rack in state.racks:
        assert {str(tile) for tile in rack} <= tiles_in(html)
    assert html.count("data-rack-seat=") == 2
    assert "Turn 2" in html
    assert "Solver:" in html


def test_opening_the_evidence_is_logged_once_per_claim(
    league_case: Case, club_moderator: User
) -> None:
    client = client_as(club_moderator)
    client.get(evidence_url(league_case))
    client.get(evidence_url(league_case, 3), **HTMX)  # type: ignore[arg-type]

    entries = LogEntry.objects.filter(case=league_case, action=LogEntry.Action.EVIDENCE_OPENED)
    assert [(e.actor_id, e.club_id) for e in entries] == [(club_moderator.pk, league_case.club_id)]


@pytest.mark.parametrize("who", ["bob", "dave", "spectator", "owner", "site", "outsider"])
@pytest.mark.parametrize("htmx", [False, True])
def test_nobody_else_gets_the_evidence_of_a_finished_game(
    league_case: Case, who: str, htmx: bool, bob: User, dave: User, alice: User
) -> None:
    club = league_case.club
    assert club is not None
    if who == "spectator":
        viewer = UserFactory()
        Membership.objects.create(club=club, user=viewer, role=Role.MEMBER)
    elif who == "site":
        viewer = UserFactory()
        viewer.groups.add(Group.objects.get_or_create(name=SITE_MODERATORS)[0])
    else:
        viewer = {"bob": bob, "dave": dave, "owner": alice, "outsider": UserFactory()}[who]
    extra = HTMX if htmx else {}

    response = client_as(viewer).get(evidence_url(league_case, 2), **extra)  # type: ignore[arg-type]

    assert response.status_code == 404
    assert "data-rack-seat" not in response.content.decode()
    assert not LogEntry.objects.filter(action=LogEntry.Action.EVIDENCE_OPENED).exists()


def test_a_visitor_is_sent_to_log_in(league_case: Case) -> None:
    response = Client().get(evidence_url(league_case))

    assert response.status_code == 302
    assert "/login" in response["Location"]


def test_a_claimer_with_a_conflict_gets_nothing(league_case: Case, bob: User) -> None:
    # A player of the game made a moderator and set as the claimer by hand: the
    # conflict of interest still closes the door.
    assert league_case.club is not None
    Membership.objects.filter(club=league_case.club, user=bob).update(role=Role.MODERATOR)
    claim(league_case, bob)

    response = client_as(bob).get(evidence_url(league_case))

    assert response.status_code == 404


def test_a_released_case_shows_nothing_to_its_former_moderator(
    league_case: Case, club_moderator: User
) -> None:
    Case.objects.filter(pk=league_case.pk).update(claimed_by=None, claimed_at=None)

    response = client_as(club_moderator).get(evidence_url(league_case))

    assert response.status_code == 404


def test_a_missing_case_and_bad_input_reveal_nothing(
    league_case: Case, club_moderator: User, bob: User
) -> None:
    assert client_as(club_moderator).get(evidence_url(league_case) + "?turn=x").status_code == 400
    assert client_as(bob).get(evidence_url(league_case) + "?turn=x").status_code == 404
    missing = evidence_url(league_case).replace(str(league_case.pk), str(league_case.pk + 99))
    assert client_as(club_moderator).get(missing).status_code == 404


def test_the_evidence_answers_only_reads(league_case: Case, club_moderator: User) -> None:
    response = client_as(club_moderator).post(evidence_url(league_case))

    assert response.status_code == 405


def test_in_a_running_game_the_players_pages_keep_other_racks_hidden(
    running_case: Case, casual_game: Game, alice: User, bob: User, site_moderator: User
) -> None:
    assert client_as(site_moderator).get(evidence_url(running_case)).status_code in (200,)
    services.draw(casual_game.pk, alice, casual_game.version)
    casual_game.refresh_from_db()
    state = casual_game.engine_state()

    for seat, player in enumerate((alice, bob)):
        client = client_as(player)
        assert client.get(evidence_url(running_case)).status_code == 404
        page = _page(client, casual_game)
        assert not tiles_in(page) & hidden_from(state, seat)
        assert "data-evidence" not in page
    spectator = _page(client_as(UserFactory()), casual_game)
    assert not tiles_in(spectator) & hidden_from(state, None)
    # The moderator, at the game itself, is a spectator like any other.
    watching = _page(client_as(site_moderator), casual_game)
    assert not tiles_in(watching) & hidden_from(state, None)
    assert user_at(casual_game, 1) == bob


def test_the_case_hubs_evidence_link_is_for_the_case_moderator_alone(
    league_case: Case, club_moderator: User, bob: User, alice: User
) -> None:
    def slot(user: User) -> str:
        request = RequestFactory().get("/")
        request.user = user
        return render_to_string(
            "moderation/_case_evidence_link.html", {"case": league_case}, request=request
        )

    assert evidence_url(league_case) in slot(club_moderator)
    assert slot(bob).strip() == ""
    assert slot(alice).strip() == ""
