"""Disputes and their settlement: cases, the reports that file them, rulings, suspensions,
appeals, and the moderation log.

A member *reports* a game (or a chat message of it) under a category; the reports of one
game and category while it is open are one :class:`Case`, whose priority grows with its
filers. A moderator claims the case, studies the evidence, and makes a :class:`Ruling`. A
ruling that changes results goes through the games app's results service (new result rows
supersede the old ones), so rounds and league standings follow; a later ruling can
supersede an earlier one and undo it. Everything done is written to the
:class:`LogEntry` table, which the database itself refuses to update or delete.

Who may moderate what lives in :mod:`moderation.permissions`: site moderators (the
:data:`SITE_MODERATORS` group) see every case, a club's moderators the cases of its
league games; nobody may take a case they are a party to.
"""

from __future__ import annotations

from typing import Any

import pghistory
import pgtrigger
from django.conf import settings
from django.db import models

from moderation import log_chain

SITE_MODERATORS = "Site moderators"
SITE_FORMAT = "D j M Y, H:i T"
"""How moderation's pages and sentences write a moment (templates: ``date:"D j M Y, H:i T"``)."""
"""The name of the staff group whose members moderate every case of the site."""


class Category(models.TextChoices):
    """What a report complains of; the order is the severity (most severe first)."""

    COLLUSION = "collusion", "Suspected collusion"
    BUG = "bug", "A bug: my move was refused or went wrong"
    CLOCK = "clock", "Wrong timeout or clock"
    STALLING = "stalling", "Stalling or abandonment"
    ABUSE = "abuse", "Abusive chat"
    OTHER = "other", "Other"


@pghistory.track()
class Case(models.Model):
    """One dispute about one game under one category: the reports that filed it, the
    moderator who took it, and its rulings.

    While a case is open, later reports of the same game and category join it (the
    partial unique constraint) and raise its priority.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DECIDED = "decided", "Decided"

    class Escalation(models.TextChoices):
        NONE = "", "Not escalated"
        CLUB_OWNER = "club_owner", "The club's owner"
        SITE = "site", "The site moderators"

    game = models.ForeignKey(
        "games.Game", on_delete=models.PROTECT, related_name="moderation_cases"
    )
    category = models.CharField(max_length=12, choices=Category.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    club = models.ForeignKey(
        "leagues.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_cases",
        help_text="The club whose league the game is part of; empty for a casual game "
        "(site moderators only).",
    )
    fixture = models.ForeignKey(
        "leagues.Fixture",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_cases",
        help_text="The league fixture the game is part of, if any.",
    )
    turn_number = models.PositiveIntegerField(
        null=True, blank=True, help_text="The turn the first report is about."
    )
    message = models.ForeignKey(
        "games.ChatMessage",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_cases",
        help_text="The chat message reported, for a case about one.",
    )
    accused = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_cases_against",
        help_text="The member the case is against, when the reports name one.",
    )
    opened_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_claims",
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    claim_seen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the claiming moderator last opened the case; the claim lapses "
        "after MODERATION_CLAIM_MINUTES unseen.",
    )
    escalation = models.CharField(
        max_length=12, choices=Escalation.choices, default=Escalation.NONE, blank=True
    )
    escalated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "category"],
                condition=models.Q(status="open"),
                name="moderation_case_one_open_per_game_category",
                violation_error_message="This game already has an open case of this kind.",
            ),
            models.CheckConstraint(
                condition=models.Q(claimed_by__isnull=True, claimed_at__isnull=True)
                | models.Q(claimed_by__isnull=False, claimed_at__isnull=False),
                name="moderation_case_claim_has_time",
            ),
        ]
        indexes = [models.Index(fields=["status", "opened_at"], name="moderation_case_queue")]

    def __str__(self) -> str:
        return f"case {self.pk}: {self.get_category_display()} in game {self.game_id}"


class Report(models.Model):
    """One member's filing of a case: what they say happened, and how much it weighs.

    ``weight`` is the filer's credibility when they filed (1.0 for a member whose reports
    have not kept being dismissed, less for one whose have), so a sore loser's reports
    raise a case's priority less.
    """

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="reports")
    filer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_reports"
    )
    text = models.TextField(max_length=2000)
    turn_number = models.PositiveIntegerField(null=True, blank=True)
    message = models.ForeignKey(
        "games.ChatMessage",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reports",
    )
    weight = models.FloatField(default=1.0)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["case", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["case", "filer"], name="moderation_report_once"),
        ]
        indexes = [models.Index(fields=["filer", "created_at"], name="moderation_report_filer")]

    def __str__(self) -> str:
        return f"report of {self.filer} in case {self.case_id}"


@pghistory.track()
class Ruling(models.Model):
    """A moderator's decision in a case, with its required note.

    A ruling that suspends a member or changes league standings waits ``proposed`` for a
    second moderator's confirmation when its club (or the site) has more than one. An
    applied ruling can be superseded by a later one of the same case, which undoes its
    effects first (``superseded``).
    """

    class Kind(models.TextChoices):
        DISMISS = "dismiss", "Dismiss"
        WARN = "warn", "Warn a member"
        PAUSE = "pause", "Pause the game's clocks while the case is open"
        VOID = "void", "Void the game"
        SET_RESULT = "set_result", "Set the result"
        FORFEIT = "forfeit", "Award a forfeit"
        REWIND = "rewind", "Rewind to the start of a turn"
        SUSPEND = "suspend", "Suspend a member"
        # Their chat refused at the club's tables (or the site's), their play left alone.
        RESTRICT_CHAT = "chat", "Restrict a member's chat, not their play"

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Awaiting a second moderator"
        APPLIED = "applied", "Applied"
        DECLINED = "declined", "Declined by the second moderator"
        SUPERSEDED = "superseded", "Superseded"

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="rulings")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PROPOSED)
    note = models.TextField(max_length=4000, help_text="Why: shown to the parties.")
    details = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the kind needs: seats' scores, the turn, the period and scope...",
    )
    effects = models.JSONField(
        default=dict,
        blank=True,
        help_text="What applying it changed (result rows written, clocks, suspensions), "
        "so that superseding it can undo exactly that.",
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderation_rulings_against",
        help_text="The member warned or suspended.",
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_rulings"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
    )
    created_at = models.DateTimeField()
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["case", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(note=""), name="moderation_ruling_has_a_note"
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True)
                | ~models.Q(confirmed_by=models.F("by")),
                name="moderation_ruling_confirmed_by_another",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} in case {self.case_id} ({self.status})"


@pghistory.track()
class Suspension(models.Model):
    """A member kept from playing and chatting in a club (or the whole site, ``club``
    empty) for ``[starts_at, ends_at)``. A suspended member can still log in, read, and
    appeal.

    ``chat_only``: a chat restriction (a ruling of kind ``chat``), which refuses their
    messages there and nothing else: they still sit, move and register.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="suspensions"
    )
    club = models.ForeignKey(
        "leagues.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="suspensions",
        help_text="Empty: suspended from the whole site.",
    )
    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="suspensions")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    lifted_at = models.DateTimeField(
        null=True, blank=True, help_text="When a later ruling (or an appeal) lifted it early."
    )
    chat_only = models.BooleanField(
        default=False, help_text="A chat restriction: their messages refused, their play not."
    )

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="moderation_suspension_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["user", "ends_at"], name="moderation_suspension_user")]

    def __str__(self) -> str:
        where = self.club or "the site"
        if self.chat_only:
            return f"{self.user}'s chat restricted at {where} until {self.ends_at:%Y-%m-%d %H:%M}"
        return f"{self.user} suspended from {where} until {self.ends_at:%Y-%m-%d %H:%M}"


class BenchedSeat(models.Model):
    """What a suspension did to one of the member's seats at a running table, by the
    table's rule (its season's ``on_suspension``; any other table: a bot): a bot took
    the seat for the rest of the round, or the member forfeited the game in play.

    Written when the suspension began, or when a game of the round started while it
    held. ``returned_at``: when undoing the suspension gave a bot's seat back (a
    forfeited game stays forfeited)."""

    class How(models.TextChoices):
        BOT = "bot", "A bot took the seat"
        FORFEIT = "forfeit", "The game in play was forfeited"

    suspension = models.ForeignKey(
        Suspension, on_delete=models.PROTECT, related_name="benched_seats"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(help_text="The engine's seat, from 0.")
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="The game in play then (empty: between two games of the round).",
    )
    how = models.CharField(max_length=10, choices=How.choices)
    at = models.DateTimeField()
    returned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id}: {self.get_how_display()}"


@pghistory.track()
class Appeal(models.Model):
    """A party's appeal of a case's outcome: a thread with the moderators.

    ``waiting_since`` is when the appellant last wrote with no moderator's answer since
    (empty when the moderators have the last word): the appeals queue is ordered by it.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="appeals")
    appellant = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_appeals"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField()
    waiting_since = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["waiting_since", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["case", "appellant"],
                condition=models.Q(status="open"),
                name="moderation_appeal_one_open_per_party",
            ),
        ]

    def __str__(self) -> str:
        return f"appeal of {self.appellant} in case {self.case_id}"


class AppealMessage(models.Model):
    """One message of an appeal's thread."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    from_moderator = models.BooleanField(default=False)
    text = models.TextField(max_length=4000)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["appeal", "created_at", "pk"]

    def __str__(self) -> str:
        return f"message of {self.author} in appeal {self.appeal_id}"


@pgtrigger.register(
    # A note is history: the database refuses to change or delete one (a correction is a
    # new note that says which it corrects).
    pgtrigger.Protect(name="moderation_note_no_update", operation=pgtrigger.Update),
    pgtrigger.Protect(name="moderation_note_no_delete", operation=pgtrigger.Delete),
)
class CaseNote(models.Model):
    """A private note between a case's moderators: never shown to its parties, never
    edited; a correction is a later note that names the one it corrects."""

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField(max_length=2000)
    corrects = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="corrections",
        help_text="The earlier note of the same case that this one corrects.",
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["case", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(text=""), name="moderation_note_has_text"),
        ]

    def __str__(self) -> str:
        return f"note {self.pk} of case {self.case_id}"


LOG_CHAIN_LOCK = 7_361_726_601
"""The transaction-level advisory lock under which entries are sealed into the chain."""

_LOG_CONTENT = ("id", "at", "actor_id", "action", "case_id", "club_id", "summary", "reason")
_LOG_UNCHANGED = " AND ".join(
    f'OLD."{column}" IS NOT DISTINCT FROM NEW."{column}"' for column in (*_LOG_CONTENT, "changes")
)


@pgtrigger.register(
    # Nobody changes or deletes the log, not even through SQL: the database refuses. The
    # one update let through is the seal below (or the migration that sealed the entries
    # written before the chain): an entry not yet in the chain gets its place and
    # digests, its content unchanged.
    pgtrigger.Protect(
        name="moderation_log_no_update",
        operation=pgtrigger.Update,
        condition=pgtrigger.Condition(
            f'NOT (OLD."position" IS NULL AND {_LOG_UNCHANGED} AND '
            '(OLD."content_digest" = \'\' OR OLD."content_digest" = NEW."content_digest"))'
        ),
    ),
    pgtrigger.Protect(name="moderation_log_no_delete", operation=pgtrigger.Delete),
    # The seal: when the transaction that wrote an entry commits, the entry takes the
    # next place in the chain and its digest (moderation.log_chain.link). The lock makes
    # the chain one line. It is taken at commit (deferred), after the transaction's
    # work, so a moderator's transaction never waits for it while holding a case or a
    # game that another, already committing, still wants. It runs with the owner's
    # rights (moderation.db_role), so every name in it is schema-qualified: a
    # temporary object of the caller's named like the log must never be what it writes.
    pgtrigger.Trigger(
        name="moderation_log_seal",
        operation=pgtrigger.Insert,
        when=pgtrigger.After,
        timing=pgtrigger.Deferred,
        declare=[("last_position", "bigint"), ("last_digest", "text")],
        func=f"""
            IF NEW."content_digest" = '' THEN
                RAISE EXCEPTION 'A moderation log entry is written with its content digest.';
            END IF;
            PERFORM pg_catalog.pg_advisory_xact_lock({LOG_CHAIN_LOCK});
            SELECT "position", "digest" INTO last_position, last_digest
                FROM public."moderation_logentry" WHERE "position" IS NOT NULL
                ORDER BY "position" DESC LIMIT 1;
            UPDATE public."moderation_logentry" SET
                "position" = COALESCE(last_position, 0) + 1,
                "digest" = pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(
                    COALESCE(last_digest, '') || NEW."content_digest", 'UTF8')), 'hex')
                WHERE "id" = NEW."id";
            RETURN NULL;
        """,
    ),
)
class LogEntry(models.Model):
    """One thing done in moderation: who, when, what, why, and what it changed.

    Inserted once and never changed or deleted: database triggers refuse every UPDATE and
    DELETE of the table (even by raw SQL), and the foreign keys PROTECT, so nothing it
    names can be deleted from under it either. Each entry is chained to the one before
    it by a hash (:mod:`moderation.log_chain`), so a change made anyway shows.
    """

    class Action(models.TextChoices):
        FILED = "filed", "Filed a report"
        JOINED = "joined", "Joined a case"
        CLAIMED = "claimed", "Claimed a case"
        RELEASED = "released", "Released a case"
        LAPSED = "lapsed", "A claim lapsed"
        ESCALATED = "escalated", "A case escalated"
        PROPOSED = "proposed", "Proposed a ruling"
        CONFIRMED = "confirmed", "Confirmed a ruling"
        DECLINED = "declined", "Declined a ruling"
        RULED = "ruled", "Applied a ruling"
        SUPERSEDED = "superseded", "Superseded a ruling"
        APPEALED = "appealed", "Appealed"
        ANSWERED = "answered", "Answered an appeal"
        CLOSED_APPEAL = "closed_appeal", "Closed an appeal"
        MESSAGE_HIDDEN = "message_hidden", "Hid a chat message"
        EVIDENCE_OPENED = "evidence_opened", "Opened the evidence (racks)"
        NOTE_ADDED = "note_added", "Added a private note"

    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who did it; empty for the site itself (a lapse, an escalation).",
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, null=True, blank=True, related_name="log"
    )
    club = models.ForeignKey(
        "leagues.Club", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    summary = models.CharField(max_length=300, help_text="What was done, in a sentence.")
    reason = models.TextField(blank=True)
    changes = models.JSONField(default=dict, blank=True, help_text="What it changed.")
    content_digest = models.CharField(
        max_length=64,
        blank=True,
        editable=False,
        help_text="The SHA-256 of its content (moderation.log_chain.canonical).",
    )
    position = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        unique=True,
        editable=False,
        help_text="Its place in the chain, given when the transaction that wrote it commits.",
    )
    digest = models.CharField(
        max_length=64,
        blank=True,
        editable=False,
        help_text="The SHA-256 of the previous entry's digest and its content digest.",
    )

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [
            models.Index(fields=["club", "at"], name="moderation_log_club"),
            models.Index(fields=["case", "at"], name="moderation_log_case"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}: {self.summary}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # The content digest is taken as the entry is written; the database seals it
        # into the chain at commit.
        if self._state.adding:
            self.content_digest = log_chain.content_digest(self)
        super().save(*args, **kwargs)
