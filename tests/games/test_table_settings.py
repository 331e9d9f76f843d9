"""A table's settings as one value: JSON that a league season can keep, checked whenever
it is built or read back, and what ``create_table`` takes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from accounts.models import User
from games import services
from games.errors import TableError
from games.models import Table
from games.models.table_settings import TableSettings
from games.services import SeatPlan

EXAMPLES = [
    TableSettings(),
    TableSettings(preset="keadle_house", options={"joker_penalty": 25}, turn_seconds=120),
    TableSettings(
        preset="classic_locked",
        options={"draw_mode": "river", "initial_meld_min": 50, "allow_wrap": True},
        clock="correspondence",
        turn_seconds=3 * 86400,
        time_bank_seconds=86400,
        games_in_round=6,
        timeouts_to_forfeit=1,
        on_forfeit="bot",
        weekend_pause=True,
    ),
]


@pytest.mark.parametrize("settings", EXAMPLES)
def test_settings_round_trip_through_json(settings: TableSettings) -> None:
    stored = json.dumps(settings.to_dict())

    assert TableSettings.from_dict(json.loads(stored)) == settings
    assert hash(TableSettings.from_dict(json.loads(stored))) == hash(settings)


def test_the_json_names_every_setting_with_plain_values() -> None:
    assert EXAMPLES[1].to_dict() == {
        "preset": "keadle_house",
        "options": {"joker_penalty": 25},
        "clock": "live",
        "turn_seconds": 120,
        "time_bank_seconds": 0,
        "weekend_pause": False,
        "games_in_round": None,
        "timeouts_to_forfeit": 3,
        "on_forfeit": "drop_out",
    }


def test_settings_left_out_of_the_json_take_their_defaults() -> None:
    assert TableSettings.from_dict({}) == TableSettings()
    assert TableSettings.from_dict({"clock": "correspondence"}).turn_seconds == 86400


def test_the_turn_time_is_the_clocks_usual_one_unless_given() -> None:
    assert TableSettings().turn_seconds == 60
    assert TableSettings(clock="correspondence").turn_seconds == 86400
    assert TableSettings(clock="live", turn_seconds=30).time_control.turn_seconds == 30


def test_only_house_rules_are_kept_so_equal_rules_compare_equal() -> None:
    spelled_out = TableSettings(
        preset="keadle_house", options={"allow_wrap": True, "meld_values": "house"}
    )

    assert spelled_out.options == {}
    assert spelled_out == TableSettings(preset="keadle_house")
    assert TableSettings(options={"allow_wrap": False, "rack_size": 16}).options == {
        "rack_size": 16
    }


def test_settings_cannot_be_changed() -> None:
    settings = EXAMPLES[1]

    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.preset = "standard"  # type: ignore[misc]
    with pytest.raises(TypeError):
        settings.options["joker_penalty"] = 30  # type: ignore[index]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"preset": "poker"}, "Unknown rules 'poker'"),
        ({"preset": ["standard"]}, "Unknown rules"),
        ({"options": [("allow_wrap", True)]}, "House rules are an object of options."),
        ({"options": {"wrap": True}}, "Unknown option 'wrap'"),
        ({"options": {"joker_penalty": 40}}, "Joker_penalty must be one of 25, 30; got 40."),
        ({"options": {"allow_wrap": 1}}, "Allow_wrap must be one of false, true; got 1."),
        ({"options": {"initial_meld_min": 151}}, "from 0 to 150; got 151"),
        (
            {"options": {"initial_meld_single_set": True, "initial_meld_min": 92}},
            "at most 91 with a single-set initial meld",
        ),
        ({"options": {"players": 3}}, "The number of players is the number of seats."),
        ({"options": {"turn_time_limit_s": 30}}, "The time for a turn is the clock's"),
        ({"clock": "blitz"}, "A table's clock is live or correspondence."),
        ({"turn_seconds": 5}, "A turn lasts between 10 seconds and 24 hours."),
        ({"turn_seconds": "60"}, "a whole number of seconds"),
        ({"turn_seconds": 60.0}, "a whole number of seconds"),
        ({"turn_seconds": True}, "a whole number of seconds"),
        ({"clock": "correspondence", "turn_seconds": 600}, "between 1 hour and 14 days"),
        ({"time_bank_seconds": -1}, "A time bank holds from 0 to 14 days."),
        ({"time_bank_seconds": 15 * 86400}, "A time bank holds from 0 to 14 days."),
        ({"timeouts_to_forfeit": 11}, "forfeits after 1 to 10"),
        ({"timeouts_to_forfeit": True}, "forfeits after 1 to 10"),
        ({"on_forfeit": "sulk"}, "drops out, or a bot takes the seat"),
        ({"games_in_round": 0}, "A round has between 1 and 20 games."),
        ({"games_in_round": 21}, "A round has between 1 and 20 games."),
        ({"games_in_round": "3"}, "A round has between 1 and 20 games."),
    ],
)
def test_bad_settings_are_refused_however_they_come(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TableError, match=message):
        TableSettings(**changes)
    with pytest.raises(TableError, match=message):
        TableSettings.from_dict(json.loads(json.dumps({**TableSettings().to_dict(), **changes})))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rules": "standard"}, "Unknown table setting 'rules'"),
        ([["preset", "standard"]], "Table settings are an object of settings."),
    ],
)
def test_json_that_is_not_settings_is_refused(data: Any, message: str) -> None:
    with pytest.raises(TableError, match=message):
        TableSettings.from_dict(data)


# -- create_table ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_is_created_with_its_settings(alice: User, bob: User) -> None:
    settings = EXAMPLES[2]

    table = services.create_table(
        alice, settings, [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    )

    assert (table.preset, table.options) == (
        "classic_locked",
        {"initial_meld_min": 50, "allow_wrap": True, "draw_mode": "river"},
    )
    assert (table.clock, table.turn_seconds, table.time_bank_seconds) == (
        "correspondence",
        3 * 86400,
        86400,
    )
    assert (table.games_in_round, table.timeouts_to_forfeit, table.on_forfeit) == (6, 1, "bot")
    ruleset = table.engine_ruleset()
    assert (ruleset.players, ruleset.turn_time_limit_s, ruleset.joker_set_rule) == (
        2,
        3 * 86400,
        "locked",
    )
    assert TableSettings.of_table(Table.objects.get(pk=table.pk)) == settings


@pytest.mark.django_db
def test_a_round_has_a_game_per_seat_unless_the_settings_say(alice: User) -> None:
    three = [SeatPlan.taken_by(alice), SeatPlan.open(), SeatPlan.open()]

    table = services.create_table(alice, TableSettings(), three)

    assert table.games_in_round == 3
    assert TableSettings.of_table(table) == TableSettings(games_in_round=3)


@pytest.mark.django_db
def test_a_stored_season_setting_makes_the_same_table_again(alice: User, bob: User) -> None:
    seats = [SeatPlan.taken_by(alice), SeatPlan.reserved_for(bob)]
    first = services.create_table(alice, EXAMPLES[1], seats)

    stored = json.dumps(TableSettings.of_table(first).to_dict())
    again = services.create_table(alice, TableSettings.from_dict(json.loads(stored)), seats)

    fields = ["preset", "options", "ruleset", "turn_seconds", "clock", "games_in_round"]
    assert [getattr(again, name) for name in fields] == [getattr(first, name) for name in fields]
