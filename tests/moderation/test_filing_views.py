"""The report pages: a game's players file from its form, others are refused; a chat
message is reported from its own form; a member reads their own reports."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.models import ChatMessage, Game
from moderation.models import Case, Report
from tests.conftest import client_as
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def url(game: Game) -> str:
    return f"/moderation/report/game/{game.pk}/"


def test_a_player_files_from_the_games_form(league_game: Game, bob: User, dave: User) -> None:
    client = client_as(bob)
    page = client.get(url(league_game))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Report a problem in game 1" in html
    assert "Wrong timeout or clock" in html
    # Abusive chat is not offered (the form would always refuse it): the chat's own
    # Report link files it, and the form says so.
    assert 'value="abuse"' not in html
    assert "Report next to it in the chat" in html
    assert f'<option value="{dave.pk}">Dave</option>' in html

    response = client.post(
        url(league_game),
        {"category": "bug", "turn_number": "2", "accused": str(dave.pk), "text": "My draw."},
        follow=True,
    )

    case = Case.objects.get()
    assert response.redirect_chain == [(f"/moderation/cases/{case.pk}/", 302)]
    assert f"Your report is filed as case {case.pk}" in response.content.decode()
    assert "My draw." in response.content.decode()
    assert (case.accused, case.turn_number) == (dave, 2)


def test_a_joining_filer_is_told_the_case_comes_up_sooner(
    league_game: Game, bob: User, dave: User
) -> None:
    client_as(bob).post(url(league_game), {"category": "bug", "text": "Refused."})
    response = client_as(dave).post(
        url(league_game), {"category": "bug", "text": "Mine too."}, follow=True
    )
    # Not how many (that stays with the moderators: security review wave 3, SU2).
    assert "which others reported too: it now comes up sooner" in response.content.decode()
    assert "1 other" not in response.content.decode()
    assert Report.objects.count() == 2


def test_a_refused_report_says_why_and_changes_nothing(league_game: Game, bob: User) -> None:
    response = client_as(bob).post(url(league_game), {"category": "clock", "text": "Clock!"})
    assert response.status_code == 400
    assert "No turn of this game ran out of time" in response.content.decode()
    response = client_as(bob).post(url(league_game), {"category": "abuse", "text": "Rude."})
    assert response.status_code == 400
    response = client_as(bob).post(url(league_game), {"category": "bug", "text": ""})
    assert response.status_code == 400
    response = client_as(bob).post(
        url(league_game), {"category": "bug", "turn_number": "x", "text": "Hm."}
    )
    assert response.status_code == 400
    assert not Case.objects.exists()


def test_an_outsider_and_a_visitor_are_refused(league_game: Game, erin: User) -> None:
    response = client_as(erin).get(url(league_game))
    assert response.status_code == 403
    assert "Only the game&#x27;s players may report it." in response.content.decode()
    assert (
        client_as(erin).post(url(league_game), {"category": "bug", "text": "X"}).status_code == 403
    )
    assert Client().get(url(league_game)).status_code == 302
    assert (
        client_as(erin).get(f"/moderation/report/game/{league_game.pk + 999}/").status_code == 404
    )
    assert not Case.objects.exists()


def test_the_wrong_method_is_refused(league_game: Game, bob: User) -> None:
    assert client_as(bob).put(url(league_game)).status_code == 405
    assert client_as(bob).delete(url(league_game)).status_code == 405


def test_a_message_is_reported_from_its_form(
    league_game: Game, bob: User, dave: User, erin: User
) -> None:
    message = ChatMessage.objects.create(
        table=league_game.table, game=league_game, turn_number=1, author=dave, text="<b>Loser</b>"
    )
    message_url = f"/moderation/report/message/{message.pk}/"
    page = client_as(bob).get(message_url)
    assert page.status_code == 200
    assert "&lt;b&gt;Loser&lt;/b&gt;" in page.content.decode()

    response = client_as(bob).post(message_url, {"category": "abuse", "text": "Insult."})

    case = Case.objects.get()
    assert response.status_code == 302
    assert (case.category, case.accused, case.message) == ("abuse", dave, message)
    assert client_as(dave).post(message_url, {"category": "abuse", "text": "Me"}).status_code == 400
    assert client_as(bob).patch(message_url).status_code == 405
    spectators = ChatMessage.objects.create(
        table=league_game.table, game=league_game, author=erin, audience="spectators", text="Hi"
    )
    assert client_as(bob).get(f"/moderation/report/message/{spectators.pk}/").status_code == 404


def test_a_member_reads_their_own_reports(league_game: Game, bob: User, dave: User) -> None:
    client_as(bob).post(url(league_game), {"category": "bug", "text": "Refused."})
    case = Case.objects.get()
    page = client_as(bob).get("/moderation/mine/").content.decode()
    assert f"Case {case.pk}: A bug" in page
    assert "Open" in page
    assert (
        "You have not reported anything."
        in client_as(dave).get("/moderation/mine/").content.decode()
    )
    assert client_as(bob).post("/moderation/mine/").status_code == 405


def test_the_game_page_links_its_players_to_the_form(league_game: Game, bob: User) -> None:
    link = f'href="/moderation/report/game/{league_game.pk}/"'
    assert link in client_as(bob).get(f"/games/{league_game.pk}/").content.decode()
    assert link in client_as(bob).get(f"/games/{league_game.pk}/replay/").content.decode()
    outsider = client_as(UserFactory())
    assert link not in outsider.get(f"/games/{league_game.pk}/").content.decode()
    assert link not in outsider.get(f"/games/{league_game.pk}/replay/").content.decode()
