from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField

from accounts.models import User


class UniqueEmailMixin(forms.ModelForm[User]):
    """Refuses an email address another account already has, in any letter case.

    The database constraint is the guarantee; this check puts the message next to the field.
    """

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        others = User.objects.filter(email__iexact=email)
        if self.instance.pk is not None:
            others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise forms.ValidationError("An account with this email address already exists.")
        return email


class SignUpForm(UniqueEmailMixin, UserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        field_classes = {"username": UsernameField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True
        self.fields["display_name"].help_text = "The name other players see at the table."
        self.fields["email"].required = True
        self.fields["email"].help_text = "Only used to reset your password."


class ProfileForm(UniqueEmailMixin):
    class Meta:
        model = User
        fields = ("display_name", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True
        self.fields["email"].required = True
