"""The kinds of games' notices, registered with the notifications app in
:meth:`games.apps.GamesConfig.ready`, and the header's counts games adds (the games
awaiting the member's move, the one to turn to next).

What makes them (a turn started, a reminder, an invitation) is
:mod:`games.services.notifications`; what decides they are still current is
:mod:`games.selectors.notifications`.
"""

from __future__ import annotations

from accounts.models import User
from games.selectors.notifications import (
    GameNotice,
    current_turn_notices,
    invitation_mail_skip,
    turn_deadline_ends_turn,
    turn_mail_skip,
    unseen_tables,
)
from games.selectors.your_move import your_move_counts
from notifications import kinds
from notifications.models import Delivery
from notifications.selectors import header
from notifications.selectors.notices import add_link_check

# A digest's subject: "1 invitation and 2 games waiting for you".
INVITATIONS = kinds.Count("invitation", "invitations", rank=0)
GAMES = kinds.Count("game", "games", rank=1)


def _turn_kind(code: str, label: str) -> kinds.Kind:
    """A kind of a turn's notice: current while the turn lasts, its deadline the turn's."""
    return kinds.Kind(
        code,
        label,
        Delivery.IMMEDIATE,
        current=current_turn_notices,
        mail_skip=turn_mail_skip,
        deadline_ends_turn=turn_deadline_ends_turn,
        counted_as=GAMES,
    )


def gave_standing_order(user: User) -> bool:
    """Whether ``user`` has turns drawn for them (or had: their notices may be about)."""
    return user.draws_forced_turns is not None and (
        user.draws_forced_turns or user.forced_turns.filter(drawn_for_them=True).exists()
    )


KINDS = (
    _turn_kind(GameNotice.YOUR_TURN, "Your turn"),
    _turn_kind(GameNotice.TIME_RUNNING_OUT, "Time is running out"),
    kinds.Kind(
        GameNotice.TABLE_INVITATION,
        "An invitation to a table",
        Delivery.IMMEDIATE,
        mail_skip=invitation_mail_skip,
        counted_as=INVITATIONS,
    ),
    # Told for the record: the turn is over, there is nothing to do about it. Offered to
    # the members who gave the standing order (and those who had it once: notices stay).
    kinds.Kind(
        GameNotice.DRAWN_FOR_YOU,
        "A turn with no play drawn for you",
        Delivery.NEVER,
        offered_to=gave_standing_order,
    ),
)


def register() -> None:
    kinds.register(*KINDS)
    add_link_check(unseen_tables)
    # One query serves the count and the next game (the header shows both).
    header.add_count(
        "your_move_waiting", lambda counts: your_move_counts([counts.user.pk])[counts.user.pk]
    )
    header.add_count("your_move", lambda counts: counts.your_move_waiting.count)
    header.add_count("next_game_id", lambda counts: counts.your_move_waiting.next_game_id)
