"""Clubs, their leagues, and the leagues' seasons of scheduled fixtures.

A :class:`Club` has members with a role (:class:`Membership`); people join by an
invitation (:class:`ClubInvitation`: by username, or the club's invitation link) or by a
request an organiser approves (:class:`JoinRequest`). A :class:`League` of a club holds
its house rules (:class:`HouseRules`: the table settings of its fixtures, seats, scoring,
tiebreaks and the rules for deadlines, withdrawals and vacations). Each
:class:`Season` copies the league's house rules when it is created, so that changing the
league changes the next season, never one under way.

A season's players are its :class:`Entry` rows (registered, then placed in a
:class:`Division`). When the season starts its schedule is written as :class:`Matchday`
rows, each with its :class:`Fixture` rows (one table of ``seats`` players, in seat
order: :class:`FixtureSeat`); a player of the division sitting at no fixture of a
matchday has a bye. A fixture's ``table`` (a :class:`games.models.Table` with its seats
reserved for the fixture's players) is created when its matchday opens.

Nothing here stores a score. Standings are derived from the current
:class:`games.models.Result` rows of the fixtures' games (:mod:`leagues.selectors`),
through the fixture's seats: a result counts for the entry sitting in that seat, so a
bot or a substitute playing the seat plays it for the entry.

The rows that shape standings keep their history (django-pghistory): every insert and
update of a season, division, entry, matchday or fixture is an event row with the
request's user and the organiser's reason in its context.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

import pghistory
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower

from games.models import BotLevel, Table
from leagues.divisions import division_names

TIEBREAKS = {
    "fixtures_won": "Fixtures won",
    "games_won": "Games won",
    "head_to_head": "Head-to-head",
    "total_score": "Total score",
}
"""The named tiebreaks a league may order, with their labels; what each means is said
on the standings page (:mod:`leagues.standings`)."""

DEFAULT_TIEBREAKS = ["games_won", "head_to_head", "total_score"]


def new_invite_code() -> str:
    """A club's invitation link's secret part."""
    return secrets.token_urlsafe(16)


class Club(models.Model):
    """A club: its members play in its leagues."""

    name = models.CharField(max_length=80)
    slug = models.SlugField(
        max_length=50, unique=True, help_text="The club's address: /clubs/<slug>/."
    )
    description = models.TextField(blank=True, max_length=2000)
    is_private = models.BooleanField(
        default=False,
        help_text="A private club's pages are seen by its members only; anyone may find "
        "a public one and ask to join.",
    )
    invite_code = models.CharField(
        max_length=32,
        default=new_invite_code,
        help_text="The secret of the club's invitation link; a new one voids the old link.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"),
                name="leagues_club_unique_name",
                violation_error_message="A club of that name exists already.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    """What a member may do in a club (each role may do all the next one may)."""

    OWNER = "owner", "Owner"
    ORGANISER = "organiser", "Organiser"
    MODERATOR = "moderator", "Moderator"
    MEMBER = "member", "Member"


class Membership(models.Model):
    """A member of a club, with their role. A club has exactly one owner."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="leagues_membership_unique"),
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(role="owner"),
                name="leagues_membership_one_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.get_role_display().lower()})"


class Pending(models.TextChoices):
    """Where an invitation or a request to join stands."""

    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    WITHDRAWN = "withdrawn", "Withdrawn"


class Admission(models.Model):
    """What invitations and requests to join share: a club, a member, a status."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Pending.choices, default=Pending.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="%(app_label)s_%(class)s_one_pending",
                violation_error_message="One at a time: the last one is still pending.",
            ),
        ]


class ClubInvitation(Admission):
    """An organiser's invitation of a member by username (they are notified)."""

    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.user} invited to {self.club} ({self.status})"


class JoinRequest(Admission):
    """A member's request to join a club; an organiser approves or declines it."""

    message = models.TextField(blank=True, max_length=500)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.club} ({self.status})"


class Scoring(models.TextChoices):
    CUMULATIVE = "cumulative", "Cumulative game scores"
    PLACEMENT = "placement", "Placement points per fixture"


class OnDeadline(models.TextChoices):
    """How a fixture still unfinished at its matchday's deadline is settled."""

    AS_IT_STANDS = (
        "as_it_stands",
        ("Finished games count; the unfinished game is scored as it stands"),
    )
    TIMED_OUT_FORFEIT = (
        "timed_out_forfeit",
        ("The player whose turn it is forfeits the unfinished game"),
    )


class OnWithdrawal(models.TextChoices):
    """What becomes of a withdrawn player's unplayed fixtures."""

    BOT = "bot", "A bot takes their seat"
    FORFEIT = "forfeit", "The fixture is played without them; they score as forfeiting"


WITHDRAWN_SEAT_BOT_LEVEL = BotLevel.NORMAL
"""The bot that plays a withdrawn player's seat under :attr:`OnWithdrawal.BOT`."""


class OnSuspension(models.TextChoices):
    """What becomes of a suspended player's seat at the season's running fixtures (and
    at those a matchday opens while the suspension holds)."""

    BOT = "bot", "A bot takes their seat for the rest of the fixture"
    FORFEIT = "forfeit", "They forfeit each game of the fixture played while suspended"


class HouseRules(models.Model):
    """How a league plays, kept by the league and copied by each season.

    ``table_settings`` is a :class:`games.models.table_settings.TableSettings` as JSON: rules
    preset and house rules, clock, time bank, games per fixture (``games_in_round``;
    empty: one per seat) and forfeits.
    """

    seats = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    table_settings = models.JSONField(help_text="TableSettings.to_dict() of every fixture.")
    scoring = models.CharField(max_length=12, choices=Scoring.choices, default=Scoring.CUMULATIVE)
    placement_points = models.JSONField(
        default=list,
        blank=True,
        help_text="Points for 1st, 2nd, ... place in a fixture (placement scoring).",
    )
    tiebreaks = models.JSONField(
        default=list, help_text="Names of TIEBREAKS, in the order they break ties."
    )
    registration_approval = models.BooleanField(
        default=False, help_text="An organiser approves each registration."
    )
    division_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Players per division; empty: everyone in one division.",
    )
    promotion = models.PositiveSmallIntegerField(
        default=2, help_text="Players promoted and relegated between divisions each season."
    )
    matchday_days = models.PositiveSmallIntegerField(
        default=7,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text="Days from a matchday's opening to its deadline.",
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=7, help_text="Vacation days a player may take in a season."
    )
    vacations_extend = models.BooleanField(
        default=True,
        help_text="A player's vacation during a matchday extends their fixture's deadline by "
        "the days it overlaps the matchday (at most the matchday's length); else the fixture "
        "keeps its deadline and the close preview names the player.",
    )
    on_deadline = models.CharField(
        max_length=20, choices=OnDeadline.choices, default=OnDeadline.AS_IT_STANDS
    )
    on_withdrawal = models.CharField(
        max_length=10, choices=OnWithdrawal.choices, default=OnWithdrawal.BOT
    )
    on_suspension = models.CharField(
        max_length=10, choices=OnSuspension.choices, default=OnSuspension.BOT
    )

    class Meta:
        abstract = True

    HOUSE_RULES = (
        "seats",
        "table_settings",
        "scoring",
        "placement_points",
        "tiebreaks",
        "registration_approval",
        "division_size",
        "promotion",
        "matchday_days",
        "vacation_days",
        "vacations_extend",
        "on_deadline",
        "on_withdrawal",
        "on_suspension",
    )

    def house_rules(self) -> dict[str, Any]:
        """The house rules as keywords, to copy into a season."""
        return {name: getattr(self, name) for name in self.HOUSE_RULES}


class League(HouseRules):
    """A competition of a club, played season after season."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=50)
    description = models.TextField(blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="leagues_league_unique_slug"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


@pghistory.track()
class Season(HouseRules):
    """One season of a league: registration, then matchdays, then final standings.

    The default orderings here go by the parent's id, not through the relation: ordering
    through a relation joins the parent and takes its ordering, and two such paths to
    one table (a fixture's matchday and division both lead to the season) make Django
    refuse the query."""

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration open"
        READY = "ready", "Registration closed"
        RUNNING = "running", "Under way"
        FINISHED = "finished", "Finished"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField(help_text="1, 2, ... within the league.")
    previous = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next",
        help_text="The season whose final standings seed this one's divisions.",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    registration_closes_at = models.DateTimeField(
        null=True, blank=True, help_text="When registration closes by itself (empty: by hand)."
    )
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="When the first matchday opens (empty: by hand)."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    per_game = models.BooleanField(
        default=False,
        help_text=(
            "Standings rank by points per game played (per fixture under placement "
            "points): the length chosen at the start gives players unequal numbers of "
            "fixtures."
        ),
    )
    start_failed_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the season could not start at its starts_at; the beat job leaves "
        "it to an organiser from then on (starting it clears this).",
    )
    start_failure = models.TextField(
        blank=True, help_text="Why the season could not start at its time."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    closes_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the beat job closes the season: announced by an organiser from the "
        "close preview, at least the grace period after its last deadline (empty: only an "
        "organiser's confirmation closes it).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "number"], name="leagues_season_unique_number"
            ),
            models.UniqueConstraint(
                fields=["league"],
                condition=~models.Q(status="finished"),
                name="leagues_season_one_unfinished",
                violation_error_message="A league has one season at a time.",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league.name}, season {self.number}"


@pghistory.track()
class Division(models.Model):
    """A group of a season's players who play each other; level 1 is the top."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    level = models.PositiveSmallIntegerField(help_text="1 is the top division.")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["season_id", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="leagues_division_unique"),
        ]

    def __str__(self) -> str:
        if self.name == division_names(1)[0]:
            # The season's only division: "Winter league, season 1", not "Division of ...".
            return str(self.season)
        return f"{self.name} of {self.season}"


@pghistory.track()
class Entry(models.Model):
    """A member's place in a season: a registration, then a player of a division."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approval"
        REGISTERED = "registered", "Registered"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_entries"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REGISTERED)
    division = models.ForeignKey(
        Division,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entries",
        help_text="Set when the season starts.",
    )
    seed = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The player's place in the division's seeding, from 1."
    )
    substitute = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="league_substitutions",
        help_text="The member who plays this entry's fixtures from now on.",
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    final_rank = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Where the player finished in their division when the season closed, as "
        "they were told (a later ruling does not change it; the standings show it).",
    )

    class Meta:
        ordering = ["season_id", "division_id", "seed", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="leagues_entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.season} ({self.get_status_display().lower()})"

    @property
    def player(self) -> Any:
        """Who sits at this entry's fixtures: the substitute if there is one."""
        return self.substitute or self.user

    @property
    def label(self) -> str:
        """The entry in a list of the season's players: "Frank (played by Hank)"."""
        if self.substitute is not None:
            return f"{self.user} (played by {self.substitute})"
        return str(self.user)

    @property
    def seat_name(self) -> str:
        """Who will play the entry's seat at a fixture not yet played: "Hank for Frank",
        "Bot (normal) for Frank" once Frank withdrew under the bot rule (a game played
        names who played it: :mod:`games.selectors.players`; a fixture's table is set up
        so, :func:`leagues.services.withdrawals.seat_plan_for`)."""
        if self.status == Entry.Status.WITHDRAWN and self.season.on_withdrawal == OnWithdrawal.BOT:
            return f"Bot ({WITHDRAWN_SEAT_BOT_LEVEL.label.lower()}) for {self.user}"
        if self.substitute is not None:
            return f"{self.substitute} for {self.user}"
        return str(self.user)


@pghistory.track()
class Matchday(models.Model):
    """One round of a season's fixtures, all due by the same deadline."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="matchdays")
    number = models.PositiveSmallIntegerField(help_text="1, 2, ... within the season.")
    opens_at = models.DateTimeField()
    deadline = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    reminded_at = models.DateTimeField(
        null=True, blank=True, help_text="When players with unfinished games were reminded."
    )

    class Meta:
        ordering = ["season_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="leagues_matchday_unique"),
            models.CheckConstraint(
                condition=models.Q(deadline__gt=models.F("opens_at")),
                name="leagues_matchday_deadline_after_opening",
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="leagues_matchday_due")]

    def __str__(self) -> str:
        return f"matchday {self.number} of {self.season}"


@pghistory.track()
class Fixture(models.Model):
    """One table of a matchday in a division: its players' seats and, once the matchday
    opens, the games table they play at."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        SETTLED = "settled", "Settled at the deadline"

    matchday = models.ForeignKey(Matchday, on_delete=models.CASCADE, related_name="fixtures")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    table = models.OneToOneField(
        Table,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="fixture",
        help_text="The games table, created when the matchday opens.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="This fixture's own deadline, if it was rescheduled."
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=0,
        help_text="Days its deadline is extended for its players' vacations during its "
        "matchday (derived from their vacations, under the season's vacations_extend).",
    )
    note = models.TextField(blank=True, help_text="How it was settled or rescheduled, and why.")

    class Meta:
        ordering = ["matchday_id", "division_id", "pk"]

    def __str__(self) -> str:
        return f"fixture {self.pk} of {self.matchday}"

    @property
    def due_at(self) -> datetime:
        """When it must be finished: its own deadline, else its matchday's, extended by
        its players' vacations."""
        base = self.deadline or self.matchday.deadline
        return base + timedelta(days=self.vacation_days)


class FixtureSeat(models.Model):
    """Which entry plays seat ``number`` of a fixture (the table's seat of that number)."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="fixture_seats")

    class Meta:
        ordering = ["fixture_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "number"], name="leagues_fixture_seat_unique_number"
            ),
            models.UniqueConstraint(
                fields=["fixture", "entry"], name="leagues_fixture_seat_unique_entry"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of fixture {self.fixture_id}: {self.entry.user}"


@pghistory.track()
class ScoreAdjustment(models.Model):
    """An organiser's change of what one seat scored in a finished game of a fixture: a
    ruling in all but name. It waits ``proposed`` for a second organiser or moderator of
    the club (one who plays in no way in the fixture, nor is a party to a case about the
    game), who confirms or declines it; where nobody else could, it is applied at once.
    Applying it supersedes the seat's result row (the result rows keep the old one);
    this row keeps who proposed it, who decided it, and why."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Awaiting a second organiser"
        CONFIRMED = "confirmed", "Confirmed by a second organiser"
        DECLINED = "declined", "Declined by a second organiser"
        APPLIED = "applied", "Applied at once: nobody else could confirm it"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="adjustments")
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="adjustments")
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField(help_text="The engine's seat, from 0.")
    score_before = models.IntegerField(help_text="The seat's score when it was proposed.")
    score = models.IntegerField(help_text="The score it sets.")
    reason = models.TextField(max_length=500)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="The second organiser or moderator who confirmed or declined it.",
    )
    decision_note = models.TextField(blank=True, max_length=500)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season_id", "-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="proposed"),
                name="leagues_adjustment_one_proposed_per_game",
            ),
            models.CheckConstraint(
                condition=models.Q(decided_by__isnull=True)
                | ~models.Q(decided_by=models.F("proposed_by")),
                name="leagues_adjustment_decided_by_another",
            ),
        ]

    def __str__(self) -> str:
        return f"score of seat {self.seat + 1} in game {self.game_id}: {self.score}"


def new_calendar_token() -> str:
    """A calendar feed address's secret part."""
    return secrets.token_urlsafe(24)


class CalendarToken(models.Model):
    """The secret in a member's calendar feed address (``/clubs/calendar/<token>.ics``):
    whoever has the address reads the member's fixtures and deadlines, so a new token
    voids the old address."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_calendar"
    )
    token = models.CharField(max_length=64, unique=True, default=new_calendar_token)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar feed of {self.user}"
