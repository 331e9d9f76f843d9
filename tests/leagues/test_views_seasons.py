"""The league and season pages and their forms, for an organiser (alice), a member
(mia), a member of another club (rita, its owner) and a visitor; and the wrong HTTP method."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from accounts.models import User
from games.forms import TableSettingsForm
from games.models import Table
from leagues.models import Club, Entry, League, Membership, Role, Season
from tests.conftest import client_as

pytestmark = pytest.mark.django_db

LEAGUE = "/clubs/tile-club/winter/"
SEASON = "/clubs/tile-club/winter/1/"


def league_form(**changes: str) -> dict[str, str]:
    form = {
        "name": "Spring",
        "slug": "spring",
        "description": "Tuesdays.",
        "seats": "3",
        "scoring": "placement",
        "placement_points": "3/1/0",
        "promotion": "1",
        "division_size": "6",
        "matchday_days": "5",
        "vacation_days": "7",
        "on_deadline": "as_it_stands",
        "on_withdrawal": "bot",
        "on_suspension": "forfeit",
        "tiebreak_1": "fixtures_won",
        "tiebreak_2": "total_score",
        "preset": "standard",
        "clock": "correspondence",
        "turn_seconds": "86400",
        "time_bank_seconds": "0",
        "timeouts_to_forfeit": "3",
        "on_forfeit": "bot",
        "games_in_round": "",
    }
    return {**_option_defaults(), **form, **changes}


def _option_defaults() -> dict[str, str]:
    """Every rule option at the preset's value, as a browser sends it (a checkbox left
    unticked is not sent)."""
    values = {}
    for field in TableSettingsForm().option_fields():
        if field.initial is True:
            values[field.name] = "on"
        elif field.initial is not False:
            values[field.name] = str(field.initial)
    return values


# --- the league ------------------------------------------------------------------------


def test_an_organiser_creates_a_league_and_sees_its_rules_in_words(club: Club, alice: User) -> None:
    client = client_as(alice)
    assert client.get("/clubs/tile-club/leagues/new/").status_code == 200
    response = client.post("/clubs/tile-club/leagues/new/", league_form())
    assert response.status_code == 302 and response["Location"] == "/clubs/tile-club/spring/"
    league = League.objects.get(slug="spring")
    assert (league.seats, league.placement_points, league.tiebreaks) == (
        3,
        [3, 1, 0],
        ["fixtures_won", "total_score"],
    )
    assert league.table_settings["clock"] == "correspondence"
    assert league.on_suspension == "forfeit"
    page = client.get("/clubs/tile-club/spring/").content.decode()
    assert "Placement points per fixture: 3/1/0" in page
    assert "They forfeit each game of the fixture played while suspended" in page
    assert "Fixtures won, then Total score" in page
    assert "Edit the house rules" in page


def test_a_league_left_without_an_address_gets_one_made_from_its_name(
    club: Club, alice: User
) -> None:
    # Walk W16: an empty address answered 400 "This field is required".
    client = client_as(alice)
    form = client.get("/clubs/tile-club/leagues/new/").content.decode()
    assert "Leave it empty to make one from the name." in form

    response = client.post("/clubs/tile-club/leagues/new/", league_form(slug="", name="Edit"))
    assert response.status_code == 302 and response["Location"] == "/clubs/tile-club/edit-2/"
    second = client.post("/clubs/tile-club/leagues/new/", league_form(slug="", name="Edit"))
    assert second.status_code == 302 and second["Location"] == "/clubs/tile-club/edit-3/"
    assert sorted(League.objects.values_list("slug", flat=True)) == ["edit-2", "edit-3"]


def test_the_form_refuses_an_unknown_rule_for_suspended_players(club: Club, alice: User) -> None:
    response = client_as(alice).post(
        "/clubs/tile-club/leagues/new/", league_form(on_suspension="vanish")
    )
    assert response.status_code == 400
    assert not League.objects.filter(slug="spring").exists()


def test_the_form_points_at_rules_that_do_not_fit(club: Club, alice: User) -> None:
    response = client_as(alice).post(
        "/clubs/tile-club/leagues/new/", league_form(placement_points="3/1")
    )
    assert response.status_code == 400
    assert "Give points for each of the 3 places" in response.content.decode()
    response = client_as(alice).post("/clubs/tile-club/leagues/new/", league_form(slug="edit"))
    assert response.status_code == 400
    assert client_as(alice).post("/clubs/tile-club/leagues/new/").status_code == 400
    assert not League.objects.exists()


def test_an_organiser_edits_the_house_rules(league: League, alice: User) -> None:
    client = client_as(alice)
    page = client.get(f"{LEAGUE}edit/")
    assert page.status_code == 200 and 'value="Winter"' in page.content.decode()
    response = client.post(f"{LEAGUE}edit/", league_form(name="Winter", matchday_days="3"))
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.name, league.slug, league.matchday_days) == ("Winter", "winter", 3)


@pytest.mark.parametrize("path", ["/clubs/tile-club/leagues/new/", f"{LEAGUE}edit/"])
def test_only_organisers_create_or_edit_leagues(
    league: League, member: User, rival: User, path: str
) -> None:
    assert client_as(member).get(path).status_code == 403
    assert client_as(member).post(path, league_form()).status_code == 403
    assert client_as(rival).post(path, league_form()).status_code == 403
    visitor = client_as(None).post(path, league_form())
    assert visitor.status_code == 302 and "/accounts/login/" in visitor["Location"]
    assert League.objects.count() == 1 and League.objects.get().name == "Winter"


def test_a_public_league_is_seen_by_anyone_a_private_one_by_members(
    league: League, member: User, rival: User
) -> None:
    for user in (member, rival, None):
        page = client_as(user).get(LEAGUE)
        assert page.status_code == 200
        assert "Edit the house rules" not in page.content.decode()
    Club.objects.filter(pk=league.club_id).update(is_private=True)
    assert client_as(member).get(LEAGUE).status_code == 200
    assert client_as(rival).get(LEAGUE).status_code == 404
    assert client_as(None).get(LEAGUE).status_code == 404


def test_league_pages_answer_the_wrong_method_with_405(league: League, alice: User) -> None:
    client = client_as(alice)
    assert client.post(LEAGUE).status_code == 405
    assert client.get(f"{LEAGUE}seasons/new/").status_code == 405
    assert client.put(f"{LEAGUE}edit/").status_code == 405


# --- seasons ---------------------------------------------------------------------------


def test_an_organiser_opens_a_season(league: League, alice: User, member: User) -> None:
    assert client_as(member).post(f"{LEAGUE}seasons/new/").status_code == 403
    response = client_as(alice).post(f"{LEAGUE}seasons/new/", {"starts_at": "2001-01-01T10:00"})
    assert response.status_code == 400 and not Season.objects.exists()
    response = client_as(alice).post(f"{LEAGUE}seasons/new/")
    assert response.status_code == 302 and response["Location"] == SEASON
    again = client_as(alice).post(f"{LEAGUE}seasons/new/")
    assert again.status_code == 409 and Season.objects.count() == 1


def test_a_member_registers_and_withdraws_from_the_season_page(
    season: Season, member: User
) -> None:
    client = client_as(member)
    page = client.get(SEASON).content.decode()
    assert f'action="{SEASON}register/"' in page
    assert client.post(f"{SEASON}register/").status_code == 302
    assert Entry.objects.get(user=member).status == Entry.Status.REGISTERED
    assert client.post(f"{SEASON}register/").status_code == 409
    assert f'action="{SEASON}unregister/"' in client.get(SEASON).content.decode()
    assert client.post(f"{SEASON}unregister/").status_code == 302
    assert Entry.objects.get(user=member).status == Entry.Status.WITHDRAWN


def test_outsiders_and_visitors_do_not_register(season: Season, rival: User) -> None:
    assert client_as(rival).post(f"{SEASON}register/").status_code == 403
    visitor = client_as(None)
    assert "Log in</a> to register" in visitor.get(SEASON).content.decode()
    assert visitor.post(f"{SEASON}register/").status_code == 302
    assert not Entry.objects.exists()


def test_an_organiser_approves_and_closes_registration(
    season: Season, alice: User, member: User
) -> None:
    Season.objects.filter(pk=season.pk).update(registration_approval=True)
    client_as(member).post(f"{SEASON}register/")
    organiser = client_as(alice)
    assert "Awaiting approval" in organiser.get(SEASON).content.decode()
    assert (
        client_as(member)
        .post(f"{SEASON}entries/", {"user": member.pk, "decision": "approve"})
        .status_code
        == 403
    )
    bad = organiser.post(f"{SEASON}entries/", {"user": "x", "decision": "approve"})
    assert bad.status_code == 400
    bad = organiser.post(f"{SEASON}entries/", {"user": member.pk, "decision": "maybe"})
    assert bad.status_code == 400
    assert Entry.objects.get(user=member).status == Entry.Status.PENDING
    ok = organiser.post(f"{SEASON}entries/", {"user": member.pk, "decision": "approve"})
    assert ok.status_code == 302
    assert Entry.objects.get(user=member).status == Entry.Status.REGISTERED
    assert (
        client_as(member).post(f"{SEASON}registration/", {"registration": "close"}).status_code
        == 403
    )
    assert organiser.post(f"{SEASON}registration/", {"registration": "close"}).status_code == 302
    assert Season.objects.get(pk=season.pk).status == Season.Status.READY


def test_the_start_preview_then_the_start(
    season: Season, alice: User, member: User, make_members: Callable[[int], list[User]]
) -> None:
    for user in make_members(4):
        client_as(user).post(f"{SEASON}register/")
    organiser = client_as(alice)
    preview = organiser.get(f"{SEASON}start/")
    text = preview.content.decode()
    assert preview.status_code == 200
    assert "sits out each matchday" in text and "Start the season" in text
    assert client_as(member).get(f"{SEASON}start/").status_code == 403
    assert client_as(member).post(f"{SEASON}start/").status_code == 403
    assert Season.objects.get(pk=season.pk).status == Season.Status.REGISTRATION

    response = organiser.post(f"{SEASON}start/", {"reason": "all in"})
    assert response.status_code == 302 and response["Location"] == SEASON
    page = organiser.get(SEASON).content.decode()
    assert "Matchday 1" in page and "Bye:" in page and "/games/tables/" in page
    assert f'href="{SEASON}organiser/"' in page and f'href="{SEASON}history/"' in page
    member_page = client_as(member).get(SEASON).content.decode()
    assert f'href="{SEASON}organiser/"' not in member_page
    assert f'href="{SEASON}history/"' in member_page
    assert organiser.post(f"{SEASON}start/").status_code == 409
    assert organiser.get(f"{SEASON}start/").status_code == 409


def test_a_season_that_cannot_start_says_why(season: Season, alice: User) -> None:
    page = client_as(alice).get(f"{SEASON}start/")
    assert "Nobody is registered yet." in page.content.decode()
    assert "Start the season" not in page.content.decode()
    assert client_as(alice).post(f"{SEASON}start/").status_code == 409


def test_a_private_season_is_hidden_from_outsiders(season: Season, rival: User) -> None:
    Club.objects.filter(pk=season.league.club_id).update(is_private=True)
    assert client_as(rival).get(SEASON).status_code == 404
    assert client_as(rival).post(f"{SEASON}register/").status_code == 404
    assert client_as(None).get(SEASON).status_code == 404
    Membership.objects.create(club=season.league.club, user=rival, role=Role.MEMBER)
    assert client_as(rival).get(SEASON).status_code == 200


def test_season_pages_answer_the_wrong_method_with_405(season: Season, alice: User) -> None:
    client = client_as(alice)
    assert client.post(SEASON).status_code == 405
    for action in ("register", "unregister", "entries", "registration"):
        assert client.get(f"{SEASON}{action}/").status_code == 405
    assert client.delete(f"{SEASON}start/").status_code == 405
    assert client_as(alice).get("/clubs/tile-club/winter/99999999/").status_code == 404


def test_the_games_pages_name_the_fixture_and_link_to_its_season(
    season: Season, alice: User, make_members: Callable[[int], list[User]]
) -> None:
    players = make_members(3)
    for user in players:
        client_as(user).post(f"{SEASON}register/")
    client_as(alice).post(f"{SEASON}start/")
    table = Table.objects.get()
    game = table.games.get()
    mover = client_as(table.seats.get(number=game.current_seat).user)
    link = f'<a href="{SEASON}">Winter, season 1, matchday 1</a>'
    for path in (
        "/games/",
        "/games/your-move/",
        f"/games/tables/{table.pk}/",
        f"/games/{game.pk}/",
    ):
        page = mover.get(path)
        assert page.status_code == 200
        assert link in page.content.decode(), path
