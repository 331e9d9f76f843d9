from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower

DEFAULT_ZONE = "UTC"
DEFAULT_DIGEST_HOUR = 8
"""The hour of the day, in a member's own zone, their daily digest comes at unless they
choose another."""


@cache
def time_zones() -> frozenset[str]:
    """The names of the time zones a member may choose (the IANA database's)."""
    return frozenset(available_timezones())


def validate_time_zone(name: str) -> None:
    if name not in time_zones():
        raise ValidationError("Choose a time zone from the list.", code="invalid")


class User(AbstractUser):
    """A club member. Players see each other by display name; the username is for logging in."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="The name other players see at the table. Your username if left empty.",
    )
    time_zone = models.CharField(
        max_length=64,
        default=DEFAULT_ZONE,
        # Also the column's own default: rows written by code that predates the field
        # (an older migration's state) are in UTC.
        db_default=DEFAULT_ZONE,
        validators=[validate_time_zone],
        help_text="The time zone the site shows times in, and reads the times you enter in.",
    )

    draws_forced_turns = models.BooleanField(
        null=True,
        blank=True,
        help_text="Whether a turn with no legal play is drawn for you, after a while, "
        "as you would draw it. Empty until you were asked.",
    )

    # When the member is told (notifications.selectors.hours), on the clocks of their
    # zone: read with the zone at each moment, so that they hold across its changes.
    digest_hour = models.PositiveSmallIntegerField(
        default=DEFAULT_DIGEST_HOUR,
        # As time_zone's: rows written by code that predates the field get it too.
        db_default=DEFAULT_DIGEST_HOUR,
        help_text="The hour of your day your daily digest comes at.",
    )
    quiet_from = models.TimeField(
        null=True, blank=True, help_text="From when no push and no email comes (your time)."
    )
    quiet_until = models.TimeField(
        null=True,
        blank=True,
        help_text="Until when; what was held then comes at once, in one push or one email.",
    )

    class Meta:
        constraints = [
            # Password reset mails go to an address: one address, one account. Empty
            # addresses (accounts made by an admin) stay allowed.
            models.UniqueConstraint(
                Lower("email"),
                condition=~models.Q(email=""),
                name="accounts_user_email_unique_ci",
                violation_error_message="An account with this email address already exists.",
            ),
            models.CheckConstraint(
                condition=models.Q(digest_hour__lte=23),
                name="accounts_user_digest_hour_of_a_day",
            ),
            # Quiet hours have both ends or none, and last some time (from 22:00 until
            # 07:00 runs past midnight; from 07:00 until 07:00 would be nothing, or all).
            models.CheckConstraint(
                condition=models.Q(quiet_from__isnull=True, quiet_until__isnull=True)
                | (
                    models.Q(quiet_from__isnull=False, quiet_until__isnull=False)
                    & ~models.Q(quiet_from=models.F("quiet_until"))
                ),
                name="accounts_user_quiet_hours_whole",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @property
    def zone(self) -> ZoneInfo:
        """The member's time zone (UTC if the stored name is no longer known)."""
        name = self.time_zone if self.time_zone in time_zones() else DEFAULT_ZONE
        return ZoneInfo(name)
