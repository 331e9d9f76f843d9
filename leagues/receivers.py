"""What follows in the leagues app from the facts of play (:mod:`games.signals`) and from
the leagues' own facts (:mod:`leagues.signals`).

Connected in :meth:`leagues.apps.LeaguesConfig.ready` (:func:`connect`). Receivers run
after the commit of the fact and take ids, like the games app's own
(:mod:`games.receivers`); but a fixture's deadline is copied to its table in the
transaction that saves it (``post_save``), so that no page ever reads a table due at
another moment than its fixture.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from accounts.signals import password_changed
from games import signals as games_signals
from leagues import signals
from leagues.consumers import publish_season_changed
from leagues.models import Fixture, Matchday
from leagues.selectors.standings import forget_season
from leagues.services.calendar import renew_calendar_token_if_any
from leagues.services.deadlines import keep_table_due, keep_tables_due
from leagues.services.matchdays import finish_fixture
from leagues.services.organiser import tell_substitute, tell_substitutes_of_close
from leagues.services.season_end import tell_of_late_correction
from leagues.services.vacations import extend_for_vacations
from leagues.services.withdrawals import tell_the_others


def _season_of_table(table_id: int) -> int | None:
    return (
        Fixture.objects.filter(table_id=table_id)
        .values_list("matchday__season_id", flat=True)
        .first()
    )


def standings_changed(sender: type, table_id: int, **kwargs: Any) -> None:
    """A game of a fixture ended, or a ruling changed one's result: the season changed
    (:data:`leagues.signals.season_changed`). Tables that are no fixture (most of them)
    cost one indexed look-up."""
    season_id = _season_of_table(table_id)
    if season_id is not None:
        signals.refresh_after_commit(season_id)


def late_correction(sender: type, table_id: int, game_id: int, **kwargs: Any) -> None:
    """A ruling changed a result: if it is of a closed season's fixture, its players and
    those whose final place it changes are told (any other table: nothing)."""
    tell_of_late_correction(table_id, game_id)


def refresh_standings(sender: type, season_id: int, **kwargs: Any) -> None:
    """What the season's standings read changed: its cached standings go, and its open
    standings pages fetch their tables again."""
    forget_season(season_id)
    publish_season_changed(season_id)


def fixture_finished(sender: type, table_id: int, **kwargs: Any) -> None:
    """A fixture's table finished its round: the fixture is finished."""
    finish_fixture(table_id)


def tell_of_withdrawal(sender: type, entry_id: int, fixture_ids: list[int], **kwargs: Any) -> None:
    """A player withdrew: those who shared an unfinished fixture with them are told."""
    tell_the_others(entry_id, fixture_ids)


def tell_of_substitution(sender: type, entry_id: int, substitute_id: int, **kwargs: Any) -> None:
    """A substitute was seated: they are told whom they play for, and where."""
    tell_substitute(entry_id, substitute_id)


def tell_substitutes_of_the_close(sender: type, season_id: int, **kwargs: Any) -> None:
    """A season closed: its substitutes hear where the members they played for finished."""
    tell_substitutes_of_close(season_id)


def calendar_after_password_change(sender: type, user: Any, **kwargs: Any) -> None:
    """The member changed or reset their password: their calendar feed's secret address
    is renewed too (the old one answers 404)."""
    renew_calendar_token_if_any(user)


def _saved(update_fields: frozenset[str] | None, *names: str) -> bool:
    return update_fields is None or any(name in update_fields for name in names)


def fixture_saved(
    sender: type, instance: Fixture, update_fields: frozenset[str] | None = None, **kwargs: Any
) -> None:
    """A fixture's deadline or table was saved: its table settles when it is due."""
    if _saved(update_fields, "deadline", "table", "vacation_days"):
        keep_table_due(instance)


def matchday_saved(
    sender: type, instance: Matchday, update_fields: frozenset[str] | None = None, **kwargs: Any
) -> None:
    """A matchday's deadline was saved: its fixtures' tables settle then."""
    if _saved(update_fields, "deadline") and not kwargs.get("created"):
        keep_tables_due(instance)


def vacation_changed(sender: type, user_id: int, **kwargs: Any) -> None:
    """A member's vacations changed: their fixtures' deadlines follow, where the house
    rules extend fixtures for vacations."""
    extend_for_vacations(user_id)


def connect() -> None:
    """Subscribe the leagues app's receivers (idempotent: each has a dispatch uid)."""
    # A fixture's standings change when one of its games ends and when a ruling
    # corrects a result (the end of its round finishes the fixture: a fact of ours).
    games_signals.game_finished.connect(standings_changed, dispatch_uid="leagues-game")
    games_signals.results_superseded.connect(standings_changed, dispatch_uid="leagues-ruling")
    # After the close, a ruling's result is told to those it concerns.
    games_signals.results_superseded.connect(
        late_correction, dispatch_uid="leagues-late-correction"
    )
    # The leagues' own facts: one refresh of the season per transaction.
    signals.season_changed.connect(refresh_standings, dispatch_uid="leagues-refresh-standings")
    signals.entry_withdrawn.connect(tell_of_withdrawal, dispatch_uid="leagues-tell-withdrawal")
    signals.player_substituted.connect(
        tell_of_substitution, dispatch_uid="leagues-tell-substitution"
    )
    signals.season_closed.connect(
        tell_substitutes_of_the_close, dispatch_uid="leagues-tell-substitutes-of-close"
    )
    password_changed.connect(calendar_after_password_change, dispatch_uid="leagues-calendar")
    # A fixture is finished when its table's round is.
    games_signals.round_finished.connect(fixture_finished, dispatch_uid="leagues-fixture-finished")
    # A vacation during a matchday extends its player's fixtures (by the house rules).
    games_signals.vacation_changed.connect(vacation_changed, dispatch_uid="leagues-vacation")
    # A fixture's table settles when the fixture is due, in the same transaction.
    post_save.connect(fixture_saved, sender=Fixture, dispatch_uid="leagues-due")
    post_save.connect(matchday_saved, sender=Matchday, dispatch_uid="leagues-due")
