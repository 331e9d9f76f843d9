from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField

from accounts.models import User


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
