"""A season's history page: who changed what, when and why, newest first, paginated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Game
from games.services.adjudication import stop_round
from leagues.selectors.history import PER_PAGE, season_history
from leagues.services.adjustments import decline, propose
from leagues.services.deadlines import close_matchday
from leagues.services.organiser import extend_deadline
from leagues.services.withdrawals import withdraw
from tests.conftest import client_as
from tests.leagues.conftest import RunningSeason

pytestmark = pytest.mark.django_db


def test_it_lists_changes_with_who_what_and_why_newest_first(
    running: RunningSeason, olga: User
) -> None:
    # Olga: alice plays in the matchday (leagues.conflicts).
    extend_deadline(running.matchday, running.matchday.deadline + timedelta(days=1), olga, "Snow.")
    close_matchday(running.matchday, olga, "All played out.")

    items = list(season_history(running.season).object_list)

    # The test is one transaction, so every event has its time (PostgreSQL's NOW()).
    assert [i.at for i in items] == sorted((i.at for i in items), reverse=True)
    newest = next(i for i in items if i.what == "Matchday 1" and i.why == "All played out.")
    assert newest.who == "Olga"
    assert [(c.field, c.before, c.after) for c in newest.changes] == [("Status", "Open", "Closed")]
    extended = next(i for i in items if i.why == "Snow.")
    assert extended.changes[0].field == "Deadline"
    assert any(i.action == "created" and i.what == "Season 1" for i in items)


def test_a_superseded_result_is_in_the_history(running: RunningSeason) -> None:
    table_id = running.fixtures[0].table_id
    assert table_id is not None
    stop_round(table_id)
    game = Game.objects.get(table_id=table_id, number=1)
    propose(running.season, game.pk, 1, -7, running.organiser, "Counted twice.")

    items = [i for i in season_history(running.season) if i.why == "Counted twice."]
    ruling = next(i for i in items if i.what.startswith("Result of Dave"))

    assert ruling.who == "Alice" and ruling.what.startswith("Result of Dave in game 1")
    assert ruling.changes[0].field == "Score" and ruling.changes[0].after == "-7"
    # Zero-sum: the winner's row follows, for the same reason.
    assert any(i.what.startswith("Result of Bob in game 1") for i in items)
    # The score change itself is in the history too: proposed, then applied at once.
    change = [i for i in items if i.what.startswith("Score change")]
    assert {i.action for i in change} == {"created", "changed"}


def test_it_is_paginated(running: RunningSeason) -> None:
    first = season_history(running.season, 1)
    assert first.paginator.count > PER_PAGE or first.paginator.num_pages == 1
    assert len(first.object_list) <= PER_PAGE
    assert season_history(running.season, "nonsense").number == 1


def test_the_page_is_seen_by_anyone_for_a_public_club(
    running: RunningSeason, client: Client, bob: User, olga: User
) -> None:
    extend_deadline(running.matchday, running.matchday.deadline + timedelta(days=1), olga, "Snow.")
    url = reverse("leagues:history", args=["tile-club", "winter", 1])
    response = client.get(url)
    assert response.status_code == 200
    assert b"Why: Snow." in response.content
    client.force_login(bob)
    assert client.get(url).status_code == 200


def test_a_players_own_reason_for_withdrawing_is_read_by_the_organisers_only(
    running: RunningSeason, client: Client, bob: User, olga: User
) -> None:
    withdraw(running.entries[0], bob, "Moving house, no time")
    url = reverse("leagues:history", args=["tile-club", "winter", 1])

    public = client.get(url).content.decode()
    client.force_login(bob)
    own = client.get(url).content.decode()
    client.force_login(olga)
    organisers = client.get(url).content.decode()

    for page in (public, own):
        assert "Why: The player withdrew." in page and "Moving house" not in page
    assert "for the organisers only: Moving house, no time" in organisers
    items = list(season_history(running.season))
    assert all("Moving house" not in i.why + i.private_why for i in items)


def test_an_organisers_reason_for_withdrawing_a_player_is_public(
    running: RunningSeason, client: Client
) -> None:
    withdraw(running.entries[0], running.organiser, "Left the club.")
    response = client.get(reverse("leagues:history", args=["tile-club", "winter", 1]))
    assert b"Why: Left the club." in response.content


def test_score_changes_proposed_or_declined_are_the_organisers_only(
    running: RunningSeason, olga: User, bob: User
) -> None:
    """Security review wave 3, S7: the adjustment page is the organisers' only and the
    decline form says the proposer reads the note, but the public history listed every
    score change with its reason, its status and the decline note."""
    table_id = running.fixtures[0].table_id
    assert table_id is not None
    stop_round(table_id)
    game = Game.objects.get(table_id=table_id, number=1)
    alice = running.organiser
    declined = propose(running.season, game.pk, 1, -7, alice, "DECLINED-REASON")
    decline(declined.pk, olga, "DECLINE-NOTE")
    propose(running.season, game.pk, 1, -9, alice, "PENDING-REASON")
    args = [running.club.slug, "winter", 1]
    secrets = ("DECLINED-REASON", "DECLINE-NOTE", "PENDING-REASON")

    visitor = Client().get(reverse("leagues:history", args=args)).content.decode()
    member = client_as(bob).get(reverse("leagues:history", args=args)).content.decode()
    organiser = client_as(olga).get(reverse("leagues:history", args=args)).content.decode()

    for page in (visitor, member):
        assert "Score change" not in page
        assert not any(secret in page for secret in secrets)
    assert all(secret in organiser for secret in secrets)
