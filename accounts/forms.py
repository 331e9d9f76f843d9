import logging
from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.http import HttpRequest

from accounts.limits import over_limit
from accounts.models import DEFAULT_ZONE, User, time_zones
from accounts.tasks import send_password_reset

logger = logging.getLogger(__name__)


class MemberDetailsForm(forms.ModelForm[User]):
    """Display name and email, as a member gives them at sign-up and on the profile page.

    Both are required here, though the model allows them empty for accounts an admin makes.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True
        self.fields["display_name"].help_text = "The name other players see at the table."
        self.fields["email"].required = True
        self.fields["email"].help_text = "Only used to reset your password."

    def clean_email(self) -> str:
        # The database constraint is the guarantee; this puts the message by the field.
        email: str = self.cleaned_data["email"].strip()
        others = User.objects.filter(email__iexact=email)
        if self.instance.pk is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise forms.ValidationError("An account with this email address already exists.")
        return email


def zone_choices() -> list[tuple[str, str]]:
    """Every time zone, UTC first, then by name."""
    names = sorted(time_zones() - {DEFAULT_ZONE})
    return [(DEFAULT_ZONE, DEFAULT_ZONE), *((name, name.replace("_", " ")) for name in names)]


class TimeZoneField(forms.ChoiceField):
    """A member's time zone; left out of a form, UTC."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", "Time zone")
        kwargs.setdefault(
            "help_text", "Times are shown in it, and the times you enter are read in it."
        )
        super().__init__(choices=zone_choices, initial=DEFAULT_ZONE, required=False, **kwargs)

    def clean(self, value: Any) -> str:
        return str(super().clean(value) or DEFAULT_ZONE)


class SignUpForm(MemberDetailsForm, UserCreationForm[User]):
    """The browser offers its own time zone (``static/js/time-zone.js``); UTC without it."""

    time_zone = TimeZoneField()

    class Meta:
        model = User
        fields = ("username", "display_name", "email", "time_zone")
        field_classes = {"username": UsernameField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].widget.attrs["data-browser-zone"] = ""


FORCED_TURN_CHOICES = [
    ("unknown", "Ask me after a turn with no play"),
    ("true", "Yes: draw for me when a turn has no play"),
    ("false", "No: I draw my own turns"),
]


class ProfileForm(MemberDetailsForm):
    time_zone = TimeZoneField()
    draws_forced_turns = forms.NullBooleanField(
        label="Turns with no play",
        widget=forms.NullBooleanSelect(),
        help_text="When the solver proves that a turn of yours has no legal play, the "
        "draw can be made for you after a while, as you would make it. The others see an "
        "ordinary draw.",
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "draws_forced_turns")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["draws_forced_turns"].widget.choices = FORCED_TURN_CHOICES

    def clean_draws_forced_turns(self) -> bool | None:
        # Left out of the form (a profile saved from elsewhere): the member's stays.
        if "draws_forced_turns" not in self.data:
            return self.instance.draws_forced_turns
        answer: bool | None = self.cleaned_data["draws_forced_turns"]
        return answer

    def clean_time_zone(self) -> str:
        # Left out of the form (not chosen as UTC): the member's stays.
        if not self.data.get("time_zone"):
            return self.instance.time_zone
        return str(self.cleaned_data["time_zone"])


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, with the mail sent by a worker and rationed.

    An address gets at most RATE_LIMITS["reset_mails_per_email"] mails, and an address
    asking at most RATE_LIMITS["reset_mails_per_address"], so the form cannot be used to
    flood someone's mailbox. Past them nothing is sent, and the visitor sees the same page
    as always: the page never tells whether an account has that address.
    """

    def save(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        assert request is not None, "PasswordResetView passes the request"
        email = self.cleaned_data["email"]
        asker = request.META.get("REMOTE_ADDR", "")
        if over_limit(request, "reset_mails_per_email", email.strip().lower()) or over_limit(
            request, "reset_mails_per_address", asker
        ):
            logger.warning("Password reset mail not sent: too many asked (from %s)", asker)
            return
        for user in self.get_users(email):
            send_password_reset.delay(user.pk)
