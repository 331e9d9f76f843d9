"""Every door of clubs and leagues that refuses a staff action tells a suspended
organiser (or owner) of the suspension and when it ends, the sentence of
``LEAGUES_STAFF_POLICY`` (:func:`leagues.permissions.why_not_staff`), never "Only the
club's organisers may do that." as if they were none; and nothing changes.

The club (``running``): alice owns it and plays erin-alice; olga organises it and plays
nowhere; both are suspended from it for a week. Waiting for an organiser: ivy's
invitation, jack's request to join, and the spring league's season 1 (registration
open) with kim's entry to approve. No socket or export of clubs and leagues is a staff
door (the standings' socket and CSVs answer whoever may see the season).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from accounts.models import User
from games.models import Game
from leagues.models import (
    Club,
    ClubInvitation,
    Entry,
    JoinRequest,
    League,
    Membership,
    Role,
    Season,
)
from moderation.models import Suspension
from tests.conftest import client_as
from tests.factories import LeagueFactory, SeasonFactory, UserFactory
from tests.games.conftest import current_game
from tests.leagues.conftest import RunningSeason, olga
from tests.moderation.conftest import suspend

pytestmark = pytest.mark.django_db

__all__ = ["olga"]

SUSPENDED = "You are suspended from the club Tile Club until"
GENERIC = "Only the club&#x27;s organisers"


@dataclass(frozen=True)
class Waiting:
    """What the doors act on: ids for their addresses."""

    invitation: int
    request: int
    member: int
    entry: int
    entry_user: int


@dataclass(frozen=True)
class Door:
    """A request a suspended staff member makes: ``who`` (``olga``, the organiser, or
    ``alice``, the owner, for what only an owner does), and whether it is htmx. The path
    and the data name what they act on by the fields of :class:`Waiting`."""

    method: str
    path: str
    data: dict[str, str] = field(default_factory=dict)
    who: str = "olga"
    htmx: bool = False


CLUB = "/clubs/tile-club"
SEASON = f"{CLUB}/winter/1"
SPRING = f"{CLUB}/spring/1"


DOORS = {
    # The club's pages and its members.
    "club settings": Door("get", f"{CLUB}/settings/"),
    "club settings saved": Door("post", f"{CLUB}/settings/", {"name": "Tile Club 2"}),
    "invitation link renewed": Door("post", f"{CLUB}/invite-link/"),
    "invite": Door("post", f"{CLUB}/invite/", {"username": "zoe"}),
    "invite (htmx)": Door("post", f"{CLUB}/invite/", {"username": "zoe"}, htmx=True),
    "withdraw an invitation": Door("post", f"{CLUB}/invitations/{{invitation}}/withdraw/"),
    "approve a request": Door("post", f"{CLUB}/requests/{{request}}/approve/"),
    "decline a request": Door("post", f"{CLUB}/requests/{{request}}/decline/"),
    "remove a member": Door("post", f"{CLUB}/members/{{member}}/remove/"),
    "change a role": Door(
        "post", f"{CLUB}/members/{{member}}/role/", {"role": "moderator"}, "alice"
    ),
    "hand the club over": Door("post", f"{CLUB}/members/{{member}}/owner/", {}, "alice"),
    # Leagues and seasons.
    "new league": Door("get", f"{CLUB}/leagues/new/"),
    "new league saved": Door("post", f"{CLUB}/leagues/new/", {"name": "Autumn"}),
    "edit a league": Door("get", f"{CLUB}/spring/edit/"),
    "edit a league saved": Door("post", f"{CLUB}/spring/edit/", {"name": "Summer"}),
    "open a season": Door("post", f"{CLUB}/winter/seasons/new/"),
    "approve an entry": Door(
        "post", f"{SPRING}/entries/", {"user": "{entry_user}", "decision": "approve"}
    ),
    "close registration": Door("post", f"{SPRING}/registration/", {"registration": "close"}),
    "start preview": Door("get", f"{SPRING}/start/"),
    "start": Door("post", f"{SPRING}/start/"),
    "withdraw a player": Door("get", "/clubs/entries/{entry}/withdraw/"),
    # The organisers' tools (one page, one tool by htmx, a score change's page).
    "organisers' page": Door("get", f"{SEASON}/organiser/"),
    "extend a deadline (htmx)": Door(
        "post", f"{SEASON}/organiser/matchdays/1/deadline/", {"reason": "Snow."}, htmx=True
    ),
    "a score change's page": Door("get", f"{SEASON}/organiser/adjustments/1/"),
}


@pytest.fixture
def waiting(running: RunningSeason, olga: User) -> Waiting:
    club = running.club
    ivy, jack, kim = (UserFactory(username=name) for name in ("ivy", "jack", "kim"))
    UserFactory(username="zoe")
    invitation = ClubInvitation.objects.create(club=club, user=ivy, invited_by=running.organiser)
    join_request = JoinRequest.objects.create(club=club, user=jack, message="Hello.")
    Membership.objects.create(club=club, user=kim, role=Role.MEMBER)
    spring = LeagueFactory(club=club, name="Spring league", slug="spring")
    entry = Entry.objects.create(
        season=SeasonFactory(league=spring), user=kim, status=Entry.Status.PENDING
    )
    bob = running.players[0]
    return Waiting(invitation.pk, join_request.pk, bob.pk, entry.pk, kim.pk)


@pytest.fixture
def suspended(running: RunningSeason, olga: User, waiting: Waiting) -> list[Suspension]:
    assert running.fixtures[0].table is not None
    game: Game = current_game(running.fixtures[0].table)
    return [
        suspend(member, game, running.players[0], club=running.club)
        for member in (olga, running.organiser)
    ]


def state(club: Club) -> list[object]:
    """What any of the doors would change."""
    return [
        list(Club.objects.filter(pk=club.pk).values_list("name", "invite_code", "is_private")),
        list(Membership.objects.filter(club=club).order_by("pk").values_list("user_id", "role")),
        list(ClubInvitation.objects.order_by("pk").values_list("user_id", "status")),
        list(JoinRequest.objects.order_by("pk").values_list("user_id", "status")),
        list(League.objects.order_by("pk").values_list("slug", "name")),
        list(Season.objects.order_by("pk").values_list("pk", "status")),
        list(Entry.objects.order_by("pk").values_list("pk", "status")),
    ]


@pytest.mark.parametrize("door", DOORS.values(), ids=DOORS.keys())
def test_a_suspended_organiser_is_told_of_the_suspension_at_every_staff_door(
    running: RunningSeason, olga: User, waiting: Waiting, suspended: list[Suspension], door: Door
) -> None:
    user = olga if door.who == "olga" else running.organiser
    client: Client = client_as(user)
    before = state(running.club)
    headers = {"HTTP_HX_REQUEST": "true"} if door.htmx else {}
    send = client.get if door.method == "get" else client.post
    fields = asdict(waiting)
    data = {name: value.format(**fields) for name, value in door.data.items()}
    response = send(door.path.format(**fields), data, **headers)

    html = response.content.decode()
    assert response.status_code == 403, html[:500]
    assert SUSPENDED in html
    assert GENERIC not in html
    assert state(running.club) == before


def test_a_suspended_organiser_reads_why_the_club_offers_no_tools(
    running: RunningSeason, olga: User, suspended: list[Suspension]
) -> None:
    html = client_as(olga).get(f"{CLUB}/members/").content.decode()

    assert SUSPENDED in html
    assert f"{CLUB}/settings/" not in html and "/remove/" not in html


def test_the_club_pages_offer_the_tools_again_once_it_is_lifted(
    running: RunningSeason, olga: User, suspended: list[Suspension]
) -> None:
    with time_machine.travel(suspended[0].ends_at + timedelta(minutes=1)):
        html = client_as(olga).get(f"{CLUB}/members/").content.decode()

    assert SUSPENDED not in html
    assert f"{CLUB}/settings/" in html and "/remove/" in html
