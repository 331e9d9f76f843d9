from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    """A club member. Players see each other by display name; the username is for logging in."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="The name other players see at the table. Your username if left empty.",
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
        ]

    def __str__(self) -> str:
        return self.display_name or self.username
