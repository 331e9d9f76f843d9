"""A league's house rules: what is refused, and what its page says of them."""

from __future__ import annotations

from typing import Any

import pytest

from games.models.table_settings import TableSettings
from leagues.house_rules import DEFAULTS, HouseRulesError, check_house_rules, house_rules_in_words
from leagues.models import League


def rules(**changes: Any) -> dict[str, Any]:
    return {**DEFAULTS, **changes}


def test_the_default_house_rules_pass() -> None:
    check_house_rules(rules())


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"seats": 5}, "seats"),
        ({"table_settings": {"clock": "sundial"}}, "table_settings"),
        ({"table_settings": {"games_in_round": 0}}, "table_settings"),
        ({"scoring": "placement", "placement_points": [4, 2, 1]}, "placement_points"),
        ({"scoring": "placement", "placement_points": [4, 2, 3, 0]}, "placement_points"),
        ({"scoring": "placement", "placement_points": [1, 1, 1, 1]}, "placement_points"),
        ({"scoring": "placement", "placement_points": [4, 2, 1, -1]}, "placement_points"),
        ({"scoring": "placement", "placement_points": [4, 2, 1, True]}, "placement_points"),
        ({"placement_points": [4, 2, 1, 0]}, "placement_points"),
        ({"scoring": "elo"}, "scoring"),
        ({"tiebreaks": ["coin_toss"]}, "tiebreaks"),
        ({"tiebreaks": ["games_won", "games_won"]}, "tiebreaks"),
        ({"division_size": 3}, "division_size"),
        ({"division_size": 41}, "division_size"),
        ({"division_size": 8, "promotion": 5}, "promotion"),
        ({"matchday_days": 0}, "matchday_days"),
        ({"vacation_days": 61}, "vacation_days"),
        ({"on_deadline": "coin_toss"}, "on_deadline"),
        ({"on_withdrawal": "vanish"}, "on_withdrawal"),
        ({"on_suspension": "vanish"}, "on_suspension"),
    ],
)
def test_it_refuses_house_rules_that_do_not_fit(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(HouseRulesError) as refused:
        check_house_rules(rules(**changes))
    assert refused.value.field == field


def test_placement_points_fit_the_seats_and_may_tie_below_the_top() -> None:
    check_house_rules(rules(seats=3, scoring="placement", placement_points=[3, 1, 1]))
    check_house_rules(rules(seats=2, scoring="placement", placement_points=[1, 0]))


def test_the_page_states_the_rules_in_words() -> None:
    settings = TableSettings(clock="correspondence", time_bank_seconds=86400, games_in_round=2)
    league = League(
        **rules(
            seats=3,
            scoring="placement",
            placement_points=[4, 2, 0],
            division_size=8,
            table_settings=settings.to_dict(),
        )
    )
    words = dict(house_rules_in_words(league).lines)
    assert words["Tables"] == "3 players, 2 games a fixture"
    assert words["Clock"] == "Correspondence: 1 day a turn, 1 day bank"
    assert words["Scoring"] == "Placement points per fixture: 4/2/0"
    assert words["Tiebreaks"] == "Games won, then Head-to-head, then Total score"
    assert words["Divisions"] == "About 8 players each, at least a table; 2 up and down each season"
