import logging
from typing import Any

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.http import HttpRequest

from accounts.limits import over_limit
from accounts.models import User
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


class SignUpForm(MemberDetailsForm, UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        field_classes = {"username": UsernameField}


class ProfileForm(MemberDetailsForm):
    class Meta:
        model = User
        fields = ("display_name", "email")


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
