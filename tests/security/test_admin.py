"""The admin shows tables, seats, games and moves read-only once they are in play: nothing
of them is changed or deleted, from their pages or by the lists' actions, and the secrets
(seeds, states) are not shown."""

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, Result, Seat, Table
from games.services.abandonment import resign
from games.services.results import SeatCorrection, supersede
from tests.conftest import client_as
from tests.factories import UserFactory
from tests.games.conftest import current_game, start_table
from tests.games.test_views_lobby import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> User:
    return UserFactory(username="root", is_staff=True, is_superuser=True)


def change_url(table: Table) -> str:
    return reverse("admin:games_table_change", args=[table.pk])


def posted_form(client: Client, table: Table) -> dict[str, Any]:
    """What the change form posts as the admin shows it (editable fields only)."""
    context = client.get(change_url(table)).context
    data: dict[str, Any] = {}
    form = context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        if value is not None:
            data[name] = value
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        for name, field in management.fields.items():
            value = management[name].value()
            data[management.add_prefix(name)] = field.initial if value is None else value
        for seat_form in formset.forms:
            for name in seat_form.fields:
                value = seat_form[name].value()
                if value is not None:
                    data[seat_form.add_prefix(name)] = value
    return data


def seat_fields(table: Table) -> list[tuple[int, str, int | None]]:
    return list(table.seats.order_by("number").values_list("number", "kind", "user_id"))


def test_staff_cannot_sit_down_in_a_table_that_plays(game: Game, staff: User) -> None:
    table = game.table
    client = client_as(staff)
    before = seat_fields(table)
    data = posted_form(client, table)
    # As a forged form would: the second seat given to the staff member.
    seat = table.seats.get(number=1)
    data.update(
        {
            "seats-TOTAL_FORMS": 2,
            "seats-INITIAL_FORMS": 2,
            "seats-0-id": table.seats.get(number=0).pk,
            "seats-0-table": table.pk,
            "seats-1-id": seat.pk,
            "seats-1-table": table.pk,
            "seats-1-number": 1,
            "seats-1-kind": "player",
            "seats-1-user": staff.pk,
            "turn_seconds": 3600,
            "games_in_round": 9,
        }
    )

    response = client.post(change_url(table), data)

    assert response.status_code == 403
    assert seat_fields(table) == before
    table.refresh_from_db()
    assert (table.turn_seconds, table.games_in_round) == (game.table.turn_seconds, 2)
    assert not Seat.objects.filter(user=staff).exists()


def test_the_change_form_of_a_playing_table_shows_seats_read_only(game: Game, staff: User) -> None:
    html = client_as(staff).get(change_url(game.table)).text

    assert 'name="seats-0-user"' not in html
    assert 'name="turn_seconds"' not in html
    assert "Alice" in html
    assert game.table.round_seed
    assert game.table.round_seed not in html
    assert "Save" not in html
    assert reverse("admin:games_table_delete", args=[game.table.pk]) not in html


def test_staff_cannot_delete_a_table_that_plays(game: Game, staff: User) -> None:
    client = client_as(staff)
    url = reverse("admin:games_table_delete", args=[game.table.pk])

    assert client.get(url).status_code == 403
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert Table.objects.filter(pk=game.table.pk).exists()
    assert Game.objects.filter(pk=game.pk).exists()


def open_table(creator: User) -> Table:
    client_as(creator).post(reverse("games:new_table"), form_data())
    return Table.objects.get(creator=creator, status=Table.Status.OPEN)


def delete_selected(client: Client, tables: list[Table]) -> Any:
    return client.post(
        reverse("admin:games_table_changelist"),
        {"action": "delete_selected", "_selected_action": [t.pk for t in tables], "post": "yes"},
    )


def test_the_delete_action_refuses_a_selection_with_a_table_that_plays(
    game: Game, carol: User, staff: User
) -> None:
    waiting = open_table(carol)

    response = delete_selected(client_as(staff), [waiting, game.table])

    assert response.status_code == 403
    assert Table.objects.filter(pk__in=[waiting.pk, game.table.pk]).count() == 2
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_delete_action_still_removes_tables_that_wait(carol: User, staff: User) -> None:
    waiting = open_table(carol)

    response = delete_selected(client_as(staff), [waiting])

    assert response.status_code == 302
    assert not Table.objects.filter(pk=waiting.pk).exists()


def test_a_game_and_its_moves_are_shown_read_only(game: Game, staff: User) -> None:
    assert game.current_seat is not None
    mover = game.table.seats.get(number=game.current_seat).user
    assert mover is not None
    services.draw(game.pk, mover, game.version)
    client = client_as(staff)
    url = reverse("admin:games_game_change", args=[game.pk])

    html = client.get(url).text

    assert str(game) in html
    assert "draw" in html
    assert 'name="moves-0-action"' not in html
    assert 'name="status"' not in html
    assert game.seed not in html
    assert "Save" not in html
    assert client.post(url, {"status": "finished"}).status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_a_game_can_be_neither_added_nor_deleted(game: Game, staff: User) -> None:
    client = client_as(staff)
    changelist = client.get(reverse("admin:games_game_changelist"))

    assert client.get(reverse("admin:games_game_add")).status_code == 403
    assert client.post(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert "delete_selected" not in changelist.text
    response = client.post(
        reverse("admin:games_game_changelist"),
        {"action": "delete_selected", "_selected_action": [game.pk], "post": "yes"},
    )
    assert response.status_code in (200, 302)
    assert Game.objects.filter(pk=game.pk).exists()


def test_staff_may_still_arrange_the_seats_of_a_table_that_waits(
    alice: User, bob: User, staff: User
) -> None:
    client = client_as(alice)
    client.post(
        reverse("games:new_table"),
        {
            **form_data(),
        },
    )
    table = Table.objects.get(creator=alice)
    assert table.status == Table.Status.OPEN
    admin = client_as(staff)
    data = posted_form(admin, table)
    data.update({"seats-1-kind": "reserved", "seats-1-user": bob.pk})

    response = admin.post(change_url(table), data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert table.seats.get(number=1).user == bob


def test_a_games_result_rows_show_read_only_in_its_admin_page(
    alice: User, bob: User, staff: User
) -> None:
    table = start_table(alice, bob, games_in_round=1)
    game = current_game(table)
    resign(game.pk, alice)
    supersede(game.pk, {0: SeatCorrection(score=-3)}, Result.Source.RULING, "Recount", staff)

    response = client_as(staff).get(reverse("admin:games_game_change", args=[game.pk]))

    assert response.status_code == 200
    formset = next(
        inline.formset
        for inline in response.context["inline_admin_formsets"]
        if inline.formset.model is Result
    )
    assert formset.queryset.count() == 3  # the two played rows and the ruling's
    # Only the hidden keys are form fields: every value is shown, none can be edited.
    assert all(set(form.fields) == {"id", "game"} for form in formset.forms)
    assert "Recount" in response.text
