"""Every endpoint of the game, lobby, member, club and account pages, as each kind of viewer,
with malformed, oversized, out-of-turn and wrong-method requests (hypothesis).

The endpoints are read from the URLconf (everything but the admin), so a new page is
fuzzed as soon as it has an address. Each request runs in a transaction that is rolled
back, so every example starts from the same game: the player to move holds a known rack.

What must hold for every request:

- never a 5xx;
- a visitor is sent to log in (or gets a page anyone may see, or a 4xx);
- a number or JSON field that the endpoint reads, sent malformed, gets a 4xx;
- a request that would change something gets a 2xx/3xx only from someone entitled to make
  it: the player to move for a turn's actions, a player for resigning, a member for
  their own pages, anyone for the account forms, a club's owner for its pages (anyone
  else may only ask to join it); nobody may join a table that plays;
- the game is unchanged (version, state, move log), unless it was a move by the player to
  move with the version they were shown, or a player resigning;
- a game page never shows a tile the viewer may not see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.db import transaction
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games.models import Game, Move, Vacation
from games.services import vacations
from leagues.services import clubs
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.players import user_at
from tests.games.views_support import hidden_from, tiles_in
from tests.security.fuzzing import ENDPOINTS, METHODS, SAFE, Endpoint, send, unlimited, values

pytestmark = pytest.mark.django_db

VIEWERS = ["mover", "waiter", "outsider", "visitor", "staff"]

# The fields each endpoint reads as a number or as JSON, and with which method.
NUMBER_FIELDS = {
    ("games:move", "POST"): {"source", "position", "target"},
    ("games:play", "POST"): {"version"},
    ("games:draw", "POST"): {"version"},
    ("games:pass", "POST"): {"version"},
    ("games:discard", "POST"): {"version"},
    ("games:river", "POST"): {"version", "index"},
    ("games:join", "POST"): {"seat"},
    ("notifications:read", "POST"): {"id"},
    ("games:plan_vacation", "POST"): {"days"},
    ("games:replay", "GET"): {"turn"},
    ("games:your_move_next", "GET"): {"from"},
}
JSON_FIELDS = {("games:use_hint", "POST"): {"table"}}
# A turn's actions: only the player to move may make them (the draft ones change no game).
TURN_ACTIONS = {
    *("move", "reset", "undo", "play", "draw", "pass", "discard", "river", "use_hint", "arrange")
}
MOVES = {"play", "draw", "pass", "discard", "river"}
# Pages about the member themself: any member may post to them.
OWN_PAGES = {
    "games:new_table",
    # Seats the member at a waiting table or a new one of their own: never the scene's.
    "games:play_now",
    "notifications:read",
    "notifications:preferences",
    "games:plan_vacation",
    "games:end_vacation",
    "games:cancel_vacation",
    "leagues:new_club",
    "leagues:renew_calendar",
    "profile",
    "password_change",
    "logout",
}
# Account forms anyone may send (a valid one is answered with a redirect).
ACCOUNT_FORMS = {"signup", "login", "logout", "password_reset", "password_reset_confirm"}
FIELDS = sorted(
    {field for fields in (*NUMBER_FIELDS.values(), *JSON_FIELDS.values()) for field in fields}
    | {"tile", "username", "password", "email", "new_password1", "starts_on", "seats", "x"}
)
STRICT_NUMBER = re.compile(r"[0-9]{1,19}")


def test_the_fuzzed_endpoints_are_every_page_of_the_club() -> None:
    names = {endpoint.name for endpoint in ENDPOINTS}

    assert {"home", "login", "signup", "password_reset_confirm", "games:lobby"} <= names
    assert {"games:game", "games:move", "games:use_hint", "games:join", "games:vacation"} <= names
    assert not any(name.startswith("admin:") for name in names)
    assert len(ENDPOINTS) >= 39


# --- the scene -------------------------------------------------------------------------


@dataclass
class Scene:
    game: Game
    users: dict[str, User]
    seats: dict[str, int | None]
    vacation_id: int
    club_slug: str

    def client(self, viewer: str) -> Client:
        """A client signed in afresh (inside the example's transaction): a request that
        logged the viewer out must not carry over to the next example."""
        return client_as(self.users[viewer]) if viewer in self.users else Client()

    def address(self, endpoint: Endpoint, mangled_id: str | None) -> str:
        kwargs: dict[str, object] = {}
        for param in endpoint.params:
            if param == "pk":
                kwargs[param] = self._id_for(endpoint)
            elif param in ("slug", "club"):
                kwargs[param] = self.club_slug
            elif param in ("number", "matchday", "fixture", "entry", "level"):  # a season's rows
                kwargs[param] = self._id_for(endpoint)
            elif param in ("game_id", "case_id", "message_id", "ruling_id"):  # moderation's
                kwargs[param] = self.game.pk
            else:  # uidb64, token of a reset link
                kwargs[param] = "MQ" if param == "uidb64" else "set-password"
        path = reverse(endpoint.name, kwargs=kwargs)
        if mangled_id is not None and "pk" in endpoint.params:
            path = path.replace(f"/{kwargs['pk']}/", f"/{mangled_id}/", 1)
        return path

    def _id_for(self, endpoint: Endpoint) -> int:
        if "tables/" in endpoint.route:
            return self.game.table_id
        if "vacation/" in endpoint.route:
            return self.vacation_id
        return self.game.pk


@pytest.fixture
def scene(position: Game, carol: User) -> Scene:
    mover_seat = position.current_seat
    assert mover_seat is not None
    mover, waiter = user_at(position, mover_seat), user_at(position, 1 - mover_seat)
    staff = UserFactory(username="root", is_staff=True, is_superuser=True)
    later = timezone.localdate() + timedelta(days=30)
    planned: Vacation = vacations.plan_vacation(mover, 2, later)
    users = {"mover": mover, "waiter": waiter, "outsider": carol, "staff": staff}
    seats = {"mover": mover_seat, "waiter": 1 - mover_seat}
    # A public club of the outsider's: the club pages' actions are theirs to take.
    club = clubs.create_club(carol, "Fuzz Club")
    return Scene(position, users, seats, planned.pk, club.slug)


# --- requests --------------------------------------------------------------------------


READ_FIELDS: dict[str, tuple[str, set[str]]] = {}
for (_name, _method), _fields in (*NUMBER_FIELDS.items(), *JSON_FIELDS.items()):
    READ_FIELDS[_name] = (_method, READ_FIELDS.get(_name, (_method, set()))[1] | _fields)


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """A request to any endpoint; most go with the method the endpoint answers and fill
    the fields it reads, so that malformed values reach the code that reads them."""
    endpoint = draw(st.sampled_from(ENDPOINTS))
    method, read = READ_FIELDS.get(endpoint.name, ("POST", set()))
    if draw(st.integers(0, 3)) == 0:
        method = draw(st.sampled_from(METHODS))
    data = draw(st.dictionaries(st.sampled_from(FIELDS), values(), max_size=2))
    for field in sorted(read):
        if draw(st.booleans()):
            data[field] = draw(values())
    return {
        "endpoint": endpoint,
        "viewer": draw(st.sampled_from(VIEWERS)),
        "method": method,
        "data": data,
        "htmx": draw(st.booleans()),
        "mangled_id": draw(
            st.one_of(
                st.none(),
                st.none(),
                st.sampled_from(["0", "999999", "²", "9" * 5000, str(2**63)]),
            )
        ),
    }


def send_to(scene: Scene, request: dict[str, Any]) -> HttpResponse:
    client = scene.client(request["viewer"])
    path = scene.address(request["endpoint"], request["mangled_id"])
    return send(client, request["method"], path, request["data"], request["htmx"])


# --- what must hold --------------------------------------------------------------------


def snapshot(game: Game) -> tuple[int, Any, int]:
    game.refresh_from_db()
    return game.version, game.state, Move.objects.filter(game=game).count()


def reads_malformed(request: dict[str, Any]) -> bool:
    """Whether the endpoint reads a field of the request that is no strict number or JSON."""
    key = (request["endpoint"].name, "GET" if request["method"] == "HEAD" else request["method"])
    data = request["data"]
    for field in NUMBER_FIELDS.get(key, set()) & data.keys():
        value = data[field]
        if field == "target" and value in ("rack", "new"):
            continue
        if field == "source" and value == "rack":
            continue
        if value and not STRICT_NUMBER.fullmatch(value):
            return True
    for field in JSON_FIELDS.get(key, set()) & data.keys():
        if len(data[field]) > 20_000 or data[field].count("[") > 4:
            return True
    return False


def entitled(scene: Scene, request: dict[str, Any]) -> bool:
    """Whether the viewer may make this (unsafe) request at all."""
    name, viewer = request["endpoint"].name, request["viewer"]
    action = name.removeprefix("games:")
    if name in ACCOUNT_FORMS:
        return True
    if viewer == "visitor":
        return False
    if name in OWN_PAGES:
        return True
    if name.startswith("leagues:"):
        # The outsider owns the club; anyone else may only ask to join it.
        return viewer == "outsider" or name == "leagues:request_to_join"
    if name == "moderation:next":
        # Moderators take the next case (none: back to the queue): the superuser moderates
        # the site, the outsider their club.
        return viewer in ("staff", "outsider")
    if action in TURN_ACTIONS:
        return viewer == "mover"
    if action == "resign":
        return viewer in ("mover", "waiter")
    return False


def may_change_the_game(scene: Scene, request: dict[str, Any], version: int) -> bool:
    action = request["endpoint"].name.removeprefix("games:")
    if request["method"] != "POST" or request["mangled_id"] is not None:
        return False
    if action == "resign":
        return request["viewer"] in ("mover", "waiter")
    return (
        action in MOVES
        and request["viewer"] == "mover"
        and request["data"].get("version") == str(version)
    )


def check(scene: Scene, request: dict[str, Any]) -> None:
    game = scene.game
    before = snapshot(game)
    response = send_to(scene, request)
    status = response.status_code
    described = (
        f"{request['method']} {request['endpoint'].name} as {request['viewer']} "
        f"({request['data']!r:.200}) -> {status}"
    )

    assert status < 500, described
    to_login = status == 302 and response["Location"].startswith(reverse("login"))
    if request["viewer"] == "visitor" and to_login:
        pass
    elif reads_malformed(request) and request["mangled_id"] is None:
        assert 400 <= status < 500, described
    elif request["method"] not in SAFE and status < 400:
        assert entitled(scene, request), described
    if not may_change_the_game(scene, request, before[0]):
        assert snapshot(game) == before, described
    if status == 200 and request["endpoint"].name in ("games:game", "games:hint"):
        seat = scene.seats.get(request["viewer"])
        leaked = tiles_in(response.content.decode()) & hidden_from(game.engine_state(), seat)
        assert not leaked, described


@pytest.fixture
def frozen_clock() -> Iterator[None]:
    # The turn's deadline must not pass while the examples run.
    with time_machine.travel(timezone.now(), tick=False):
        yield


def run(scene: Scene, request: dict[str, Any]) -> None:
    """One request in a transaction of its own, rolled back afterwards."""
    with override_settings(RATE_LIMITS=unlimited()), transaction.atomic():
        check(scene, request)
        transaction.set_rollback(True)


def plain(endpoint: Endpoint, viewer: str, method: str, **data: str) -> dict[str, Any]:
    return {
        "endpoint": endpoint,
        "viewer": viewer,
        "method": method,
        "data": data,
        "htmx": method == "POST",
        "mangled_id": None,
    }


def test_every_endpoint_as_every_viewer_with_every_method(scene: Scene, frozen_clock: None) -> None:
    """The plain sweep: no data; a page's method, a form's, and a wrong one."""
    for endpoint in ENDPOINTS:
        for viewer in VIEWERS:
            for method in ("GET", "POST", "DELETE"):
                run(scene, plain(endpoint, viewer, method))


MALFORMED = ["²", "٣", "-1", "1_0", "9" * 5000, str(2**63), "[" * 5000 + "]" * 5000]


def test_every_number_and_json_field_refuses_malformed_values(
    scene: Scene, frozen_clock: None
) -> None:
    """Each field an endpoint reads as a number or JSON, with each malformed value, from
    each signed-in viewer (a visitor is sent to log in before anything is read)."""
    by_name = {endpoint.name: endpoint for endpoint in ENDPOINTS}
    for name, (method, fields) in READ_FIELDS.items():
        for field in sorted(fields):
            for value in MALFORMED:
                for viewer in ("mover", "waiter", "outsider"):
                    run(scene, plain(by_name[name], viewer, method, **{field: value}))


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=requests())
def test_malformed_requests_change_nothing_and_never_fail(
    scene: Scene, frozen_clock: None, request: dict[str, Any]
) -> None:
    run(scene, request)
