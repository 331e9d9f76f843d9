"""A member's :class:`Notification`, their :class:`NotificationPreference` per kind, the
:class:`PushSubscription` of each of their devices that takes Web Push, and the
:class:`Digest` of each of their days that had one.

The tables were the games app's and keep their names (``games_notification``,
``games_notificationpreference``), as do their constraints and indexes: the rows stayed
where they were when the models moved here.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models

from notifications.kinds import label_of
from notifications.lines import from_facts


class Delivery(models.TextChoices):
    """How a member wants a kind of notification beyond the site's own pages: pushed to
    their devices, emailed at once, gathered in a daily digest, or not at all.

    ``immediate`` is the email at once it always was (its value kept: rows and kinds
    name it). A push that reaches none of the member's devices is emailed instead."""

    PUSH = "push", "Push to my devices"
    IMMEDIATE = "immediate", "Email at once"
    DIGEST = "digest", "In a daily digest"
    NEVER = "never", "Never"


class Notification(models.Model):
    """Something a member should know: shown in the app, maybe emailed.

    A notification is its member, its kind, a line of plain text (escaped where it is
    shown) and a link (a path on the site), and may be about a subject: a game, a table,
    a club, a case. The subject is a generic relation, so that any app can notify about
    its own rows without this one importing it.

    A line with moments in it (a deadline, a season's close) is kept as its ``facts``
    (:mod:`notifications.lines`) and written out in whichever zone reads it
    (:meth:`line_in`); ``text`` holds it as written in the member's zone when it was
    created, for what reads the row itself (the admin, older code). A notice without
    facts (one older than them, or one whose line has no moment) reads its ``text``.

    ``key``, when set, is unique per member: whoever creates the same notification twice
    - a task delivered twice, a sweep and a task - creates it once.
    """

    class Email(models.TextChoices):
        PENDING = "pending", "To be sent at once"
        DIGEST = "digest", "Waiting for the daily digest"
        HELD = "held", "Held until the member's quiet hours end"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not sent (seen, watched or out of date)"
        OFF = "off", "Not wanted"
        FAILED = "failed", "Could not be sent"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    # A registered kind (notifications.kinds), checked by the services rather than by
    # choices here, so that a new kind needs no migration.
    kind = models.CharField(max_length=20)
    text = models.TextField(
        help_text="One line of plain text, written when it was created (in the member's zone)."
    )
    facts = models.JSONField(
        default=list,
        blank=True,
        help_text='Its line as words and moments ({"moment": ISO 8601}), written out in '
        "the reader's zone; empty: its text is its line.",
    )
    link = models.CharField(max_length=200, help_text="Where it leads: a path on this site.")
    subject_type = models.ForeignKey(
        ContentType, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    subject = GenericForeignKey("subject_type", "subject_id")
    key = models.CharField(
        max_length=100,
        blank=True,
        help_text="Unique per member when set: the notification is created once.",
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When what it asks for is due (a turn's deadline)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    email = models.CharField(max_length=10, choices=Email.choices, default=Email.OFF)
    emailed_at = models.DateTimeField(null=True, blank=True)
    email_error = models.CharField(
        max_length=200,
        blank=True,
        help_text="Why its email could not be sent (email=failed), as the member reads it.",
    )

    class Push(models.TextChoices):
        PENDING = "pending", "To be pushed"
        HELD = "held", "Held until the member's quiet hours end"
        SENDING = "sending", "Being pushed"
        SENT = "sent", "Pushed"
        SKIPPED = "skipped", "Not pushed (seen, watched or out of date)"
        EMAILED = "emailed", "No device took it: emailed instead"
        OFF = "off", "Not wanted"

    push = models.CharField(max_length=10, choices=Push.choices, default=Push.OFF)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_notification"
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"],
                condition=~models.Q(key=""),
                name="games_notification_once_per_key",
            ),
        ]
        indexes = [
            models.Index(fields=["user", "read_at"], name="games_notification_unread"),
            # The member's list, newest first, read from the index's head: not every
            # notice of theirs sorted.
            models.Index(fields=["user", "-created_at", "-id"], name="games_notification_newest"),
            models.Index(fields=["email", "user"], name="games_notification_email"),
            models.Index(fields=["subject_type", "subject_id"], name="games_notification_subject"),
            # The sweep that sends what quiet hours held looks for these alone.
            models.Index(
                fields=["user"],
                condition=models.Q(push="held") | models.Q(email="held"),
                name="notification_held",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind_label} for {self.user}: {self.text}"

    @property
    def kind_label(self) -> str:
        return label_of(self.kind)

    def line_in(self, zone: ZoneInfo | None = None) -> str:
        """Its line as a reader reads it: from its facts, its moments in ``zone`` (the
        current time zone when none: a page's reader's); else its text."""
        return from_facts(self.facts).written(zone) if self.facts else self.text


class NotificationPreference(models.Model):
    """How one member wants one kind of notification by email (no row: the default)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    # A registered kind, checked by the services (see Notification.kind).
    kind = models.CharField(max_length=20)
    delivery = models.CharField(max_length=10, choices=Delivery.choices)

    class Meta:
        db_table = "games_notificationpreference"
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="games_preference_one_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {label_of(self.kind)} {self.get_delivery_display().lower()}"


class PushSubscription(models.Model):
    """One device (a browser's service worker) that takes a member's Web Push.

    What the browser's ``PushManager.subscribe()`` gave: the push service's ``endpoint``
    (a secret address: whoever knows it may send to the device) and the keys the
    payload is encrypted for (``p256dh``, the device's P-256 public key, and ``auth``,
    its secret; both base64url). An endpoint is one device's: subscribing it again, as
    whoever is signed in on that device now, moves it to them. A push service answering
    404 or 410 says the device is gone: its row is deleted.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(
        null=True, blank=True, help_text="When the push service last took a push for it."
    )

    class Meta:
        indexes = [models.Index(fields=["user", "created_at"], name="push_subscription_user")]

    def __str__(self) -> str:
        return f"a device of {self.user}"


class Digest(models.Model):
    """A member's daily digest of one of their days: written when it is sent, so once per
    member and date of theirs (their zone's), however the job that sends it runs: twice,
    late, or in the hour the clocks repeat in autumn (:mod:`notifications.selectors.hours`
    says which day's is due)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="digests"
    )
    day = models.DateField(help_text="The member's date (in their zone) it is the digest of.")
    sent_at = models.DateTimeField()
    listed = models.PositiveIntegerField(
        default=0, help_text="How many notices it listed (0: all out of date, no email)."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="notifications_digest_once_a_day"),
        ]

    def __str__(self) -> str:
        return f"digest of {self.day} for {self.user}"
