"""Every address of games, leagues, moderation and accounts, as each kind of viewer the
issue "Trust at the seams" names, on the objects of a scene where clubs' leagues play
and cases are open (``seams_scene``): a private club P, a public club A, a rival club R,
parties of every kind, a substitute and suspended members.

Each address is filled with the scene's objects (the private club's included) and sent
GET and POST (the POST with a valid form where one is known), each request in a
transaction of its own, rolled back. What must hold, as data below:

- never a 5xx;
- :data:`ALLOWED`: on these addresses and objects, a viewer not named never gets through
  (a 2xx, or a 3xx anywhere but the log-in page), whatever the method;
- :data:`WRITERS`: on these, a viewer not named changes no row, whatever the answer;
- a refused request (a 4xx, or a 3xx to log in) changes no row of any table of games,
  leagues, moderation or accounts (their history tables included);
- :data:`SECRETS`: a marked text appears in no answer to a viewer not named.

Failures are collected and reported together: viewer, method, address, status, and what
went wrong (the tables whose rows changed, the marker that leaked).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.db import connection, transaction
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Club
from tests.conftest import client_as
from tests.security import seams_scene as s
from tests.security.fuzzing import ENDPOINTS, METHODS, Endpoint, send, unlimited, values

pytestmark = pytest.mark.django_db

# --- who may do what: the entitlement table --------------------------------------------

VIEWERS = [
    "visitor",  # not signed in
    "outsider",  # a member of no club
    "rival",  # the owner of another club (R)
    "member",  # a plain member of P
    "player",  # plays P's table 1; filed case 3
    "substitute",  # a moderator of P who plays an entry of P's division as its substitute
    "accused",  # a moderator of P, at table 1, accused in cases 1 and 3
    "filer",  # a member of P who reported the accused's chat line (case 1)
    "owner",  # P's owner, plays table 2, accused in case 2
    "moderator",  # a moderator of P, no party: claimed case 1, decided case 2
    "site_moderator",  # of the whole site, in conflict with nothing
    "suspended",  # suspended from the site (a member of A)
    "club_suspended",  # a member of P suspended from P
]

PUBLIC_OBJECTS_VIEWERS = [
    *("visitor", "outsider", "rival", "member", "owner", "site_moderator", "suspended"),
    "club_suspended",
]

P_MEMBERS = frozenset(
    {"member", "player", "substitute", "accused", "filer", "owner", "moderator", "club_suspended"}
)
# Who sees P's fixture tables: its members, their players (all members here) and the
# site moderators while a case about the table exists (there is one about each).
P_SIGHT = P_MEMBERS | {"site_moderator"}
P_MODERATORS = frozenset({"owner", "accused", "substitute", "moderator", "site_moderator"})
PARTIES = {
    "case 1": frozenset({"player", "accused", "filer"}),  # seated, seated and accused, filed
    "case 2": frozenset({"owner", "substitute"}),  # seated and accused, seated and filed
    "case 3": frozenset({"player", "accused"}),  # seated and filed, seated and accused
}
# A party reads their case as a party whatever their role: never its moderators' pages.
READERS = {case: P_MODERATORS - parties for case, parties in PARTIES.items()}
RECORDS = ("accused", "filer", "substitute")
"""The members whose records are asked for: their reports and cases are the secrets'."""
NOBODY: frozenset[str] = frozenset()
SIGNED_IN = frozenset(VIEWERS) - {"visitor"}

TABLE_PAGES = [
    *("table", "current", "join", "cancel_table", "change_seat", "play_again"),
    *("chat_say", "chat_mute", "chat_unmute"),
]
GAME_PAGES = [
    *("game", "move", "reset", "undo", "play", "draw", "pass", "discard", "river"),
    *("hint", "use_hint", "arrange", "resign", "replay", "replay_analysis"),
]
P_TABLES = ["P table 1", "P table 2"]
P_GAMES = ["P game in play", "P finished game"]
LEAGUES_PAGES = [e for e in ENDPOINTS if e.name.startswith("leagues:") and e.params]


def _p_places(endpoint: Endpoint) -> list[str]:
    """P's objects in an address of the leagues: the club, or its seasons."""
    if {"league", "league_slug"} & set(endpoint.params):
        return ["P winter", "P spring"]
    if {"slug", "club"} & set(endpoint.params):
        return ["P"]
    return ["P winter"] if endpoint.params == ("pk",) else []  # an entry's; a calendar's


ALLOWED: dict[tuple[str, str], frozenset[str]] = {
    # A private club's tables, games, replays and chat: those who may see them.
    **{(f"games:{name}", t): P_SIGHT for name in TABLE_PAGES for t in P_TABLES},
    **{(f"games:{name}", g): P_SIGHT for name in GAME_PAGES for g in P_GAMES},
    ("games:chat_mute", "missing"): NOBODY,
    ("games:chat_unmute", "missing"): NOBODY,
    # Its report pages: a game's players; a message to whom could read it at the table.
    ("moderation:file", "P game in play"): frozenset({"player", "accused"}),
    ("moderation:file", "P finished game"): frozenset({"owner", "substitute"}),
    ("moderation:file_message", "P players' line"): P_SIGHT,
    ("moderation:file_message", "P spectators' line"): P_SIGHT - {"player", "accused"},
    ("moderation:file_message", "P hidden line"): NOBODY,
    # Its pages under /clubs/: its members (site moderators are no exception).
    **{(e.name, place): P_MEMBERS for e in LEAGUES_PAGES for place in _p_places(e)},
    # The cases: the hub to its moderators and its parties (the party view); the rest
    # to its moderators who are no party.
    **{("moderation:case", c): READERS[c] | PARTIES[c] for c in PARTIES},
    **{("moderation:rule", c): READERS[c] for c in PARTIES},
    **{("moderation:appeal_new", c): PARTIES[c] for c in PARTIES},
    # Whoever decides: case 1's claimer and the second moderator its proposal waits for
    # (the owner and the substitute have conflicts); case 2's open appeal, whoever may
    # answer it.
    ("moderation:evidence", "case 1"): frozenset({"moderator", "site_moderator"}),
    ("moderation:evidence", "case 2"): READERS["case 2"],
    ("moderation:evidence", "case 3"): NOBODY,  # unclaimed
    ("moderation:claim", "case 1"): frozenset({"moderator"}),  # renews her claim
    ("moderation:claim", "case 2"): NOBODY,
    # The substitute shares the division of the parties: a conflict.
    ("moderation:claim", "case 3"): frozenset({"moderator", "site_moderator"}),
    ("moderation:release", "case 1"): frozenset({"moderator"}),
    ("moderation:release", "case 2"): frozenset({"moderator"}),
    ("moderation:release", "case 3"): NOBODY,
    ("moderation:hide_message", "case 1, P hidden line"): frozenset({"moderator"}),
    ("moderation:hide_message", "case 1, P players' line"): frozenset({"moderator"}),
    ("moderation:ruling", "proposal 1"): READERS["case 1"],
    ("moderation:ruling", "dismissal 2"): READERS["case 2"],
    # Owner and substitute share the division of case 1's parties; the moderator proposed.
    ("moderation:ruling_confirm", "proposal 1"): frozenset({"site_moderator"}),
    ("moderation:ruling_decline", "proposal 1"): frozenset({"site_moderator"}),
    ("moderation:ruling_confirm", "dismissal 2"): NOBODY,
    ("moderation:ruling_decline", "dismissal 2"): NOBODY,
    ("moderation:appeal", "appeal 2"): READERS["case 2"] | {"substitute"},
    ("moderation:appeal_close", "appeal 2"): READERS["case 2"],
    # A case's private notes: its moderators who are no party.
    **{("moderation:add_note", c): READERS[c] for c in PARTIES},
    # Members' records and the archive: whoever moderates anything (the rival owns R);
    # what each reads of P's cases is their own (SECRETS).
    **{("moderation:member", m): P_MODERATORS | {"rival"} for m in RECORDS},
    ("moderation:archive", "-"): P_MODERATORS | {"rival"},
}

# Who may change rows through these addresses (a suspension holds at every door).
WRITERS: dict[tuple[str, str], frozenset[str]] = {
    **{("games:chat_say", t): P_SIGHT - {"club_suspended"} for t in P_TABLES},
    ("games:play_now", "-"): SIGNED_IN - {"suspended"},
    ("games:new_table", "-"): SIGNED_IN - {"suspended"},
    ("leagues:register", "A spring"): NOBODY,  # A's only member among the viewers is suspended
    ("leagues:register", "P spring"): P_MEMBERS - {"club_suspended"},
    # An organiser never scores a game they played (the owner played table 2).
    ("leagues:adjust_score", "P winter"): NOBODY,
    ("moderation:next", "-"): frozenset({"moderator", "site_moderator"}),
    **{("moderation:claim", c): ALLOWED[("moderation:claim", c)] for c in PARTIES},
    **{("moderation:add_note", c): READERS[c] for c in PARTIES},
    ("moderation:file", "P game in play"): frozenset({"player", "accused"}),
    ("moderation:file", "P finished game"): frozenset({"owner", "substitute"}),
    ("moderation:file", "A finished game"): NOBODY,
    # Only who could read a message reports it (never its author, nor a suspended member).
    ("moderation:file_message", "A line"): SIGNED_IN - {"suspended"},
    ("moderation:file_message", "P players' line"): P_SIGHT - {"player", "club_suspended"},
    ("moderation:file_message", "P spectators' line"): (
        P_SIGHT - {"player", "accused", "filer", "club_suspended"}
    ),
    ("moderation:file_message", "P hidden line"): NOBODY,
}

# Texts only these viewers may read, anywhere.
SECRETS: dict[str, frozenset[str]] = {
    s.REPORT_1: READERS["case 1"] | {"filer"},
    s.PROPOSAL_1: READERS["case 1"],
    s.NOTE_1: READERS["case 1"],
    s.REPORT_2: READERS["case 2"] | {"substitute"},
    s.APPEAL_2: READERS["case 2"] | {"substitute"},
    s.REPORT_3: READERS["case 3"] | {"player"},
    s.PLAYERS_LINE: P_SIGHT,
    s.SPECTATORS_LINE: P_SIGHT - {"player", "accused"},
    s.HIDDEN_LINE: READERS["case 1"] | {"accused", "filer"},
    s.P_NAME: P_MEMBERS | {"site_moderator"},
    s.P_LEAGUE: P_MEMBERS | {"site_moderator"},
}


def forms(scene: s.SeamsScene, name: str, label: str) -> dict[str, str]:
    """A valid form for the POST of ``name`` on ``label``, where one is known: so that a
    request that should be refused reaches the service, not only the form's check."""
    u, games = scene.users, scene.games
    if name == "leagues:adjust_score":
        game = games["P finished game" if label.startswith("P") else "A finished game"]
        return {"game": str(game.pk), "seat": "1", "score": "-700", "reason": "A typo."}
    return {
        "games:chat_say": {"text": "Hello from the fuzzer."},
        "games:chat_mute": {"member": str(u["player"].pk)},
        "games:chat_unmute": {"member": str(u["player"].pk)},
        "moderation:file": {"category": "other", "text": "Something odd happened."},
        "moderation:file_message": {"category": "abuse", "text": "That was rude."},
        "moderation:ruling_decline": {"note": "Not enough to go on."},
        "moderation:appeal_new": {"text": "Please look again."},
        "moderation:appeal": {"text": "Please look again."},
        "moderation:add_note": {"text": "A note from the fuzzer."},
        "moderation:rule": {"kind": "dismiss", "note": "Nothing wrong.", "step": "preview"},
        "leagues:request_to_join": {"message": "May I join?"},
    }.get(name, {})


# --- the addresses, filled with the scene's objects ------------------------------------

MISSING = 999_999_999


@dataclass(frozen=True)
class Address:
    endpoint: Endpoint
    kwargs: tuple[tuple[str, object], ...]
    label: str  # the objects it names, as the tables above name them

    @property
    def name(self) -> str:
        return self.endpoint.name

    def path(self) -> str:
        return reverse(self.name, kwargs=dict(self.kwargs))


def addresses(scene: s.SeamsScene) -> list[Address]:
    return [
        Address(endpoint, tuple(sorted(kwargs.items())), label)
        for endpoint in ENDPOINTS
        for kwargs, label in _fillings(scene, endpoint)
    ]


def _fillings(scene: s.SeamsScene, endpoint: Endpoint) -> Iterator[tuple[dict[str, Any], str]]:
    params, name = set(endpoint.params), endpoint.name
    if not params:
        yield {}, "-"
    elif name.startswith("games:"):
        yield from _games_fillings(scene, endpoint)
    elif name.startswith("moderation:"):
        yield from _moderation_fillings(scene, endpoint)
    elif name.startswith("leagues:"):
        yield from _leagues_fillings(scene, endpoint)
    else:  # a password reset link
        yield {"uidb64": "MQ", "token": "set-password"}, "-"


def _games_fillings(
    scene: s.SeamsScene, endpoint: Endpoint
) -> Iterator[tuple[dict[str, Any], str]]:
    if "vacation/" in endpoint.route:
        yield {"pk": MISSING}, "missing"
    elif "tables/" in endpoint.route:
        for label, table in scene.tables.items():
            yield {"pk": table.pk}, label
        if "chat/" in endpoint.route:
            yield {"pk": MISSING}, "missing"
    else:
        for label, game in scene.games.items():
            yield {"pk": game.pk}, label


def _moderation_fillings(
    scene: s.SeamsScene, endpoint: Endpoint
) -> Iterator[tuple[dict[str, Any], str]]:
    params = set(endpoint.params)
    if params == {"case_id", "message_id"}:
        case = scene.cases["case 1"]
        for label in ("P hidden line", "P players' line"):
            message = scene.messages[label]
            yield {"case_id": case.pk, "message_id": message.pk}, f"case 1, {label}"
        return
    if params == {"username"}:
        for label in RECORDS:
            yield {"username": scene.users[label].username}, label
        return
    (param,) = params
    by_param: dict[str, Mapping[str, Any]] = {
        "case_id": scene.cases,
        "game_id": scene.games,
        "message_id": scene.messages,
        "ruling_id": scene.rulings,
        "pk": scene.cases if endpoint.route.startswith("moderation/cases/") else scene.appeals,
    }
    for label, found in by_param[param].items():
        yield {param: found.pk}, label


def _leagues_fillings(
    scene: s.SeamsScene, endpoint: Endpoint
) -> Iterator[tuple[dict[str, Any], str]]:
    params = set(endpoint.params)
    if params == {"token"}:
        yield {"token": "no-such-token"}, "-"
    elif params == {"pk"}:  # an entry's withdrawal
        for label in ("A winter", "P winter"):
            entry = scene.seasons[label].entry
            assert entry is not None
            yield {"pk": entry.pk}, label
    elif params & {"league", "league_slug"}:
        for label, place in scene.seasons.items():
            season_kwargs = _season_kwargs(place, params)
            if season_kwargs is not None:
                yield season_kwargs, label
    else:
        for label, club in scene.clubs.items():
            yield _club_kwargs(club, endpoint), label


def _club_kwargs(club: Club, endpoint: Endpoint) -> dict[str, Any]:
    params = set(endpoint.params)
    kwargs: dict[str, Any] = {"slug" if "slug" in params else "club": club.slug}
    if "pk" in params:  # a member's (or a missing invitation or request)
        member = club.memberships.order_by("-pk").first()
        on_member = "/members/" in endpoint.route and member is not None
        kwargs["pk"] = member.user_id if on_member and member else MISSING
    if "code" in params:
        kwargs["code"] = "no-such-code"
    return kwargs


def _season_kwargs(place: s.SeasonPlace, params: set[str]) -> dict[str, Any] | None:
    season = place.season
    league = season.league
    values: dict[str, Any] = {
        "slug": league.club.slug,
        "club": league.club.slug,
        "league": league.slug,
        "league_slug": league.slug,
        "number": season.number,
        "level": 1,
        "matchday": place.matchday.pk if place.matchday else None,
        # The fixture the club's owner played (P), or whose first game is over (A).
        "fixture": place.fixtures[-1 if league.club.is_private else 0].pk
        if place.fixtures
        else None,
        "entry": place.entry.pk if place.entry else None,
        "pk": MISSING,  # an organiser's score change awaiting a second: none here
    }
    kwargs = {param: values[param] for param in params}
    return None if None in kwargs.values() else kwargs


# --- the rows of the apps' tables ------------------------------------------------------

APPS = ("games", "leagues", "moderation", "accounts")


def _tables() -> list[str]:
    return sorted(
        {
            model._meta.db_table
            for label in APPS
            for model in apps.get_app_config(label).get_models(include_auto_created=True)
        }
    )


def rows() -> dict[str, tuple[int, str]]:
    """Every table of the apps: its number of rows and a digest of them all."""
    parts = [
        f"SELECT '{table}', count(*), md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), ''))"
        f" FROM {connection.ops.quote_name(table)} t"
        for table in _tables()
    ]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return {table: (count, digest) for table, count, digest in cursor.fetchall()}


def writes() -> int:
    """How many rows of the apps' tables this transaction inserted, updated or deleted so
    far (PostgreSQL's own counters): a cheap test of whether a request wrote at all."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)"
            " FROM pg_stat_xact_user_tables WHERE relname = ANY(%s)",
            [_tables()],
        )
        (count,) = cursor.fetchone()
        return int(count)


def changed(before: dict[str, tuple[int, str]], after: dict[str, tuple[int, str]]) -> str:
    return ", ".join(
        f"{table} ({before[table][0]} -> {after[table][0]} rows)"
        for table in sorted(before)
        if before[table] != after[table]
    )


# --- requests and what must hold -------------------------------------------------------


@dataclass(repr=False)
class Viewers:
    """A signed-in client per viewer, its session cookie put back before each request (a
    request that logged it out was rolled back with its session row)."""

    clients: dict[str, Client]
    cookies: dict[str, str]

    @classmethod
    def of(cls, scene: s.SeamsScene) -> Viewers:
        clients = {v: client_as(scene.users[v]) for v in VIEWERS if v != "visitor"}
        cookie = django_settings.SESSION_COOKIE_NAME
        return cls(clients, {v: c.cookies[cookie].value for v, c in clients.items()})

    def __repr__(self) -> str:
        return f"Viewers({', '.join(self.clients)})"

    def client(self, viewer: str) -> Client:
        # A server error is answered as a 500, to be reported with the rest.
        if viewer == "visitor":
            return Client(raise_request_exception=False)
        client = self.clients[viewer]
        client.raise_request_exception = False
        client.cookies.clear()
        client.cookies[django_settings.SESSION_COOKIE_NAME] = self.cookies[viewer]
        return client


@dataclass(frozen=True)
class Request:
    address: Address
    viewer: str
    method: str
    data: tuple[tuple[str, str], ...] = ()
    query: str = ""
    htmx: bool = False


def check(viewers: Viewers, request: Request) -> list[str]:
    """Send ``request`` in a transaction rolled back afterwards; what went wrong."""
    address, viewer = request.address, request.viewer
    key = (address.name, address.label)
    client, path = viewers.client(viewer), address.path() + request.query
    with override_settings(RATE_LIMITS=unlimited()), transaction.atomic():
        written = writes()
        # Only when the request wrote are the rows compared: as they are after it, then
        # as they were (its savepoint rolled back).
        with transaction.atomic():
            response = send(client, request.method, path, dict(request.data), request.htmx)
            status = response.status_code
            to_login = status in (301, 302) and response["Location"].startswith(reverse("login"))
            through = status < 400 and not to_login
            may_write = viewer in WRITERS.get(key, SIGNED_IN | {"visitor"})
            compared = writes() != written and not (through and may_write)
            after = rows() if compared else {}
            transaction.set_rollback(True)
        before = rows() if compared else {}
        transaction.set_rollback(True)
    said = f"{viewer} {request.method} {path} ({address.name}, {address.label}) -> {status}"
    failures = []
    if status >= 500:
        failures.append(f"{said}: a server error")
    if through and key in ALLOWED and viewer not in ALLOWED[key]:
        failures.append(f"{said}: got through, not entitled")
    if after != before and not through:
        failures.append(f"{said}: refused, yet changed {changed(before, after)}")
    elif after != before and not may_write:
        failures.append(f"{said}: not entitled, yet changed {changed(before, after)}")
    failures.extend(_leaks(response, viewer, said))
    return failures


def _leaks(response: HttpResponse, viewer: str, said: str) -> Iterator[str]:
    if getattr(response, "streaming", False):
        return
    body = response.content.decode(errors="replace")
    for marker, readers in SECRETS.items():
        if viewer not in readers and marker in body:
            yield f"{said}: shows {marker!r}"


def sweep(scene: s.SeamsScene, area: str) -> list[str]:
    viewers = Viewers.of(scene)
    failures = []
    for address in addresses(scene):
        if _area(address.name) != area:
            continue
        data = tuple(forms(scene, address.name, address.label).items())
        for viewer in viewers_of(address):
            failures += check(viewers, Request(address, viewer, "GET"))
            failures += check(viewers, Request(address, viewer, "POST", data, htmx=True))
    return failures


def viewers_of(address: Address) -> list[str]:
    """Every viewer for the private club's objects and the pages of no object; some of
    each kind for the public club's and the rival's, which the other fuzzer covers too
    (and the review found holding): it keeps the sweep to a few minutes."""
    if address.label == "-" or not address.label.startswith(("A", "R", "missing")):
        return VIEWERS
    return PUBLIC_OBJECTS_VIEWERS


def _area(name: str) -> str:
    return name.split(":")[0] if ":" in name else "accounts"


@pytest.fixture
def scene() -> s.SeamsScene:
    return s.build()


@pytest.fixture
def signed_in(scene: s.SeamsScene) -> Viewers:
    return Viewers.of(scene)


def report(failures: list[str]) -> str:
    return f"{len(failures)} failures:\n" + "\n".join(failures)


# --- the tests -------------------------------------------------------------------------


def test_the_addresses_cover_every_page_of_the_four_apps(scene: s.SeamsScene) -> None:
    names = {address.name for address in addresses(scene)}
    assert names == {endpoint.name for endpoint in ENDPOINTS}
    labels = {address.label for address in addresses(scene)}
    assert {*P_TABLES, *P_GAMES, "P", "P winter", "P spring", *PARTIES} <= labels
    # The tables name only addresses that exist (a spring season has no matchday yet).
    keys = {(name, label) for name, label in {*ALLOWED, *WRITERS} if label != "P spring"}
    assert keys - {(a.name, a.label) for a in addresses(scene)} == set()


def test_the_scene_has_each_kind_of_viewer(scene: s.SeamsScene) -> None:
    u = scene.users
    place = scene.seasons["P winter"]
    assert scene.clubs["P"].is_private and not scene.clubs["A"].is_private
    assert place.entry is not None and place.entry.substitute == u["substitute"]
    assert scene.cases["case 1"].claimed_by == u["moderator"]
    assert scene.cases["case 2"].accused == u["owner"]
    assert scene.rulings["proposal 1"].status == "proposed"
    assert scene.messages["P hidden line"].hidden_at is not None
    assert scene.games["A finished game"].is_over and scene.games["P finished game"].is_over
    assert u["suspended"].suspensions.get().club is None
    assert u["club_suspended"].suspensions.get().club == scene.clubs["P"]


@pytest.mark.parametrize("area", ["games", "leagues", "moderation", "accounts"])
def test_every_address_as_every_viewer(scene: s.SeamsScene, area: str) -> None:
    failures = sweep(scene, area)
    assert not failures, report(failures)


def test_known_hostile_requests_at_the_seams(scene: s.SeamsScene) -> None:
    """Requests the reviews found answered wrongly: a far date in the log, a refused
    evidence request, a mute at a missing table."""
    viewers = Viewers.of(scene)
    by_key = {(a.name, a.label): a for a in addresses(scene)}
    log, evidence = by_key[("moderation:log", "-")], by_key[("moderation:evidence", "case 1")]
    requests = [
        *(Request(log, v, "GET", query="?until=9999-12-31") for v in ("moderator", "owner")),
        *(Request(log, "owner", "GET", query=f"?case={c.pk}") for c in scene.cases.values()),
        *(
            Request(evidence, "moderator", "GET", query=query)
            for query in ("?part=zzz", "?turn=-1", "?turn=99999999999999999999")
        ),
    ]
    failures = [failure for request in requests for failure in check(viewers, request)]
    assert not failures, report(failures)


@st.composite
def hostile_requests(draw: st.DrawFn, every: list[Address]) -> Request:
    address = draw(st.sampled_from(every))
    data = draw(st.dictionaries(st.sampled_from(FIELDS), values(), max_size=3))
    return Request(
        address,
        draw(st.sampled_from(VIEWERS)),
        draw(st.sampled_from(["GET", "POST", "POST", *METHODS])),
        tuple(sorted(data.items())),
        htmx=draw(st.booleans()),
    )


FIELDS = sorted(
    {"text", "member", "category", "note", "kind", "step", "game", "seat", "score", "reason"}
    | {"message", "turn_number", "accused", "target", "until", "case", "part", "turn", "x"}
)


@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_requests_at_the_seams(
    scene: s.SeamsScene, signed_in: Viewers, data: st.DataObject
) -> None:
    """Any address, viewer and method, with hostile values in the fields the seams read."""
    failures = check(signed_in, data.draw(hostile_requests(addresses(scene))))
    assert not failures, report(failures)
