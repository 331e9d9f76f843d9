"""The inputs the review found answering 500: non-ASCII digits and numbers of thousands
of digits where an id or index is expected, and deeply nested JSON. Each now answers 4xx
and changes nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, Move, Seat, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan
from notifications.models import Notification
from tests.conftest import client_as
from tests.games.views_support import HTMX, mover, url

pytestmark = pytest.mark.django_db

NOT_NUMBERS = ["²", "٣", "1_0", "-1", " 1", "1e3", "9" * 5000, str(2**63)]


def unchanged(game: Game) -> tuple[int, object, int]:
    game.refresh_from_db()
    return game.version, game.state, Move.objects.filter(game=game).count()


@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_a_seat_that_is_not_a_number_is_a_bad_request(
    alice: User, bob: User, carol: User, number: str
) -> None:
    table = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )

    response = client_as(carol).post(
        reverse("games:join", kwargs={"pk": table.pk}), {"seat": number}
    )

    assert response.status_code == 400
    assert not Seat.objects.filter(table=table, user=carol).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_a_notice_id_that_is_not_a_number_is_a_bad_request(position: Game, number: str) -> None:
    player = mover(position)
    unread = Notification.objects.filter(user=player, read_at__isnull=True).count()

    response = client_as(player).post(reverse("notifications:read"), {"id": number})

    assert response.status_code == 400
    assert Notification.objects.filter(user=player, read_at__isnull=True).count() == unread


@pytest.mark.parametrize("number", NOT_NUMBERS)
@pytest.mark.parametrize(
    ("name", "field", "data"),
    [
        ("move", "source", {"tile": "K1", "target": "new"}),
        ("move", "position", {"tile": "K1", "source": "rack", "target": "0"}),
        ("move", "target", {"tile": "K1", "source": "rack"}),
        ("river", "index", {"version": 0}),
        ("draw", "version", {}),
        ("play", "version", {}),
        ("discard", "version", {"tile": "K1"}),
    ],
)
def test_a_game_action_with_a_number_that_is_not_one_is_refused(
    position: Game, number: str, name: str, field: str, data: dict[str, str]
) -> None:
    before = unchanged(position)

    response = client_as(mover(position)).post(url(name, position), {**data, field: number}, **HTMX)

    assert 400 <= response.status_code < 500
    assert unchanged(position) == before


@pytest.mark.parametrize("depth", [5, 100, 5000, 100_000])
def test_deeply_nested_json_for_a_hint_is_refused(position: Game, depth: int) -> None:
    before = unchanged(position)
    nested = "[" * depth + "]" * depth

    response = client_as(mover(position)).post(url("use_hint", position), {"table": nested}, **HTMX)

    assert response.status_code == 400
    assert unchanged(position) == before


def test_an_oversized_json_hint_is_refused(position: Game) -> None:
    huge = '[["' + "R7" * 50_000 + '"]]'

    response = client_as(mover(position)).post(url("use_hint", position), {"table": huge}, **HTMX)

    assert response.status_code == 400


@pytest.mark.parametrize("path", ["/games/²/", "/games/" + "9" * 5000 + "/", f"/games/{2**63}/"])
def test_an_id_in_the_address_that_is_no_id_is_not_found(alice_client: Client, path: str) -> None:
    assert alice_client.get(path).status_code == 404


@pytest.mark.parametrize(
    ("name", "field"), [("games:replay", "turn"), ("games:your_move_next", "from")]
)
def test_a_query_number_that_is_not_one_is_a_bad_request(
    position: Game, name: str, field: str
) -> None:
    kwargs = {"pk": position.pk} if name == "games:replay" else {}
    client = client_as(mover(position))

    for number in NOT_NUMBERS:
        response = client.get(reverse(name, kwargs=kwargs), {field: number})
        assert response.status_code == 400, number
        assert "Nothing was done." in response.text
