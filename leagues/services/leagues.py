"""Creating a club's league and changing its house rules (organisers only)."""

from __future__ import annotations

from typing import Any

import pghistory
from django.db import IntegrityError, transaction

from leagues.errors import Conflict, LeaguesError
from leagues.house_rules import HouseRulesError, check_house_rules
from leagues.models import Club, League, Season
from leagues.permissions import ensure_staff
from leagues.services import bounds
from leagues.services.seasons import NOT_STARTED
from leagues.slugs import LEAGUE_SLUGS_RESERVED, slug_for

DETAILS = ("name", "description")
"""What an organiser may change of a league besides its house rules (the slug stays, so
that links to its pages keep working)."""


class AddressTaken(Conflict):
    """The club has a league at that address already."""


def create_league(club: Club, by: Any, slug: str, values: dict[str, Any]) -> League:
    """A new league of ``club`` at ``/clubs/<club>/<slug>/``, or (``slug`` empty) at an
    address made from its name, as a club's is; ``values``: its name, description and
    each house rule. Raises :class:`LeaguesError` (also past the club's cap of leagues,
    ``LEAGUES_PER_CLUB``)."""
    ensure_staff(by, club)
    fields = _checked(values)
    try:
        with transaction.atomic():
            # The club's row is locked so that two leagues created at once are counted
            # one after the other against the club's cap (and made addresses differ).
            bounds.check_new_league(Club.objects.select_for_update().get(pk=club.pk))
            address = slug or _slug_from(club, fields["name"])
            return League.objects.create(club=club, slug=address, **fields)
    except IntegrityError:
        raise AddressTaken(f"The club has a league at the address {slug!r} already.") from None


def update_league(league: League, by: Any, values: dict[str, Any]) -> League:
    """Change ``league``'s name, description or house rules: the next season plays by
    them, and so does a season not started yet (still taking registrations); a season
    under way keeps the ones it copied. Raises :class:`LeaguesError`."""
    ensure_staff(by, league)
    fields = _checked(values)
    with transaction.atomic():
        locked = League.objects.select_for_update().get(pk=league.pk)
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.save(update_fields=list(fields))
        rules = {name: fields[name] for name in League.HOUSE_RULES}
        with pghistory.context(user=by.pk, reason="the league's house rules changed"):
            # The season's row is locked as a start locks it: a season starting now
            # either starts on the old rules or waits and takes the new ones.
            waiting = locked.seasons.select_for_update(of=("self",)).filter(status__in=NOT_STARTED)
            Season.objects.filter(pk__in=list(waiting.values_list("pk", flat=True))).update(**rules)
    return locked


def _slug_from(club: Club, name: str) -> str:
    """The first free address for a league named ``name`` in ``club`` (a number alone
    would read as a season's)."""

    def taken(slug: str) -> bool:
        return slug.isdigit() or club.leagues.filter(slug=slug).exists()

    try:
        return slug_for(name, taken=taken, fallback="league", reserved=LEAGUE_SLUGS_RESERVED)
    except ValueError:
        raise Conflict("Too many leagues have a name like this one: choose another.") from None


def _checked(values: dict[str, Any]) -> dict[str, Any]:
    fields = {name: values[name] for name in (*DETAILS, *League.HOUSE_RULES)}
    try:
        check_house_rules(fields)
    except HouseRulesError as error:
        raise LeaguesError(error.message) from None
    if not fields["name"].strip():
        raise LeaguesError("A league needs a name.")
    return fields
