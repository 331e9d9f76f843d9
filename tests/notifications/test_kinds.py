"""The kinds of notification: each app registers its own, and nothing else is taken."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from notifications import kinds
from notifications.models import Delivery, Notification
from notifications.services.notices import create, set_preference

# Each app's kinds, as its AppConfig.ready() registers them, in INSTALLED_APPS' order.
EVERY_APP_S_KINDS = [
    ("your_turn", "Your turn", Delivery.IMMEDIATE),
    ("time_running_out", "Time is running out", Delivery.IMMEDIATE),
    ("table_invitation", "An invitation to a table", Delivery.IMMEDIATE),
    ("drawn_for_you", "A turn with no play drawn for you", Delivery.NEVER),
    ("club_invitation", "An invitation to a club", Delivery.IMMEDIATE),
    ("club_news", "Club news: requests to join, your membership", Delivery.DIGEST),
    (
        "league_matchday",
        "League matchdays: your fixtures and their deadlines",
        Delivery.IMMEDIATE,
    ),
    ("league_season", "League seasons: registration, start and end", Delivery.DIGEST),
    ("moderation_case", "Your reports: received, joined, decided", Delivery.IMMEDIATE),
    (
        "moderation_outcome",
        "Rulings that concern you, warnings and appeals",
        Delivery.IMMEDIATE,
    ),
    (
        "moderation_queue",
        "Cases to moderate: escalations and confirmations",
        Delivery.IMMEDIATE,
    ),
]


def test_the_registry_has_each_app_s_kinds_in_order() -> None:
    registered = [(kind.code, kind.label, kind.delivery) for kind in kinds.registered()]

    assert registered == EVERY_APP_S_KINDS


def test_each_kind_is_registered_by_its_own_app() -> None:
    from games.notices import KINDS as GAMES
    from leagues.notices import KINDS as LEAGUES
    from moderation.notices import KINDS as MODERATION

    assert kinds.registered() == [*GAMES, *LEAGUES, *MODERATION]


def test_an_unknown_kind_is_refused(alice: User) -> None:
    with pytest.raises(kinds.UnknownKind, match="unknown kind of notification 'carrier_pigeon'"):
        kinds.get("carrier_pigeon")
    with pytest.raises(ValueError, match="unknown kind"):
        create(alice.pk, "carrier_pigeon", "Coo", "/")
    with pytest.raises(ValueError, match="no notification preference"):
        set_preference(alice, "carrier_pigeon", Delivery.NEVER)

    assert not Notification.objects.exists()


def test_a_kind_no_longer_registered_keeps_its_code_as_its_label() -> None:
    assert kinds.label_of("your_turn") == "Your turn"
    assert kinds.label_of("carrier_pigeon") == "carrier_pigeon"


def test_a_kind_registered_again_changes_nothing_but_a_taken_code_is_refused() -> None:
    your_turn = kinds.get("your_turn")

    kinds.register(your_turn)
    with pytest.raises(ValueError, match="'your_turn' is registered already"):
        kinds.register(kinds.Kind("your_turn", "Someone else's turn", Delivery.NEVER))

    assert kinds.get("your_turn") is your_turn
    assert len(kinds.registered()) == len(EVERY_APP_S_KINDS)


def test_the_preferences_page_lists_every_kind_offered_in_order(
    alice_client: Client,
) -> None:
    page = alice_client.get(reverse("notifications:list")).text

    legends = re.findall(r"<legend>([^<]*)</legend>", page)
    # The moderators' own kind is offered to moderators only (tests/notifications/
    # test_preferences.py), the turns drawn for a member to those who gave the order
    # (tests/games/test_forced_turns.py).
    offered_to_all = [
        label
        for code, label, _ in EVERY_APP_S_KINDS
        if code not in ("moderation_queue", "drawn_for_you")
    ]
    # After the kinds, when they come (the digest's hour, quiet hours).
    assert legends == [*offered_to_all, "When"]
