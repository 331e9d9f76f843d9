"""The reads that pages repeat, as QuerySet methods: ``Game.objects.active().awaiting(user)``.

The models import these classes, so the few methods that need another model import it
when called.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn

from django.db import models
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Least

from engine.round import Tally

if TYPE_CHECKING:
    from accounts.models import User

    # Named in the string type arguments of the base classes below.
    from games.models import Game, Move, Result, Table  # noqa: F401


class TableQuerySet(models.QuerySet["Table"]):
    def open(self) -> TableQuerySet:
        """Tables still waiting for players."""
        return self.filter(status="open")

    def playing(self) -> TableQuerySet:
        return self.filter(status="playing")

    def finished(self) -> TableQuerySet:
        return self.filter(status="finished")

    def visible_to(self, user: User) -> TableQuerySet:
        """Tables every member may see, and the private ones where ``user`` sits or sat
        (a seat, one a bot took over from them, or one of a game they played): what a list
        may show them. Those a
        private club's members see besides are found on the club's own pages."""
        sat = Q(seats__user=user) | Q(seats__replaced_user=user) | Q(games__occupancy__member=user)
        mine = self.model.objects.filter(sat).values("pk")
        return self.filter(Q(private=False) | Q(pk__in=mine))

    def with_member(self, user: User) -> TableQuerySet:
        """Tables where ``user`` sits or is invited."""
        return self.filter(seats__user=user).distinct()

    def joinable_by(self, user: User) -> TableQuerySet:
        """Open tables with a seat ``user`` may take (open, or reserved for them), where
        they do not sit already: the lobby's list."""
        seated = self.filter(seats__user=user, seats__kind="player").values("pk")
        return (
            self.open()
            .filter(Q(seats__kind="open") | Q(seats__kind="reserved", seats__user=user))
            .exclude(pk__in=seated)
            .distinct()
        )

    def inviting(self, user: User) -> TableQuerySet:
        """Open tables keeping a seat for ``user``: their invitations still to answer."""
        return self.open().filter(seats__kind="reserved", seats__user=user)

    def with_seats(self) -> TableQuerySet:
        return self.prefetch_related("seats__user")


class GameQuerySet(models.QuerySet["Game"]):
    def active(self) -> GameQuerySet:
        """Games in play."""
        return self.filter(status="playing")

    def finished(self) -> GameQuerySet:
        return self.filter(status="finished")

    def on_public_tables(self) -> GameQuerySet:
        """Games of tables that are not private: what anyone may be shown to watch."""
        return self.filter(table__private=False)

    def played_by(self, user: User) -> GameQuerySet:
        """Games at tables where ``user`` has taken a seat."""
        return self.filter(table__seats__user=user, table__seats__kind="player")

    def awaiting(self, user: User) -> GameQuerySet:
        """Games where it is ``user``'s turn."""
        # One filter() call: the three conditions must hold for the same seat row.
        return self.filter(
            table__seats__user=user,
            table__seats__kind="player",
            table__seats__number=F("current_seat"),
        )

    def your_move(self, user: User) -> GameQuerySet:
        """Games in play where it is ``user``'s turn, the soonest deadline first (the
        turn's, or the table's settling when it comes first: a league fixture's)."""
        due = Least("turn_deadline", "table__settles_at")
        return self.active().awaiting(user).order_by(due.asc(nulls_last=True), "pk")


class MoveQuerySet(models.QuerySet["Move"]):
    """Moves are append-only (see :class:`games.models.Move`): bulk changes are refused."""

    def update(self, **kwargs: Any) -> NoReturn:
        from games.models import MoveLogError

        raise MoveLogError("the move log is append-only: moves cannot be updated")

    def delete(self) -> NoReturn:
        from games.models import MoveLogError

        raise MoveLogError("the move log is append-only: moves cannot be deleted")


class ResultQuerySet(models.QuerySet["Result"]):
    """Result rows; a round's totals, wins, standings and winner are read from here.

    Rows are never changed or deleted (see :class:`games.models.Result`): bulk changes
    are refused. The round-level reads take the current rows of one table's games
    (``Result.objects.current().of_table(table)``) and count them with the engine's
    :class:`~engine.round.Tally`, so a page and the engine rank seats the same way.
    """

    def current(self) -> ResultQuerySet:
        """The rows no ruling has superseded: one per seat of each finished game."""
        return self.filter(superseded_by__isnull=True)

    def counting(self) -> ResultQuerySet:
        """The current rows that count: a voided game's rows count for nobody."""
        return self.current().exclude(source="void")

    def of_table(self, table: Table | int) -> ResultQuerySet:
        """Rows of the games of ``table``'s round."""
        return self.filter(game__table=table)

    def of_game(self, game: Game | int) -> ResultQuerySet:
        return self.filter(game=game)

    def tally(self, table: Table) -> Tally:
        """Totals and wins by seat over these rows, ranked by ``table``'s rules."""
        return self.tallies([table])[table.pk]

    def tallies(self, tables: Iterable[Table]) -> dict[int, Tally]:
        """:meth:`tally` of each of ``tables`` (by pk), in one query."""
        rules = {t.pk: t.engine_ruleset() for t in tables}
        totals = {pk: [0] * r.players for pk, r in rules.items()}
        wins = {pk: [0] * r.players for pk, r in rules.items()}
        rows = (
            self.filter(game__table__in=list(rules))
            .order_by()
            .values("game__table", "seat")
            .annotate(total=Sum("score"), won=Count("pk", filter=Q(is_winner=True)))
        )
        for row in rows:
            totals[row["game__table"]][row["seat"]] = row["total"]
            wins[row["game__table"]][row["seat"]] = row["won"]
        return {
            pk: Tally(r.score_mode, tuple(totals[pk]), tuple(wins[pk])) for pk, r in rules.items()
        }

    def totals(self, table: Table) -> tuple[int, ...]:
        """Each seat's cumulative score."""
        return self.tally(table).totals

    def wins(self, table: Table) -> tuple[int, ...]:
        """Games won by each seat."""
        return self.tally(table).wins

    def standings(self, table: Table) -> tuple[int, ...]:
        """Seats best first (see :class:`~engine.round.Tally` for ties)."""
        return self.tally(table).standings

    def winner(self, table: Table) -> int | None:
        """The round's winner: ``None`` until the round is over, or if first place is
        shared."""
        if table.status != "finished":
            return None
        return self.tally(table).winner

    def update(self, **kwargs: Any) -> NoReturn:
        from games.models import ResultLogError

        raise ResultLogError("result rows are never changed: supersede them")

    def delete(self) -> NoReturn:
        from games.models import ResultLogError

        raise ResultLogError("result rows are never deleted: supersede them")
