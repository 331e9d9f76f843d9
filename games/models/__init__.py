"""Tables, games, the move log and turns in progress.

A :class:`Table` is one round of games among 2-4 seats. Each :class:`Game` is one engine
game; its state is cached as JSON (``GameState.to_dict()``: racks and pool order, so it
is never rendered or sent) and can always be rebuilt from the seed and the append-only
:class:`Move` log. A finished game's result is its :class:`Result` rows, one per seat
(rulings supersede them; the round's standings are derived from the current ones). A
:class:`Draft` is the table a player is building during the turn.

Correspondence play adds a member's :class:`Vacation` (their correspondence clocks
stand still). The notices about tables and games ("your turn", "time is running out",
"you are invited to a table") are the notifications app's rows, their kinds registered
by games (:mod:`games.notices`).

Every change to a game goes through :mod:`games.services`; the models only describe data
and the reads that pages repeat (the QuerySet methods, each beside its model).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

import pghistory
from django.conf import settings
from django.contrib.contenttypes.fields import GenericRelation
from django.db import models
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Least

from engine.actions import Action, action_from_dict
from engine.game import replay
from engine.round import Round, Tally
from engine.ruleset import Ruleset
from engine.state import GameState

if TYPE_CHECKING:
    from accounts.models import User


class Preset(models.TextChoices):
    STANDARD = "standard", "Standard"
    KEADLE_HOUSE = "keadle_house", "Keadle house rules"
    CLASSIC_LOCKED = "classic_locked", "Classic (locked jokers)"


class BotLevel(models.TextChoices):
    EASY = "easy", "Easy"
    NORMAL = "normal", "Normal"
    STRONG = "strong", "Strong"


class TableQuerySet(models.QuerySet["Table"]):
    def open(self) -> TableQuerySet:
        """Tables still waiting for players."""
        return self.filter(status=Table.Status.OPEN)

    def playing(self) -> TableQuerySet:
        return self.filter(status=Table.Status.PLAYING)

    def finished(self) -> TableQuerySet:
        return self.filter(status=Table.Status.FINISHED)

    def visible_to(self, user: User) -> TableQuerySet:
        """Tables every member may see, and the private ones where ``user`` sits or sat
        (a seat, one a bot took over from them, or one of a game they played): what a list
        may show them. Those a
        private club's members see besides are found on the club's own pages."""
        # Three subqueries, each read from an index on the member, rather than one over
        # the joins of every table, seat, game and occupancy on the site.
        sat = (
            Q(pk__in=Seat.objects.filter(user=user).values("table_id"))
            | Q(pk__in=Seat.objects.filter(replaced_user=user).values("table_id"))
            | Q(pk__in=SeatOccupancy.objects.filter(member=user).values("game__table_id"))
        )
        return self.filter(Q(private=False) | sat)

    def with_member(self, user: User) -> TableQuerySet:
        """Tables where ``user`` sits or is invited."""
        return self.filter(seats__user=user).distinct()

    def joinable_by(self, user: User) -> TableQuerySet:
        """Open tables with a seat ``user`` may take (open, or reserved for them), where
        they do not sit already: the lobby's list."""
        seated = self.filter(seats__user=user, seats__kind=Seat.Kind.PLAYER).values("pk")
        return (
            self.open()
            .filter(
                Q(seats__kind=Seat.Kind.OPEN) | Q(seats__kind=Seat.Kind.RESERVED, seats__user=user)
            )
            .exclude(pk__in=seated)
            .distinct()
        )

    def inviting(self, user: User) -> TableQuerySet:
        """Open tables keeping a seat for ``user``: their invitations still to answer."""
        return self.open().filter(seats__kind=Seat.Kind.RESERVED, seats__user=user)

    def with_seats(self) -> TableQuerySet:
        return self.prefetch_related("seats__user")

    def with_latest_game(self) -> TableQuerySet:
        """Each table with ``latest_game_id``: its game being played, or the last one
        played (``None`` before the first deal), read in the list's own query rather
        than one query per listed table."""
        latest = Game.objects.filter(table=models.OuterRef("pk")).order_by("-number")
        return self.annotate(latest_game_id=models.Subquery(latest.values("pk")[:1]))


class Table(models.Model):
    """One round of games at 2-4 seats, from the lobby to the final standings."""

    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Clock(models.TextChoices):
        LIVE = "live", "Live"
        CORRESPONDENCE = "correspondence", "Correspondence"

    class OnForfeit(models.TextChoices):
        DROP_OUT = "drop_out", "The player drops out and scores as a loser"
        BOT = "bot", "A bot takes the seat"

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_tables"
    )
    preset = models.CharField(max_length=20, choices=Preset.choices, default=Preset.STANDARD)
    options = models.JSONField(
        default=dict, blank=True, help_text="Ruleset options that differ from the preset."
    )
    ruleset = models.JSONField(
        help_text="The resolved ruleset (Ruleset.to_dict()), players and turn time included."
    )
    turn_seconds = models.PositiveIntegerField(help_text="Time for one turn, in seconds.")
    clock = models.CharField(
        max_length=16,
        choices=Clock.choices,
        default=Clock.LIVE,
        help_text="Correspondence clocks stop while a player is on vacation; live ones never.",
    )
    time_bank_seconds = models.PositiveIntegerField(
        default=0,
        help_text="Each seat's time bank, in seconds (0: none). Unused turn time goes into "
        "it, overtime comes out of it; it never holds more than this.",
    )
    weekend_pause = models.BooleanField(
        default=False,
        help_text="Correspondence only: a turn's clock stands still from Saturday 00:00 to "
        "Monday 00:00 in the zone of the player whose turn it is.",
    )
    timeouts_to_forfeit = models.PositiveSmallIntegerField(
        default=3, help_text="Turns in a row run out of time after which a player forfeits."
    )
    on_forfeit = models.CharField(
        max_length=10, choices=OnForfeit.choices, default=OnForfeit.DROP_OUT
    )
    games_in_round = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Secret: with it and the move logs anyone could deal every game of the round.
    round_seed = models.CharField(max_length=64, blank=True)
    # The round's schedule only; its results are the games' Result rows.
    round = models.JSONField(
        null=True,
        blank=True,
        help_text="engine.round.Round.to_dict(), the schedule; holds the secret seed.",
    )
    # What the table is part of, for apps above games (a league's fixture) to name it on
    # the table's pages without games knowing them.
    belongs_to = models.CharField(
        max_length=120, blank=True, help_text="What the table is part of, e.g. a league fixture."
    )
    belongs_to_link = models.CharField(
        max_length=200, blank=True, help_text="A path on this site to what it is part of."
    )
    # Set by an app above games (a league fixture's deadline), so that the table's pages
    # and notices can say when its round is settled whatever its clocks say.
    settles_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When an app above games settles the round, whatever the turn clocks say "
        "(a league fixture's deadline).",
    )
    # Set by an app above games (a private club's fixture), so that lists can leave the
    # table out in SQL; who sees it is answered by games.selectors.sight.table_sight.
    private = models.BooleanField(
        default=False,
        help_text="Seen only by those who sit or sat at it and those the sight policy "
        "lets in (GAMES_SIGHT_POLICY), e.g. a private club's members.",
    )
    rematch_of = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        help_text="The finished table whose players set this one up to play again.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    chat_version = models.PositiveIntegerField(
        default=0,
        help_text="Counts the changes of the table's chat (said, hidden, shown again); a game "
        "page says it when its socket connects.",
    )

    # Deleting the table or game deletes the notifications about it.
    notifications = GenericRelation(
        "notifications.Notification",
        content_type_field="subject_type",
        object_id_field="subject_id",
    )

    objects = TableQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The lobby's tables waiting for players, newest first: a few among the
            # site's every table, found without reading the others.
            models.Index(fields=["status", "-created_at"], name="games_table_status_newest"),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.get_preset_display()}, {self.get_status_display()})"

    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset)

    def engine_round(self) -> Round | None:
        """The round's schedule (seeds, starts); ``None`` before the first game starts."""
        return None if self.round is None else Round.from_dict(self.round)


class Seat(models.Model):
    """One place at a table: open, reserved for an invited member, taken, or a bot."""

    class Kind(models.TextChoices):
        OPEN = "open", "Open"
        RESERVED = "reserved", "Reserved"
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(help_text="The engine's seat, from 0.")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OPEN)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        help_text="The member invited to a reserved seat, or the one sitting in it.",
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    bank_seconds = models.PositiveIntegerField(
        default=0, help_text="What is left in this seat's time bank, in seconds."
    )
    timeouts_in_a_row = models.PositiveSmallIntegerField(
        default=0, help_text="Turns in a row that ran out of time; a move of the player resets it."
    )
    replaced_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The member who abandoned this seat to the bot now in it.",
    )
    # Not ``replaced_user``: the member played for never sat at this table, so the seat
    # gives them no sight of it and no claim to it back.
    plays_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The member whose place the seat's player takes from the round's start: "
        "an authority above the table seated a substitute or a bot for them (a league's "
        "entry replaced or withdrawn before its fixture's table was set up).",
    )
    forfeits_each_game = models.BooleanField(
        default=False,
        help_text="The seat's member left the competition the table belongs to: the seat "
        "forfeits every game of the round as it is dealt, in the deal's own transaction, so "
        "no turn of theirs is ever awaited (a league's withdrawal under its forfeit rule).",
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="games_seat_one_per_member",
                violation_error_message="A member has one seat at a table.",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(kind="open", user__isnull=True, bot_level="")
                    | models.Q(kind__in=["reserved", "player"], user__isnull=False, bot_level="")
                    | models.Q(kind="bot", user__isnull=True) & ~models.Q(bot_level="")
                ),
                name="games_seat_kind_matches_occupant",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}: {self.occupant_name}"

    @property
    def is_filled(self) -> bool:
        return self.kind in (Seat.Kind.PLAYER, Seat.Kind.BOT)

    @property
    def occupant_name(self) -> str:
        """What other players see: a member's display name, the bot's level, or the state;
        "for" whom they play, if anyone ("Hank for Frank", "Bot (normal) for Gina")."""
        if self.kind == Seat.Kind.BOT:
            bot = f"Bot ({self.get_bot_level_display().lower()})"
            played_for = self.replaced_user or self.plays_for
            return bot if played_for is None else f"{bot} for {played_for}"
        if self.kind == Seat.Kind.PLAYER and self.user is not None:
            return str(self.user) if self.plays_for is None else f"{self.user} for {self.plays_for}"
        if self.kind == Seat.Kind.RESERVED and self.user is not None:
            return f"{self.user} (invited)"
        return "Open seat"


SOONEST_DUE = (Least("turn_deadline", "table__settles_at").asc(nulls_last=True), "pk")
"""The order of the games awaiting a member: the soonest deadline first (the turn's, or
the table's settling when it comes first: a league fixture's)."""


class GameQuerySet(models.QuerySet["Game"]):
    def active(self) -> GameQuerySet:
        """Games in play."""
        return self.filter(status=Game.Status.PLAYING)

    def finished(self) -> GameQuerySet:
        return self.filter(status=Game.Status.FINISHED)

    def on_public_tables(self) -> GameQuerySet:
        """Games of tables that are not private: what anyone may be shown to watch."""
        return self.filter(table__private=False)

    def played_by(self, user: User) -> GameQuerySet:
        """Games at tables where ``user`` has taken a seat."""
        return self.filter(table__seats__user=user, table__seats__kind=Seat.Kind.PLAYER)

    def awaiting(self, user: User) -> GameQuerySet:
        """Games where it is ``user``'s turn."""
        return self.awaiting_any([user.pk])

    def awaiting_any(self, user_ids: Iterable[int]) -> GameQuerySet:
        """Games where it is the turn of one of the members ``user_ids`` (a game appears
        once per member whose turn it is: ``table__seats__user_id`` says whose)."""
        # One filter() call: the three conditions must hold for the same seat row.
        return self.filter(
            table__seats__user_id__in=list(user_ids),
            table__seats__kind=Seat.Kind.PLAYER,
            table__seats__number=F("current_seat"),
        )

    def your_move(self, user: User) -> GameQuerySet:
        """Games in play where it is ``user``'s turn, the soonest deadline first (the
        turn's, or the table's settling when it comes first: a league fixture's)."""
        return self.active().awaiting(user).order_by(*SOONEST_DUE)


class Game(models.Model):
    """One game of a table's round, with its engine state cached as JSON."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="Its place in the round, from 1.")
    ruleset = models.JSONField(help_text="Ruleset.to_dict() of the game.")
    # Secret: the seed deals the racks and orders the pool.
    seed = models.CharField(max_length=100)
    starting_seat = models.PositiveSmallIntegerField()
    start_drawn = models.BooleanField(
        default=False,
        help_text="True when a draw for the first player chose starting_seat (the first game "
        "of a round): the game then replays with starting_player=None.",
    )
    # Secret: every rack and the pool order. Only the services read it, through
    # engine_state(); pages see engine.views.view_for / spectator_view.
    state = models.JSONField(help_text="GameState.to_dict(): racks and pool. Never rendered.")
    version = models.PositiveIntegerField(
        default=0, help_text="The number of moves committed; clients send it back with a move."
    )
    # Not mixed into ``version``: a move is refused as stale by its version, and a clock
    # change must not make a player's move stale.
    live_version = models.PositiveIntegerField(
        default=0,
        help_text="Counts the changes the live page shows that are no move (a clock moved, "
        "a hold, a seat handed over, a result corrected); a page says it when its socket "
        "connects.",
    )
    turn_number = models.PositiveIntegerField(default=1)
    current_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Whose turn it is; empty once the game is over."
    )
    turn_started_at = models.DateTimeField()
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # The zone is the one the mover had when the turn started: changing it mid-turn moves
    # no deadline, so nobody stretches a weekend by crossing the date line on Sunday night.
    turn_zone = models.CharField(
        max_length=64,
        blank=True,
        help_text="The zone whose weekends stop this turn's clock (the mover's at the turn's "
        "start); empty when the table does not pause on weekends.",
    )
    turn_reminder_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When to warn the player that time is running out; empty once warned "
        "(and for live games and bots).",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # How the game ended as played (the engine's record, equal to the replay's); what
    # it counts for in the round is its current Result rows, which a ruling may change.
    outcome = models.JSONField(null=True, blank=True, help_text="engine Outcome.to_dict().")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    held_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When a moderator held the game's clocks (a case is open); empty when "
        "the game runs. While held nobody moves and no deadline passes.",
    )
    held_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="What was left of the turn's clock when it was held (empty: no deadline).",
    )

    # Deleting the table or game deletes the notifications about it.
    notifications = GenericRelation(
        "notifications.Notification",
        content_type_field="subject_type",
        object_id_field="subject_id",
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="games_game_unique_number"),
        ]
        indexes = [
            # The sweeps' one query each: games in play whose deadline (or reminder) is due.
            models.Index(fields=["status", "turn_deadline"], name="games_game_deadline_due"),
            models.Index(fields=["status", "turn_reminder_at"], name="games_game_reminder_due"),
            # "Games to watch" (the lobby): the newest turns of the games in play, read in
            # order from the index's head instead of sorting every game in play.
            models.Index(fields=["status", "-turn_started_at"], name="games_game_latest_turn"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} of table {self.table_id}"

    @property
    def is_over(self) -> bool:
        return self.status == Game.Status.FINISHED

    def engine_ruleset(self) -> Ruleset:
        return Ruleset.from_dict(self.ruleset)

    def engine_state(self) -> GameState:
        """The cached state. Secret: hand only views of it to anything that renders.

        Decoded once per loaded row: a move's request locks the game, applies the move
        and renders the answer from the same object (the engine's states are frozen).
        """
        decoded = self.__dict__.get("_decoded")
        if decoded is not None and decoded[0] is self.state:
            return decoded[1]  # type: ignore[no-any-return]
        state = GameState.from_dict(self.state)
        self.__dict__["_decoded"] = (self.state, state)
        return state

    def set_engine_state(self, state: GameState) -> None:
        """Store ``state`` in the cached-state field (not saved)."""
        self.state = state.to_dict()
        self.__dict__["_decoded"] = (self.state, state)

    def replay_state(self) -> GameState:
        """The state rebuilt from the seed and the move log (the cache must equal it)."""
        moves = [(move.seat, move.engine_action()) for move in self.moves.order_by("seq")]
        start = None if self.start_drawn else self.starting_seat
        return replay(self.engine_ruleset(), self.seed, moves, start)


class AppendOnlyModel(models.Model):
    """A row that is inserted once and then never changed or deleted.

    :meth:`save` refuses a row that is already saved, and :meth:`delete` refuses always;
    each raises ``refusal`` with the model's own sentence (``not_changed``,
    ``not_deleted``). The model's QuerySet refuses the bulk ``update`` and ``delete``.
    """

    refusal: ClassVar[type[Exception]]
    not_changed: ClassVar[str]
    not_deleted: ClassVar[str]

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise self.refusal(self.not_changed)
        # An insert even when the primary key is set: never an UPDATE of a logged row.
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise self.refusal(self.not_deleted)


class MoveLogError(Exception):
    """Somebody tried to change or delete a logged move."""


class MoveQuerySet(models.QuerySet["Move"]):
    """Moves are append-only (see :class:`games.models.Move`): bulk changes are refused."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise MoveLogError("the move log is append-only: moves cannot be updated")

    def delete(self) -> NoReturn:
        raise MoveLogError("the move log is append-only: moves cannot be deleted")


class Move(AppendOnlyModel):
    """One committed action, in order. The log is append-only.

    The game's cached state must always equal ``engine.game.replay`` of this log, and
    a finished game's history is its evidence (disputes, reviews, the replay viewer). So
    a move, once saved, is never updated or deleted: :meth:`save` refuses an existing
    row, :meth:`delete` and the QuerySet's ``update``/``delete`` refuse always, and the
    foreign key to the game PROTECTs it, so a game with moves cannot be deleted either.
    (Raw SQL can still do anything; nothing in this project uses it on moves.)
    """

    class By(models.TextChoices):
        USER = "user", "Player"
        BOT = "bot", "Bot"
        TIMEOUT = "timeout", "Turn clock"
        RULING = "ruling", "Ruling (a deadline or a moderator)"
        # The player's own draw, made for them by their standing order on a turn the
        # solver proved had no play (a ForcedTurn row holds the proof). The others are
        # told it as any draw; the player and the moderators see it was automatic.
        ORDER = "order", "Player's standing order (a forced turn drawn for them)"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    seq = models.PositiveIntegerField(help_text="1, 2, ...: the game's version after it.")
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(help_text="The engine action's to_dict().")
    turn_number = models.PositiveIntegerField(help_text="The turn the move was made in.")
    by = models.CharField(max_length=10, choices=By.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MoveQuerySet.as_manager()
    refusal = MoveLogError
    not_changed = "the move log is append-only: a saved move cannot be changed"
    not_deleted = "the move log is append-only: a move cannot be deleted"

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="games_move_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of game {self.game_id}: seat {self.seat} {self.action['type']}"

    def engine_action(self) -> Action:
        return action_from_dict(self.action)


class ForcedTurn(models.Model):
    """A member's turn that the exact solver proved had no legal play (within its
    budget: a proof cut short writes nothing), found when the turn started.

    It is what lets the draw be made for a member who asked for it (``drawn_for_them``
    once made, by a move of :attr:`Move.By.ORDER`), and what the game page offers that
    standing order from, once the member drew on such a turn themselves. Secret like a
    rack (it says the rack held no play): shown to its member and moderators only.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="forced_turns")
    turn_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="forced_turns"
    )
    version = models.PositiveIntegerField(help_text="The game's version the proof was made at.")
    steps = models.PositiveIntegerField(help_text="The solver's work for the proof.")
    proven_at = models.DateTimeField(auto_now_add=True)
    draw_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the standing order draws (empty: the member gave none); not before.",
    )
    drawn_for_them = models.BooleanField(
        default=False, help_text="Whether the draw was made for them by their standing order."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "turn_number", "version"], name="games_forcedturn_once"
            ),
        ]
        indexes = [
            # The sweep's one query: draws planned and not made, by their moment.
            models.Index(
                fields=["draw_at"],
                condition=Q(drawn_for_them=False, draw_at__isnull=False),
                name="games_forcedturn_draw_due",
            ),
        ]

    def __str__(self) -> str:
        return f"turn {self.turn_number} of game {self.game_id} had no play (seat {self.seat})"


class OccupancyLogError(Exception):
    """Somebody tried to change or delete a seat's occupancy record (add a new one)."""


class SeatOccupancy(AppendOnlyModel):
    """Who plays a seat of one game from one of its moves on: the record of who played.

    A game gets one row per seat when it starts (who sits there then), and one more each
    time the seat changes hands while it is in play: a substitute seated by an authority
    above the table (:func:`games.services.lobby.replace_seat_player`) or a bot taking
    over (:func:`games.services.abandonment.hand_seat_to_bot`, a forfeit to a bot). The
    row with the highest ``from_move`` not after a move is who made it
    (:mod:`games.selectors.players`); rows are never changed, so a finished game names
    who played it whoever sits in the table's seat later.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="occupancy")
    seat = models.PositiveSmallIntegerField()
    from_move = models.PositiveIntegerField(
        help_text="The first move (its seq) they play: 1 from the start of the game."
    )
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The member who plays the seat; empty for a bot.",
    )
    bot_level = models.CharField(max_length=10, choices=BotLevel.choices, blank=True)
    plays_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The member they took the seat over from: a substitute's or a bot's.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    refusal = OccupancyLogError
    not_changed = "who played a seat is history: record a new occupancy instead"
    not_deleted = "who played a seat is history: it cannot be deleted"

    class Meta:
        ordering = ["game", "seat", "from_move", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(member__isnull=False, bot_level="")
                    | models.Q(member__isnull=True) & ~models.Q(bot_level="")
                ),
                name="games_occupancy_member_or_bot",
            ),
            models.CheckConstraint(
                condition=models.Q(from_move__gte=1), name="games_occupancy_from_a_move"
            ),
        ]
        indexes = [
            models.Index(fields=["member", "game"], name="games_occupancy_member"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat} from move {self.from_move}: {self.name}"

    @property
    def name(self) -> str:
        """What the seat's player is called: "Frank", "Hank for Frank", "Bot (normal)" or
        "Bot (normal) for Gina"."""
        who = str(self.member) if self.member_id is not None else self.bot_name
        return who if self.plays_for_id is None else f"{who} for {self.plays_for}"

    @property
    def bot_name(self) -> str:
        return f"Bot ({self.get_bot_level_display().lower()})"


class ResultLogError(Exception):
    """Somebody tried to change or delete a result row (supersede it instead)."""


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
        return self.current().exclude(source=Result.Source.VOID)

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
        if table.status != Table.Status.FINISHED:
            return None
        return self.tally(table).winner

    def update(self, **kwargs: Any) -> NoReturn:
        raise ResultLogError("result rows are never changed: supersede them")

    def delete(self) -> NoReturn:
        raise ResultLogError("result rows are never deleted: supersede them")


@pghistory.track()
class Result(AppendOnlyModel):
    """What one seat scored in one finished game: the only record of a game's result.

    A played game gets one row per seat (``source`` played) when it ends. A correction
    (a moderator's ruling, a league's adjudication) never changes a row: it writes new
    rows, each ``supersedes`` the seat's row it replaces, which stays for the audit.
    The *current* row of a seat is the one nothing supersedes; the round's totals,
    standings and winner are derived from current rows (:class:`ResultQuerySet`), except
    those of a voided game (``source`` void), which count for nobody.

    Why the chain and not a "current" flag: a flag has to be cleared on the old row (an
    update, so rows would not be append-only) and the database can only say "at most
    one" flagged row. Here rows are only ever inserted, and the constraints make each
    (game, seat) one chain: a single original row (the partial unique constraint), each
    row superseded at most once (``supersedes`` is unique), and, on PostgreSQL, a row
    supersedes only an older row of its own game and seat (constraints added by the
    migration), so every chain has exactly one current row at its end.

    Every row written (and any change made by hand in SQL) is also recorded as a
    pghistory event with the context of the request or job that wrote it (who, why),
    which the moderation pages show where a ruling changed a result.
    """

    class Source(models.TextChoices):
        PLAYED = "played", "Played"
        RULING = "ruling", "Ruling"
        # A voided game counts for nobody: its rows stay (a later ruling may restore
        # them), but round totals and league standings read only counting rows.
        VOID = "void", "Void (counts for nobody)"
        # The played result back, when the ruling that changed it is undone: the rows
        # are new (history stays), but they correct nothing.
        RESTORED = "restored", "Played (restored)"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="results")
    seat = models.PositiveSmallIntegerField()
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="results",
        help_text="The member who played the seat; empty for a bot.",
    )
    score = models.IntegerField(help_text="What the game adds to the seat's round total.")
    rack_value = models.PositiveIntegerField(help_text="The value left on the seat's rack.")
    place = models.PositiveSmallIntegerField(help_text="The seat's place in the game, from 1.")
    is_winner = models.BooleanField(default=False)
    source = models.CharField(max_length=16, choices=Source.choices)
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
        help_text="The row of the same game and seat that this one replaces.",
    )
    reason = models.TextField(blank=True, help_text="Why a ruling changed the result.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who made the ruling (empty for a played result or an automatic one).",
    )
    created_at = models.DateTimeField()

    objects = ResultQuerySet.as_manager()
    refusal = ResultLogError
    not_changed = "a result row is never changed: supersede it with a new one"
    not_deleted = "a result row is never deleted: supersede it with a new one"

    class Meta:
        ordering = ["game", "seat", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=models.Q(supersedes__isnull=True),
                name="games_result_one_original_per_seat",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(source="played", supersedes__isnull=True, reason="")
                    | (
                        ~models.Q(source="played")
                        & models.Q(supersedes__isnull=False)
                        & ~models.Q(reason="")
                    )
                ),
                name="games_result_rulings_supersede_with_a_reason",
            ),
        ]
        indexes = [models.Index(fields=["member", "game"], name="games_result_member")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.score} ({self.source})"


# Every save of a draft is kept (the draft row itself is deleted when its turn ends), so
# that a dispute's evidence can show what a player built and abandoned. Secret like a
# rack: only a case's moderator reads these events.
@pghistory.track(
    pghistory.InsertEvent(),
    pghistory.UpdateEvent(),
    fields=["game", "seat", "turn_number", "table"],
    model_name="DraftEvent",
    obj_field=pghistory.ObjForeignKey(related_name="events"),
)
class Draft(models.Model):
    """The table a player is building during the current turn, saved as they work.

    ``table`` is a list of sets of tile notation. A draft belongs to one turn: one whose
    ``turn_number`` is older than the game's is stale and counts as no draft at all.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="drafts")
    seat = models.PositiveSmallIntegerField()
    turn_number = models.PositiveIntegerField()
    table = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="games_draft_one_per_seat"),
        ]

    def __str__(self) -> str:
        return f"draft of seat {self.seat} in game {self.game_id} (turn {self.turn_number})"


class ChatMessage(models.Model):
    """One line said at a table: the table's chat, kept with the table and its game.

    Players of a table talk to each other; spectators read them and, while a live game is
    in play, talk among themselves apart (``audience`` spectators), so that nobody can
    coach a player in the middle of a game. A message is escaped when rendered, never
    edited; a moderator may hide it (it stays for the evidence of a case).
    """

    class Audience(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_messages")
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chat_messages",
        help_text="The game in play when it was said (empty before the round starts).",
    )
    turn_number = models.PositiveIntegerField(
        null=True, blank=True, help_text="The turn of that game when it was said."
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    audience = models.CharField(max_length=12, choices=Audience.choices, default=Audience.PLAYERS)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(
        null=True, blank=True, help_text="When a moderator hid it from the table."
    )

    class Meta:
        ordering = ["table", "created_at", "pk"]
        indexes = [
            models.Index(fields=["table", "audience", "created_at"], name="games_chat_table"),
            models.Index(fields=["author", "created_at"], name="games_chat_author"),
        ]

    def __str__(self) -> str:
        return f"message {self.pk} of {self.author} at table {self.table_id}"


class ChatMute(models.Model):
    """A member who no longer wants to read another member's chat, at any table."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="games_chatmute_once"),
            models.CheckConstraint(
                condition=~models.Q(muter=models.F("muted")), name="games_chatmute_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.muter} muted {self.muted}"


class PageConnection(models.Model):
    """One open page of a game by a player, from its socket's connect to its close.

    Read only by the moderators of a case about the game, beside a disputed timeout
    (never by a player: presence is nobody else's business). Bounded: each player keeps
    the newest :data:`games.page_connections.KEPT_PER_GAME` of a game, and rows
    older than ``GAMES_CONNECTION_DAYS`` are pruned by the beat job."""

    # No foreign key constraints in the database: a socket's record must never wait for a
    # lock on the game's or the member's row (a move holds the game's), nor hold one.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    seat = models.PositiveSmallIntegerField(help_text="The engine's seat, from 0.")
    connected_at = models.DateTimeField()
    seen_at = models.DateTimeField(
        help_text="The page's last heartbeat: where a connection never closed (its server "
        "died) is taken to have ended."
    )
    disconnected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["game", "seat", "connected_at"], name="games_pageconn_game"),
            models.Index(fields=["connected_at"], name="games_pageconn_age"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of game {self.game_id} from {self.connected_at:%Y-%m-%d %H:%M}"


class HelpAsked(models.Model):
    """A player asked the solver for help on a turn: a hint, or "arrange for me" (once
    per kind and turn, with how many times). The evidence of a case shows it."""

    class Kind(models.TextChoices):
        HINT = "hint", "a hint"
        ARRANGE = "arrange", "\u201carrange for me\u201d"

    # No foreign key constraint in the database: checking one would share-lock the
    # game's row, and a hint is answered without waiting for a move holding it.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    seat = models.PositiveSmallIntegerField()
    turn_number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    times = models.PositiveIntegerField(default=1)
    first_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "turn_number", "seat", "kind"], name="games_helpasked_once"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} asked for {self.kind} in turn {self.turn_number}"


class Vacation(models.Model):
    """A stretch of time when a member's correspondence clocks stand still.

    Times are ``[starts_at, ends_at)``. A vacation ends early (``ends_at`` moves to
    the moment) when the member makes a move in a correspondence game, or asks to.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="games_vacation_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["user", "ends_at"], name="games_vacation_user_end")]

    def __str__(self) -> str:
        when = f"{self.starts_at:%Y-%m-%d %H:%M} to {self.ends_at:%Y-%m-%d %H:%M}"
        return f"vacation of {self.user}: {when}"
