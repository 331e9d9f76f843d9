"""The lobby, the new table form, a table's page and taking a seat."""

import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games import services
from games.models import Game, Result, Seat, Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan, lobby
from notifications.models import Notification
from tests.conftest import client_as
from tests.games.conftest import current_game, start_table
from tests.games.players import play_until_over
from tests.games.views_support import HTMX

pytestmark = pytest.mark.django_db

LOBBY = reverse("games:lobby")
NEW = reverse("games:new_table")


def table_url(name: str, table: Table) -> str:
    return reverse(f"games:{name}", kwargs={"pk": table.pk})


def form_data(**changes: object) -> dict[str, object]:
    """What the new table form sends by default: two players, standard rules."""
    data: dict[str, object] = {
        "seats": 2,
        "preset": "standard",
        "clock": "live",
        "turn_seconds": 60,
        "time_bank_seconds": 0,
        "timeouts_to_forfeit": 3,
        "on_forfeit": "drop_out",
        "games_in_round": "",
        "seat_2": "open",
        "seat_3": "open",
        "seat_4": "open",
        "initial_meld_min": 30,
        "meld_values": "face",
        "score_values": "face",
        "joker_penalty": 30,
        "joker_set_rule": "free",
        "joker_replacement_source": "rack_or_table",
        "joker_group_retrieval": "either_missing",
        "score_mode": "zero_sum",
        "pool_empty_winner": "lowest_value",
        "pool_empty_scoring": "difference",
        "pool_empty_end": "play_until_blocked",
        "failed_turn_penalty_draw": 3,
        "overtime_penalty_draw": 1,
        "draw_mode": "single",
        "rack_size": 14,
        "direction": "clockwise",
    }
    data.update(changes)
    return data


# --- the lobby -------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "mine"), [(0, "Your turn"), (1, "Bob to play")])
def test_the_lobby_lists_my_games_with_my_turn_first_and_tables_to_join(
    alice: User, bob: User, carol: User, first: int, mine: str
) -> None:
    game = current_game(start_table(alice, bob, first=first))
    open_table = services.create_table(
        carol, TableSettings(), [SeatPlan.taken_by(carol), SeatPlan.open()]
    )

    html = client_as(alice).get(LOBBY).text

    assert reverse("games:game", kwargs={"pk": game.pk}) in html
    assert table_url("join", open_table) in html
    assert mine in html


def test_the_lobby_does_not_offer_a_seat_kept_for_someone_else(
    alice: User, bob: User, carol: User
) -> None:
    kept = services.create_table(
        carol, TableSettings(), [SeatPlan.taken_by(carol), SeatPlan.reserved_for(bob)]
    )

    assert table_url("join", kept) not in client_as(alice).get(LOBBY).text
    assert table_url("join", kept) in client_as(bob).get(LOBBY).text


def test_a_spectator_finds_games_to_watch(alice: User, bob: User, carol: User) -> None:
    game = current_game(start_table(alice, bob))

    html = client_as(carol).get(LOBBY).text

    assert "Watch a game" in html
    assert reverse("games:game", kwargs={"pk": game.pk}) in html


def test_the_home_page_offers_the_lobby_and_loads_my_games(alice_client: Client) -> None:
    html = alice_client.get(reverse("home")).text

    assert NEW in html and LOBBY in html
    assert f'hx-get="{reverse("games:mine")}"' in html


def test_my_games_fragment_lists_only_my_games(alice: User, bob: User, carol: User) -> None:
    game = current_game(start_table(alice, bob))

    mine = client_as(alice).get(reverse("games:mine"), **HTMX).text
    theirs = client_as(carol).get(reverse("games:mine"), **HTMX).text

    assert reverse("games:game", kwargs={"pk": game.pk}) in mine
    assert reverse("games:game", kwargs={"pk": game.pk}) not in theirs
    assert "No game in play" in theirs


def test_my_games_opened_as_a_page_leads_home(alice_client: Client) -> None:
    response = alice_client.get(reverse("games:mine"))

    assert response.status_code == 302
    assert response["Location"] == reverse("home")


@pytest.mark.parametrize("path", [LOBBY, NEW, reverse("games:mine")])
def test_a_visitor_is_sent_to_log_in(client: Client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_lobby_is_only_read(alice_client: Client, method: str) -> None:
    assert getattr(alice_client, method)(LOBBY).status_code == 405


# --- a new table -----------------------------------------------------------------------


def test_the_form_shows_every_option_with_the_standard_values(alice_client: Client) -> None:
    html = alice_client.get(NEW).text

    for option in ("initial_meld_min", "allow_wrap", "joker_penalty", "draw_mode", "direction"):
        assert f'name="{option}"' in html
    assert 'id="preset-values"' in html
    assert '"keadle_house": {' in html


def test_a_table_with_an_invited_member_waits_for_her(alice: User, bob: User) -> None:
    response = client_as(alice).post(
        NEW, form_data(seats=3, seat_2="invite", seat_2_user="Bob", seat_3="open")
    )

    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == table_url("table", table)
    seats = [(s.kind, s.user) for s in table.seats.order_by("number")]
    assert seats == [("player", alice), ("reserved", bob), ("open", None)]
    assert table.games_in_round == 3


def test_a_table_full_of_bots_starts_at_once(alice: User) -> None:
    response = client_as(alice).post(NEW, form_data(seat_2="bot_strong", games_in_round=1))

    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING
    assert response["Location"] == table_url("current", table)
    assert table.seats.get(number=1).bot_level == "strong"


def test_house_rules_are_kept_as_differences_from_the_preset(alice: User) -> None:
    client_as(alice).post(
        NEW,
        form_data(
            preset="keadle_house",
            meld_values="house",
            score_values="house",
            allow_wrap="on",
            score_mode="penalty_only",
            joker_penalty=25,
            turn_seconds=120,
        ),
    )

    table = Table.objects.get()
    assert (table.preset, table.options) == ("keadle_house", {"joker_penalty": 25})
    assert table.engine_ruleset().turn_time_limit_s == table.turn_seconds == 120


def test_a_correspondence_table_gets_its_clock_bank_and_forfeit_rule(alice: User) -> None:
    client_as(alice).post(
        NEW,
        form_data(
            clock="correspondence",
            turn_seconds=2 * 86400,
            time_bank_seconds=86400,
            timeouts_to_forfeit=2,
            on_forfeit="bot",
        ),
    )

    table = Table.objects.get()
    assert (table.clock, table.turn_seconds, table.time_bank_seconds) == (
        "correspondence",
        2 * 86400,
        86400,
    )
    assert (table.timeouts_to_forfeit, table.on_forfeit) == (2, "bot")
    html = client_as(alice).get(table_url("table", table)).text
    assert "2 days a turn" in html and "correspondence" in html.lower()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seat_2": "invite", "seat_2_user": ""}, "Whom do you invite?"),
        ({"seat_2": "invite", "seat_2_user": "nobody"}, "There is no member called"),
        ({"seat_2": "invite", "seat_2_user": "alice"}, "You already sit at seat 1."),
        (
            {
                "seats": 3,
                "seat_2": "invite",
                "seat_2_user": "bob",
                "seat_3": "invite",
                "seat_3_user": "bob",
            },
            "Bob is already invited to another seat.",
        ),
        ({"seats": 5}, "Select a valid choice"),
        ({"initial_meld_min": -1}, "initial_meld_min must be a whole number from 0 to 150"),
        ({"games_in_round": 21}, "less than or equal to 20"),
        ({"turn_seconds": 5}, "Select a valid choice"),
        ({"clock": "live", "turn_seconds": 86400}, "Choose one of the live times."),
        (
            {"clock": "correspondence", "turn_seconds": 60},
            "Choose one of the correspondence times.",
        ),
        ({"timeouts_to_forfeit": 0}, "greater than or equal to 1"),
        ({"on_forfeit": "sulk"}, "Select a valid choice"),
    ],
)
def test_bad_settings_are_shown_by_their_field(
    alice: User, bob: User, changes: dict, message: str
) -> None:
    response = client_as(alice).post(NEW, form_data(**changes))

    assert response.status_code == 400
    assert message in response.text
    assert 'role="alert"' in response.text
    assert not Table.objects.exists()


def test_the_new_table_page_refuses_other_methods(alice_client: Client) -> None:
    assert alice_client.put(NEW).status_code == 405
    assert alice_client.delete(NEW).status_code == 405


# --- a table and its seats -------------------------------------------------------------


@pytest.fixture
def waiting(alice: User, bob: User) -> Table:
    return services.create_table(
        alice,
        TableSettings(),
        [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob), SeatPlan.open()],
    )


def test_the_table_page_shows_its_seats_and_offers_mine(waiting: Table, bob: User) -> None:
    html = client_as(bob).get(table_url("table", waiting)).text

    assert "Bob (invited)" in html and "Open seat" in html
    assert html.count("Sit here") == 2  # the seat kept for him and the open one


def test_the_seat_kept_for_a_member_is_not_offered_to_others(waiting: Table, carol: User) -> None:
    html = client_as(carol).get(table_url("table", waiting)).text

    assert html.count("Sit here") == 1


def test_the_creator_waits_and_the_seats_refresh_themselves(waiting: Table, alice: User) -> None:
    me = client_as(alice)

    page = me.get(table_url("table", waiting)).text
    poll = me.get(table_url("table", waiting), **HTMX)

    assert "Sit here" not in page
    assert 'hx-trigger="every 3s"' in page
    assert poll.status_code == 200
    assert poll.text.strip().startswith('<section class="card lobby-section" id="table-seats"')


def test_joining_the_last_seat_starts_the_round(waiting: Table, bob: User, carol: User) -> None:
    client_as(bob).post(table_url("join", waiting), {"seat": 1})

    response = client_as(carol).post(table_url("join", waiting))

    waiting.refresh_from_db()
    assert waiting.status == Table.Status.PLAYING
    assert response["Location"] == table_url("current", waiting)
    game = waiting.games.get()
    assert client_as(carol).get(response["Location"])["Location"] == reverse(
        "games:game", kwargs={"pk": game.pk}
    )


def test_once_the_round_starts_the_waiting_page_takes_members_to_their_game(
    waiting: Table, alice: User, bob: User, carol: User
) -> None:
    services.join_table(waiting.pk, bob)
    services.join_table(waiting.pk, carol)

    poll = client_as(alice).get(table_url("table", waiting), **HTMX)

    assert poll["HX-Redirect"] == table_url("current", waiting)


def test_a_taken_seat_cannot_be_taken_again(waiting: Table, carol: User) -> None:
    response = client_as(carol).post(table_url("join", waiting), {"seat": 0}, follow=True)

    assert "This seat is taken." in response.text
    assert Seat.objects.get(table=waiting, number=0).user != carol


def test_a_seat_kept_for_bob_cannot_be_taken_by_carol(waiting: Table, carol: User) -> None:
    response = client_as(carol).post(table_url("join", waiting), {"seat": 1}, follow=True)

    assert "This seat is kept for another member." in response.text


def test_joining_a_missing_table_is_not_found(alice_client: Client) -> None:
    response = alice_client.post(reverse("games:join", kwargs={"pk": 999999}))

    assert response.status_code == 404


def test_a_visitor_cannot_see_a_table_or_join_it(waiting: Table, client: Client) -> None:
    assert client.get(table_url("table", waiting)).status_code == 302
    assert client.post(table_url("join", waiting)).status_code == 302
    assert not Seat.objects.filter(table=waiting, kind="player").exclude(number=0).exists()


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_joining_is_only_posted(waiting: Table, bob: User, method: str) -> None:
    assert getattr(client_as(bob), method)(table_url("join", waiting)).status_code == 405


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_a_table_page_is_only_read(waiting: Table, alice: User, method: str) -> None:
    assert getattr(client_as(alice), method)(table_url("table", waiting)).status_code == 405


def test_the_scoreboard_of_a_round_in_play_links_its_game(
    alice: User, bob: User, carol: User
) -> None:
    table = start_table(alice, bob)
    game = current_game(table)

    html = client_as(carol).get(table_url("table", table)).text

    assert "The round so far" in html
    assert reverse("games:game", kwargs={"pk": game.pk}) in html
    assert "Watch the game" in html


def test_current_goes_to_the_latest_game_or_back_to_the_table(waiting: Table, alice: User) -> None:
    me = client_as(alice)

    assert me.get(table_url("current", waiting))["Location"] == table_url("table", waiting)
    assert me.get(reverse("games:current", kwargs={"pk": 999999})).status_code == 404


def test_a_finished_round_shows_the_final_scoreboard_and_its_winner(alice: User, bob: User) -> None:
    table = start_table(alice, bob, games_in_round=1)
    play_until_over(current_game(table), random.Random(4))
    table.refresh_from_db()

    html = client_as(alice).get(table_url("table", table)).text

    assert table.status == Table.Status.FINISHED
    assert "Final scoreboard" in html
    winner_seat = Result.objects.current().of_table(table).winner(table)
    if winner_seat is None:
        assert "shared win" in html
    else:
        winner = table.seats.get(number=winner_seat).occupant_name
        assert f"{winner} wins the round!" in html
    game = Game.objects.get(table=table)
    assert reverse("games:replay", kwargs={"pk": game.pk}) in html
    assert "Finished rounds" in client_as(alice).get(LOBBY).text


# --- calling a table off -----------------------------------------------------------------


def test_the_creator_calls_off_her_waiting_table_and_its_invitation_goes(
    waiting: Table, alice: User, bob: User
) -> None:
    assert Notification.objects.filter(user=bob).exists()
    assert "Call off this table" in client_as(alice).get(table_url("table", waiting)).text
    assert "Call off this table" not in client_as(bob).get(table_url("table", waiting)).text

    response = client_as(alice).post(table_url("cancel_table", waiting))

    assert response.status_code == 302 and response["Location"] == LOBBY
    assert not Table.objects.filter(pk=waiting.pk).exists()
    assert not Notification.objects.filter(user=bob).exists()
    assert client_as(bob).get(table_url("table", waiting)).status_code == 404


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_only_the_creator_may_call_a_table_off(
    waiting: Table, who: str, bob: User, carol: User
) -> None:
    response = client_as(bob if who == "bob" else carol).post(table_url("cancel_table", waiting))

    assert response.status_code == 409
    assert "Only the member who set up this table" in response.text
    assert Table.objects.filter(pk=waiting.pk).exists()


def test_a_table_whose_round_started_or_that_belongs_to_a_league_stays(
    alice: User, bob: User
) -> None:
    started = start_table(alice, bob)
    assert client_as(alice).post(table_url("cancel_table", started)).status_code == 409
    fixture = services.create_table(
        alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()]
    )
    Table.objects.filter(pk=fixture.pk).update(belongs_to="a league fixture")
    assert client_as(alice).post(table_url("cancel_table", fixture)).status_code == 409
    assert Table.objects.filter(pk__in=[started.pk, fixture.pk]).count() == 2


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_calling_off_is_only_posted(waiting: Table, alice: User, method: str) -> None:
    response = getattr(client_as(alice), method)(table_url("cancel_table", waiting))
    assert response.status_code == 405
    assert Table.objects.filter(pk=waiting.pk).exists()


def test_calling_off_a_missing_table_is_not_found(alice_client: Client) -> None:
    missing = reverse("games:cancel_table", kwargs={"pk": 999999})
    assert alice_client.post(missing).status_code == 404


# --- playing again -----------------------------------------------------------------------


@pytest.fixture
def finished_round(alice: User, bob: User) -> Table:
    """A one-game round of alice (seat 0), bob (seat 1) and carol (seat 2), played out;
    carol left her seat to a bot on the way."""
    carol = User.objects.create_user("carol2", display_name="Carol")
    table = start_table(alice, bob, carol, games_in_round=1, turn_seconds=120)
    play_until_over(current_game(table), random.Random(3))
    table.seats.filter(number=2).update(
        kind=Seat.Kind.BOT, bot_level="easy", replaced_user=carol, user=None
    )
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def test_players_play_again_at_one_new_table_with_the_same_seats(
    finished_round: Table, alice: User, bob: User
) -> None:
    assert "Play again" in client_as(bob).get(table_url("table", finished_round)).text

    first = client_as(bob).post(table_url("play_again", finished_round))

    again = Table.objects.get(rematch_of=finished_round)
    assert first.status_code == 302 and first["Location"] == table_url("table", again)
    assert again.creator == bob and again.status == Table.Status.OPEN
    assert again.turn_seconds == 120 and again.games_in_round == 1
    seats = [(s.kind, s.user) for s in again.seats.order_by("number")]
    assert seats == [
        (Seat.Kind.RESERVED, alice),
        (Seat.Kind.PLAYER, bob),
        (Seat.Kind.RESERVED, User.objects.get(username="carol2")),
    ]

    second = client_as(alice).post(table_url("play_again", finished_round))
    assert second["Location"] == table_url("table", again)
    third = client_as(User.objects.get(username="carol2")).post(
        table_url("play_again", finished_round)
    )

    assert Table.objects.filter(rematch_of=finished_round).count() == 1
    again.refresh_from_db()
    assert again.status == Table.Status.PLAYING
    assert third["Location"] == table_url("current", again)


def test_only_a_player_of_a_finished_table_may_play_again(
    finished_round: Table, waiting: Table, carol: User, alice: User
) -> None:
    html = client_as(carol).get(table_url("table", finished_round)).text
    assert "Play again" not in html
    assert client_as(carol).post(table_url("play_again", finished_round)).status_code == 409
    assert client_as(alice).post(table_url("play_again", waiting)).status_code == 409
    assert client_as(alice).get(table_url("play_again", finished_round)).status_code == 405
    assert not Table.objects.filter(rematch_of__isnull=False).exists()


# --- playing now -----------------------------------------------------------------------------

PLAY_NOW = reverse("games:play_now")


def test_play_now_seats_a_member_at_the_table_waiting_longest(
    alice: User, bob: User, carol: User
) -> None:
    seats = [SeatPlan.taken_by(carol), SeatPlan.open()]
    older = services.create_table(carol, TableSettings(), seats)
    services.create_table(alice, TableSettings(), [SeatPlan.taken_by(alice), SeatPlan.open()])

    response = client_as(bob).post(PLAY_NOW)

    older.refresh_from_db()
    assert older.status == Table.Status.PLAYING
    assert response["Location"] == table_url("current", older)


def test_play_now_with_nobody_waiting_sets_a_table_where_a_bot_sits_down_later(
    alice: User, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        response = client_as(alice).post(PLAY_NOW, follow=True)

    table = Table.objects.get(creator=alice)
    assert "Waiting for an opponent" in response.text
    assert table.status == Table.Status.OPEN and table.seats.filter(kind="open").count() == 1
    assert client_as(alice).post(PLAY_NOW)["Location"] == table_url("table", table)
    assert Table.objects.count() == 1

    for callback in callbacks:
        callback()  # the announcement; eager Celery then runs the bot's task at once

    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.seats.get(number=1).kind == Seat.Kind.BOT


def test_the_bot_does_not_sit_down_where_a_member_came(alice: User, bob: User) -> None:
    table = services.play_now(alice)
    services.play_now(bob)

    assert lobby.seat_bot_if_still_waiting(table.pk) is None
    assert not table.seats.filter(kind=Seat.Kind.BOT).exists()
    assert lobby.seat_bot_if_still_waiting(999_999) is None


@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_play_now_is_only_posted(alice: User, method: str) -> None:
    assert getattr(client_as(alice), method)(PLAY_NOW).status_code == 405


# --- changing a waiting table's seats ------------------------------------------------------


def test_the_creator_turns_an_invitation_into_a_bot_and_an_open_seat_into_an_invitation(
    waiting: Table, alice: User, bob: User, carol: User
) -> None:
    me = client_as(alice)
    assert "Change a seat" in me.get(table_url("table", waiting)).text

    me.post(table_url("change_seat", waiting), {"seat": 1, "occupant": "bot-strong"})
    response = me.post(
        table_url("change_seat", waiting), {"seat": 2, "occupant": "invite", "username": "carol"}
    )

    assert response["Location"] == table_url("table", waiting)
    seats = [(s.kind, s.user, s.bot_level) for s in waiting.seats.order_by("number")]
    assert seats[1:] == [(Seat.Kind.BOT, None, "strong"), (Seat.Kind.RESERVED, carol, "")]
    assert not Notification.objects.filter(user=bob, read_at=None).exists()
    assert Notification.objects.filter(user=carol, read_at=None).exists()


def test_filling_the_last_seat_with_a_bot_starts_the_round(waiting: Table, alice: User) -> None:
    me = client_as(alice)
    me.post(table_url("change_seat", waiting), {"seat": 1, "occupant": "bot-easy"})
    response = me.post(table_url("change_seat", waiting), {"seat": 2, "occupant": "bot-easy"})

    waiting.refresh_from_db()
    assert waiting.status == Table.Status.PLAYING
    assert response["Location"] == table_url("current", waiting)


@pytest.mark.parametrize(
    ("who", "data", "status"),
    [
        ("bob", {"seat": 2, "occupant": "bot-easy"}, 409),
        ("alice", {"seat": 0, "occupant": "bot-easy"}, 409),
        ("alice", {"seat": 2, "occupant": "invite", "username": "nobody"}, 409),
        ("alice", {"seat": 2, "occupant": "invite", "username": "alice"}, 409),
        ("alice", {"seat": 2, "occupant": "bot-genius"}, 409),
        ("alice", {"seat": 2, "occupant": "someone"}, 409),
        ("alice", {"seat": 9, "occupant": "open"}, 400),
        ("alice", {"seat": "x", "occupant": "open"}, 400),
    ],
)
def test_a_seat_change_that_cannot_be_made_changes_nothing(
    waiting: Table, alice: User, bob: User, who: str, data: dict[str, object], status: int
) -> None:
    before = list(waiting.seats.order_by("number").values_list("kind", "user", "bot_level"))

    response = client_as(alice if who == "alice" else bob).post(
        table_url("change_seat", waiting), data
    )

    assert response.status_code == status
    after = list(waiting.seats.order_by("number").values_list("kind", "user", "bot_level"))
    assert after == before
