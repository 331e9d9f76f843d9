"""The kinds of the leagues' notices, registered with the notifications app in
:meth:`leagues.apps.LeaguesConfig.ready`."""

from __future__ import annotations

from notifications import kinds
from notifications.models import Delivery


class LeagueNotice:
    """The kinds of notice of clubs and leagues."""

    CLUB_INVITATION = "club_invitation"
    CLUB_NEWS = "club_news"
    LEAGUE_MATCHDAY = "league_matchday"
    LEAGUE_SEASON = "league_season"


KINDS = (
    kinds.Kind(LeagueNotice.CLUB_INVITATION, "An invitation to a club", Delivery.IMMEDIATE),
    kinds.Kind(
        LeagueNotice.CLUB_NEWS, "Club news: requests to join, your membership", Delivery.DIGEST
    ),
    kinds.Kind(
        LeagueNotice.LEAGUE_MATCHDAY,
        "League matchdays: your fixtures and their deadlines",
        Delivery.IMMEDIATE,
    ),
    kinds.Kind(
        LeagueNotice.LEAGUE_SEASON,
        "League seasons: registration, start and end",
        Delivery.DIGEST,
    ),
)


def register() -> None:
    kinds.register(*KINDS)
