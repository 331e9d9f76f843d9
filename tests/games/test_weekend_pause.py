"""The weekend pause: a correspondence clock that stands still from Saturday 00:00 to
Monday 00:00 in the zone of the player whose turn it is (games.services.clock)."""

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import User
from games import services, tasks
from games.errors import TableError
from games.forms import TableSettingsForm
from games.models import Game, Seat
from games.models.table_settings import TableSettings
from games.rendering import game_context
from games.selectors.clock import game_clock
from games.services.holds import hold_clocks, release_clocks
from games.services.vacations import plan_vacation
from tests.games.clocks import DAY, HOUR, at
from tests.games.conftest import current_game, start_table

pytestmark = pytest.mark.django_db

__all__ = ["at"]  # the fixture

TOKYO, LONDON = ZoneInfo("Asia/Tokyo"), ZoneInfo("Europe/London")
FRIDAY_EVENING_TOKYO = datetime(2026, 12, 4, 20, tzinfo=TOKYO)
"""Friday 4 December 2026, 20:00 in Tokyo (11:00 UTC)."""


def in_zone(user: User, zone: ZoneInfo) -> User:
    user.time_zone = zone.key
    user.save(update_fields=["time_zone"])
    return user


def seat_of(game: Game, user: User) -> int:
    return Seat.objects.get(table_id=game.table_id, user=user).number


def turn_of(alice: User, bob: User, when: datetime, **settings: Any) -> Game:
    """A correspondence game between alice and bob (who moves first) in which alice's
    turn starts at ``when``: bob draws then."""
    settings = {"clock": "correspondence", "turn_seconds": 86400, **settings}
    with time_machine.travel(when - HOUR, tick=False):
        game = current_game(start_table(alice, bob, first=1, **settings))
    with time_machine.travel(when, tick=False):
        services.draw(game.pk, bob, game.version)
    game.refresh_from_db()
    assert game.current_seat == seat_of(game, alice) and game.turn_started_at == when
    return game


def test_a_turn_started_friday_evening_with_a_day_runs_out_monday_evening(
    alice: User, bob: User
) -> None:
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)

    assert game.turn_zone == "Asia/Tokyo"
    assert game.turn_deadline == datetime(2026, 12, 7, 20, tzinfo=TOKYO)
    # A quarter of the day left: 14:00 on Monday, in Tokyo.
    assert game.turn_reminder_at == datetime(2026, 12, 7, 14, tzinfo=TOKYO)


def test_without_the_pause_the_same_turn_runs_out_on_saturday(alice: User, bob: User) -> None:
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO)

    assert game.turn_zone == ""
    assert game.turn_deadline == FRIDAY_EVENING_TOKYO + DAY


def test_the_weekend_is_the_movers_own(alice: User, bob: User) -> None:
    """Friday 20:00 in Tokyo is Friday 11:00 in London: a London player's weekend starts
    13 hours later and ends 9 hours later than a Tokyo player's."""
    in_zone(alice, LONDON)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)

    assert game.turn_zone == "Europe/London"
    # 13 h until Saturday 00:00 in London, then 11 h from Monday 00:00.
    assert game.turn_deadline == datetime(2026, 12, 7, 11, tzinfo=LONDON)


def test_the_sweep_and_the_turns_task_wait_for_monday(alice: User, bob: User, at: Any) -> None:
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)

    with at(datetime(2026, 12, 6, 23, tzinfo=TOKYO)):  # Sunday night
        assert tasks.sweep_expired_turns.delay().get() == 0
        tasks.expire_turn.delay(game.pk, game.turn_number).get()
    game.refresh_from_db()
    assert game.current_seat == seat_of(game, alice)

    with at(datetime(2026, 12, 7, 20, 1, tzinfo=TOKYO)):
        assert tasks.sweep_expired_turns.delay().get() == 1
    game.refresh_from_db()
    assert game.moves.last().by == "timeout"  # type: ignore[union-attr]


def test_a_change_of_zone_mid_turn_moves_no_deadline(alice: User, bob: User, at: Any) -> None:
    """The zone is the one the turn started in: flying west on Sunday night, or saying so,
    stretches no weekend (a vacation's reclock keeps it too)."""
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)

    with at(datetime(2026, 12, 6, 23, tzinfo=TOKYO)):
        in_zone(alice, ZoneInfo("Pacific/Pago_Pago"))
        plan_vacation(alice, 1, datetime(2026, 12, 9).date())  # a reclock, later on

    game.refresh_from_db()
    assert game.turn_zone == "Asia/Tokyo"
    assert game.turn_deadline == datetime(2026, 12, 7, 20, tzinfo=TOKYO)


def test_a_vacation_and_a_weekend_stop_the_clock_together(alice: User, bob: User, at: Any) -> None:
    """A vacation from Sunday (UTC's midnight: 09:00 in Tokyo) to Tuesday 09:00 in Tokyo:
    the weekend's Sunday counts once, and the vacation's Monday is Monday's pause."""
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)

    with at(datetime(2026, 12, 5, 12, tzinfo=TOKYO)):
        plan_vacation(alice, 2, datetime(2026, 12, 6).date())

    game.refresh_from_db()
    # 4 h on Friday, then 20 h from the vacation's end on Tuesday 09:00.
    assert game.turn_deadline == datetime(2026, 12, 9, 5, tzinfo=TOKYO)


def test_the_weekend_is_not_taken_from_the_bank(alice: User, bob: User, at: Any) -> None:
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True, time_bank_seconds=86400)
    seat = seat_of(game, alice)
    Seat.objects.filter(table_id=game.table_id, number=seat).update(bank_seconds=0)
    game.refresh_from_db()

    # Monday 10:00: 4 h on Friday and 10 h on Monday used of the day's 24.
    with at(datetime(2026, 12, 7, 10, tzinfo=TOKYO)):
        services.draw(game.pk, alice, game.version)

    bank = Seat.objects.get(table_id=game.table_id, number=seat).bank_seconds
    assert bank == 10 * 3600


def test_a_bots_turn_has_no_weekend(alice: User) -> None:
    with time_machine.travel(FRIDAY_EVENING_TOKYO, tick=False):
        table = services.create_table(
            alice,
            TableSettings(clock="correspondence", weekend_pause=True),
            [services.SeatPlan.taken_by(alice), services.SeatPlan.bot("easy")],
        )
    game = current_game(table)
    game.refresh_from_db()
    if game.current_seat == seat_of(game, alice):
        with time_machine.travel(FRIDAY_EVENING_TOKYO, tick=False):
            services.draw(game.pk, alice, game.version)
        game.refresh_from_db()
    assert game.turn_zone == ""
    assert game.turn_deadline == FRIDAY_EVENING_TOKYO + DAY


def test_a_hold_released_on_saturday_gives_the_time_left_from_monday(
    alice: User, bob: User, at: Any
) -> None:
    in_zone(alice, TOKYO)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)

    with at(FRIDAY_EVENING_TOKYO + 2 * HOUR):  # 22 h of the day left
        hold_clocks(game.pk)
    with at(datetime(2026, 12, 12, 10, tzinfo=TOKYO)):  # the next Saturday
        release_clocks(game.pk)

    game.refresh_from_db()
    assert game.turn_deadline == datetime(2026, 12, 14, 22, tzinfo=TOKYO)


def test_the_game_page_says_the_clock_stands_still_until_monday(alice: User, bob: User) -> None:
    in_zone(alice, TOKYO)
    in_zone(bob, LONDON)
    game = turn_of(alice, bob, FRIDAY_EVENING_TOKYO, weekend_pause=True)
    saturday = datetime(2026, 12, 5, 12, tzinfo=TOKYO)

    clock = game_clock(game, saturday)
    assert clock.weekend_pause and clock.weekend_zone == "Asia/Tokyo"
    assert clock.weekend_until == datetime(2026, 12, 7, tzinfo=TOKYO)
    assert game_clock(game, FRIDAY_EVENING_TOKYO).weekend_until is None
    assert game_clock(game, datetime(2026, 12, 7, tzinfo=TOKYO)).weekend_until is None

    with time_machine.travel(saturday, tick=False):
        for user, zone, words in [
            (alice, TOKYO, "stands still until Mon 7 Dec, 00:00 JST."),
            (bob, LONDON, "until Mon 7 Dec, 00:00 JST (Sun 6 Dec, 15:00 GMT your time)."),
        ]:
            with timezone.override(zone):
                context = game_context(game, user)
                html = render_to_string("games/game.html#status", context)
            text = " ".join(re.sub(r"<[^>]+>", "", html).split())
            assert words in text, text


def test_only_a_correspondence_table_pauses_on_weekends() -> None:
    with pytest.raises(TableError, match="Only a correspondence clock"):
        TableSettings(clock="live", weekend_pause=True)
    settings = TableSettings(clock="correspondence", weekend_pause=True)
    assert TableSettings.from_dict(settings.to_dict()) == settings
    assert settings.time_control.weekend_pause
    # Settings stored before the pause existed read as without it.
    stored = {k: v for k, v in settings.to_dict().items() if k != "weekend_pause"}
    assert not TableSettings.from_dict(stored).weekend_pause


@pytest.mark.parametrize(("clock", "paused"), [("correspondence", True), ("live", False)])
def test_the_form_offers_the_pause_to_correspondence_tables(clock: str, paused: bool) -> None:
    """A live table ignores a box left ticked (the page hides it for a live clock)."""
    turn = "86400" if clock == "correspondence" else "60"
    data = {
        "preset": "standard",
        "clock": clock,
        "turn_seconds": turn,
        "time_bank_seconds": "0",
        "timeouts_to_forfeit": "3",
        "on_forfeit": "drop_out",
        "weekend_pause": "on",
    }
    form = TableSettingsForm(data={**TableSettingsForm.initial_for(TableSettings()), **data})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["settings"].weekend_pause is paused
