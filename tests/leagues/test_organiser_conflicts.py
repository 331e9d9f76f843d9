"""One conflict rule for every organiser's action (review wave 3, S3 and S4): an organiser
does not take an action that touches a fixture they play in; another organiser may.
Each refusal is a 403 naming the fixture, and nothing changes.

The season (``running``): alice owns the club and plays erin-alice; bob-dave is the other
fixture of matchday 1. Olga organises too and plays nowhere. Matchday 2 (bob-erin and
dave-alice) is scheduled where a test needs it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from leagues.errors import NotAllowed
from leagues.models import Entry, Fixture, Matchday, Membership, Season
from leagues.services import matchdays, season_end
from leagues.services import organiser as tools
from leagues.services.withdrawals import withdraw
from tests.factories import UserFactory
from tests.leagues.conftest import RunningSeason, olga
from tests.leagues.test_open_next import add_matchday_2, finish_matchday_1

pytestmark = pytest.mark.django_db

__all__ = ["olga"]

PAGE = "/clubs/tile-club/winter/1/organiser/"
PLAYS = r"You play in the fixture at table \d+\."


def erin_entry(running: RunningSeason) -> Entry:
    return running.entries[2]


def alices_fixture(running: RunningSeason) -> Fixture:
    return running.fixtures[1]


def text_of(response: object) -> str:
    return response.content.decode()  # type: ignore[attr-defined, no-any-return]


def not_offered_and_refused(client: Client, url: str, table: int | None, **get: Any) -> None:
    """The page at ``url`` says why instead of offering the form; a POST anyway is a 403
    with the same sentence."""
    sentence = f"You play in the fixture at table {table}."
    page = client.get(url, **get)
    assert page.status_code == 200
    assert sentence in text_of(page)
    assert 'name="reason"' not in text_of(page)
    refused = client.post(url, {"reason": "All agreed."})
    assert refused.status_code == 403
    assert sentence in text_of(refused)


def later(running: RunningSeason) -> str:
    return (running.matchday.deadline + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")


# --- withdrawing a player (S3) ----------------------------------------------------------


def test_an_organiser_cannot_withdraw_her_own_opponent(running: RunningSeason) -> None:
    entry = erin_entry(running)
    with pytest.raises(NotAllowed, match=PLAYS + " Another organiser"):
        withdraw(entry, running.organiser, "Erin never plays.")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_the_refusal_to_withdraw_is_a_403_naming_the_fixture(
    running: RunningSeason, client: Client
) -> None:
    entry = erin_entry(running)
    client.force_login(running.organiser)
    # W23: the form is not offered; the page says why.
    url = reverse("leagues:withdraw", args=[entry.pk])
    not_offered_and_refused(client, url, alices_fixture(running).table_id)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.REGISTERED


def test_an_organiser_who_does_not_play_with_them_withdraws_a_player(
    running: RunningSeason, olga: User
) -> None:
    withdrawn = withdraw(erin_entry(running), olga, "Erin never plays.")
    assert withdrawn.status == Entry.Status.WITHDRAWN
    # Alice plays in none of bob's unfinished fixtures.
    assert withdraw(running.entries[0], running.organiser, "Bob moved.").status == (
        Entry.Status.WITHDRAWN
    )


def test_a_player_who_organises_withdraws_herself(running: RunningSeason) -> None:
    own = running.entries[3]
    assert own.user == running.organiser
    assert withdraw(own, running.organiser).status == Entry.Status.WITHDRAWN


# --- seating a substitute -----------------------------------------------------------------


def test_an_organiser_cannot_choose_who_plays_against_her_in_a_fixture_to_come(
    running: RunningSeason, olga: User
) -> None:
    add_matchday_2(running)  # dave-alice, still to open
    frank = UserFactory(username="frank", display_name="Frank")
    Membership.objects.create(club=running.club, user=frank)
    dave_entry = running.entries[1]
    with pytest.raises(NotAllowed, match=r"You play in a fixture of matchday 2\."):
        tools.replace_player(dave_entry, frank, running.organiser, "Dave is away.")
    dave_entry.refresh_from_db()
    assert dave_entry.substitute is None
    tools.replace_player(dave_entry, frank, olga, "Dave is away.")
    dave_entry.refresh_from_db()
    assert dave_entry.substitute == frank


# --- extending a matchday's deadline (S4) ---------------------------------------------------


def test_an_organiser_cannot_extend_the_deadline_of_a_matchday_she_plays_in(
    running: RunningSeason, client: Client
) -> None:
    before = running.matchday.deadline
    client.force_login(running.organiser)
    url = f"{PAGE}matchdays/1/deadline/"
    refused = client.post(url, {"deadline": later(running), "reason": "Snow."})
    assert refused.status_code == 403
    table = alices_fixture(running).table_id
    assert f"You play in the fixture at table {table}." in text_of(refused)
    assert Matchday.objects.get(pk=running.matchday.pk).deadline == before


def test_her_fixture_with_its_own_deadline_is_not_touched_by_the_extension(
    running: RunningSeason, olga: User
) -> None:
    own = running.matchday.deadline + timedelta(days=1)
    tools.reschedule_fixture(alices_fixture(running), own, olga, "Erin travels.")
    new = running.matchday.deadline + timedelta(days=2)
    extended = tools.extend_deadline(running.matchday, new, running.organiser, "Snow.")
    assert extended.deadline == new


def test_an_organiser_who_plays_nowhere_extends_it(running: RunningSeason, olga: User) -> None:
    new = running.matchday.deadline + timedelta(days=2)
    assert tools.extend_deadline(running.matchday, new, olga, "Snow.").deadline == new


# --- opening the next matchday early ----------------------------------------------------------


def test_an_organiser_cannot_open_early_a_matchday_she_plays_in(
    running: RunningSeason, olga: User, client: Client
) -> None:
    following = add_matchday_2(running)
    finish_matchday_1(running)
    client.force_login(running.organiser)
    refused = client.post(f"{PAGE}matchdays/next/open/", {"reason": "All done."})
    assert refused.status_code == 403
    assert "You play in a fixture of matchday 2." in text_of(refused)
    assert Matchday.objects.get(pk=following.pk).status == Matchday.Status.SCHEDULED
    opened = matchdays.open_next_matchday(running.season, olga, "All done.")
    assert opened.status == Matchday.Status.OPEN


# --- closing a matchday early (settling) ------------------------------------------------------


def test_the_close_preview_does_not_offer_alice_to_settle_her_own_fixture(
    running: RunningSeason, olga: User, client: Client
) -> None:
    url = f"{PAGE}matchdays/1/close/"
    client.force_login(running.organiser)
    htmx = {"headers": {"HX-Request": "true"}}
    not_offered_and_refused(client, url, alices_fixture(running).table_id, **htmx)
    assert Matchday.objects.get(pk=running.matchday.pk).status == Matchday.Status.OPEN
    client.force_login(olga)
    assert 'name="reason"' in text_of(client.get(url, headers={"HX-Request": "true"}))


# --- closing the season ---------------------------------------------------------------------


def test_an_organiser_who_plays_in_the_season_cannot_close_it(
    running: RunningSeason, olga: User, client: Client
) -> None:
    finish_matchday_1(running)  # nothing is left to settle: the close fixes the order
    client.force_login(running.organiser)
    url = f"{PAGE}close/"
    page = client.get(url)
    assert page.status_code == 200
    assert "You play in the fixture at table" in text_of(page)
    assert "announce the close" in text_of(page)
    refused = client.post(url, {"reason": "Done."})
    assert refused.status_code == 403
    assert "You play in the fixture at table" in text_of(refused)
    assert Season.objects.get(pk=running.season.pk).status == Season.Status.RUNNING
    season_end.close_season(running.season, olga, "Done.")
    assert Season.objects.get(pk=running.season.pk).status == Season.Status.FINISHED


# --- the organisers' page offers only what she may do (W23) ---------------------------------


def test_the_page_offers_alice_only_the_tools_she_may_use(
    running: RunningSeason, client: Client
) -> None:
    client.force_login(running.organiser)
    html = text_of(client.get(PAGE))
    bob_dave, erin_alice = running.fixtures
    assert f'id="fixture-deadline-{bob_dave.pk}"' in html
    assert f'id="fixture-deadline-{erin_alice.pk}"' not in html
    assert f'id="deadline-{running.matchday.pk}"' not in html
    assert f"You play in the fixture at table {erin_alice.table_id}." in html
    assert f'id="substitute-{running.entries[0].pk}"' in html  # bob's: not hers
    assert f'id="substitute-{running.entries[2].pk}"' not in html  # erin's: hers


def test_the_page_offers_olga_every_tool(
    running: RunningSeason, olga: User, client: Client
) -> None:
    client.force_login(olga)
    html = text_of(client.get(PAGE))
    for fixture in running.fixtures:
        assert f'id="fixture-deadline-{fixture.pk}"' in html
    assert f'id="deadline-{running.matchday.pk}"' in html
    assert "You play in" not in html
