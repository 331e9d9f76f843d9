"""The score change pages (review wave 2, finding 5): the request of the review answers
403 with its sentence and changes nothing; a proposal waits on its page, with Confirm and
Decline for a second organiser or moderator, the reasons for anyone else; and the
organisers' other tools refuse the organiser's own fixtures. For the organisers, a
member, another club's member, a visitor and the wrong method."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, Result
from games.services.adjudication import stop_round
from leagues.models import Club, Fixture, Matchday, Membership, Role, ScoreAdjustment
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db

SEASON = ["tile-club", "winter", 1]


def url(name: str, *more: int) -> str:
    return reverse(f"leagues:{name}", args=[*SEASON, *more])


def finished_game(fixture: Fixture) -> Game:
    assert fixture.table_id is not None
    stop_round(fixture.table_id)
    return Game.objects.get(table_id=fixture.table_id, number=1)


def scores(game: Game) -> list[tuple[int, int]]:
    return list(Result.objects.filter(game=game).values_list("pk", "score"))


def test_alice_owner_and_seat_1_cannot_set_her_own_score(running: RunningSeason) -> None:
    # The review's request: alice, the owner, sits in seat 1 of erin-alice.
    fixture = running.fixtures[1]
    game = finished_game(fixture)
    before = scores(game)

    response = client_as(running.organiser).post(
        url("adjust_score", fixture.pk),
        {"game": game.pk, "seat": 1, "score": 9999, "reason": "typo"},
    )

    assert response.status_code == 403
    assert f"You play in the fixture at table {fixture.table_id}." in response.content.decode()
    assert scores(game) == before


def test_a_proposal_waits_on_its_page_for_a_second_organiser(
    running: RunningSeason, olga: User, bob: User
) -> None:
    fixture = running.fixtures[0]
    game = finished_game(fixture)
    before = scores(game)
    alice = client_as(running.organiser)

    proposed = alice.post(
        url("adjust_score", fixture.pk),
        {"game": game.pk, "seat": 1, "score": -701, "reason": "Miscounted."},
        follow=True,
    )

    assert "waits for a second organiser" in proposed.content.decode()
    assert scores(game) == before
    change = ScoreAdjustment.objects.get()
    season_page = client_as(olga).get(url("organiser")).content.decode()
    assert "Score changes awaiting a second organiser" in season_page
    assert url("adjustment", change.pk) in season_page
    # The proposer reads why not; the second organiser gets the buttons and the preview.
    own = alice.get(url("adjustment", change.pk)).content.decode()
    assert "not the one who proposed it" in own and "Confirm</button>" not in own
    page = client_as(olga).get(url("adjustment", change.pk)).content.decode()
    assert "Confirm</button>" in page and "Decline</button>" in page and "→" in page
    # A member may not open it; the wrong method is refused.
    assert client_as(bob).get(url("adjustment", change.pk)).status_code == 403
    assert client_as(olga).get(url("confirm_adjustment", change.pk)).status_code == 405
    assert client_as(bob).post(url("confirm_adjustment", change.pk)).status_code == 403

    confirmed = client_as(olga).post(url("confirm_adjustment", change.pk))

    assert confirmed.status_code == 302
    assert Result.objects.current().get(game=game, seat=1).score == -701
    assert ScoreAdjustment.objects.get().status == ScoreAdjustment.Status.CONFIRMED


def test_a_decline_needs_a_note_and_changes_nothing(running: RunningSeason, olga: User) -> None:
    fixture = running.fixtures[0]
    game = finished_game(fixture)
    before = scores(game)
    client_as(running.organiser).post(
        url("adjust_score", fixture.pk),
        {"game": game.pk, "seat": 1, "score": -701, "reason": "Miscounted."},
    )
    change = ScoreAdjustment.objects.get()
    client = client_as(olga)

    assert client.post(url("decline_adjustment", change.pk), {"note": ""}).status_code == 400
    declined = client.post(url("decline_adjustment", change.pk), {"note": "It was right."})

    assert declined.status_code == 302
    assert scores(game) == before
    assert ScoreAdjustment.objects.get().status == ScoreAdjustment.Status.DECLINED
    again = client.post(url("confirm_adjustment", change.pk))
    assert again.status_code == 409 and scores(game) == before


def test_another_clubs_member_and_a_visitor_never_reach_it(
    running: RunningSeason, olga: User, client: Client
) -> None:
    fixture = running.fixtures[0]
    game = finished_game(fixture)
    client_as(running.organiser).post(
        url("adjust_score", fixture.pk),
        {"game": game.pk, "seat": 1, "score": -701, "reason": "Miscounted."},
    )
    change = ScoreAdjustment.objects.get()
    otto = UserFactory(username="otto")
    Membership.objects.create(club=Club.objects.create(name="O", slug="o"), user=otto)
    assert client_as(otto).post(url("confirm_adjustment", change.pk)).status_code == 403
    Club.objects.filter(pk=running.club.pk).update(is_private=True)
    assert client_as(otto).get(url("adjustment", change.pk)).status_code == 404
    response = client.post(url("confirm_adjustment", change.pk))
    assert response.status_code == 302 and "/login" in response["Location"]
    assert ScoreAdjustment.objects.get().status == ScoreAdjustment.Status.PROPOSED


def test_the_other_tools_refuse_the_organisers_own_fixture(running: RunningSeason) -> None:
    alice = client_as(running.organiser)
    own = running.fixtures[1]

    closed = alice.post(url("close_matchday", 1), {"reason": "Early."})
    moved = alice.post(
        url("reschedule", own.pk),
        {
            "deadline": (timezone.now() + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M"),
            "reason": "x",
        },
    )
    frank = UserFactory(username="frank")
    Membership.objects.create(club=running.club, user=frank, role=Role.MEMBER)
    replaced = alice.post(
        url("replace_player", running.entries[2].pk), {"username": "frank", "reason": "Slow."}
    )

    for response in (closed, moved, replaced):
        assert response.status_code == 403
        assert "You play in the fixture at table" in response.content.decode()
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN
    assert Fixture.objects.get(pk=own.pk).deadline is None
    running.entries[2].refresh_from_db()
    assert running.entries[2].substitute is None


def test_after_the_close_the_page_offers_no_score_change_and_a_post_is_refused(
    running: RunningSeason, olga: User
) -> None:
    fixture = running.fixtures[0]
    game = finished_game(fixture)
    before = scores(game)
    running.season.status = running.season.Status.FINISHED
    running.season.save(update_fields=["status"])
    olga_client = client_as(olga)

    page = olga_client.get(url("adjust_score", fixture.pk)).content.decode()
    assert "The season is closed: its results are final" in page and ">Adjust<" not in page

    refused = olga_client.post(
        url("adjust_score", fixture.pk),
        {"game": game.pk, "seat": 1, "score": -700, "reason": "A late correction."},
    )
    assert refused.status_code == 409
    assert "change only through a moderators&#x27; ruling" in refused.content.decode()
    assert scores(game) == before and not ScoreAdjustment.objects.exists()


def test_the_winners_own_score_is_refused_with_the_zero_sum_sentence(
    running: RunningSeason, olga: User
) -> None:
    fixture = running.fixtures[0]
    game = finished_game(fixture)
    before = scores(game)
    winner = Result.objects.current().get(game=game, is_winner=True).seat
    client = client_as(running.organiser)

    page = client.get(url("adjust_score", fixture.pk)).content.decode()
    refused = client.post(
        url("adjust_score", fixture.pk),
        {"game": game.pk, "seat": winner, "score": 500, "reason": "Miscounted."},
    )

    assert "Zero-sum scoring: change a loser's score and the winner's moves" in page
    assert refused.status_code == 400
    assert "change a loser&#x27;s score and the winner&#x27;s follows" in refused.content.decode()
    assert scores(game) == before and not ScoreAdjustment.objects.exists()
