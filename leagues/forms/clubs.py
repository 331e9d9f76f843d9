"""The forms of the club pages. They check what a browser can get wrong (lengths, a
choice); the services check the rest (a free name, who may do it)."""

from __future__ import annotations

from typing import Any

from django import forms

from leagues.models import Club
from leagues.services import bounds
from leagues.services.clubs import ASSIGNABLE, DESCRIPTION_LENGTH, MESSAGE_LENGTH, NAME_LENGTH
from leagues.slugs import MAX_LENGTH


class ClubForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH, min_length=2)
    description = forms.CharField(
        required=False,
        max_length=DESCRIPTION_LENGTH,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Who you are, where and when you play. Everyone who can see the club reads it.",
    )
    is_private = forms.BooleanField(
        required=False,
        label="Private club",
        help_text="Only members see a private club; people join by invitation. "
        "Anyone may find a public club and ask to join.",
    )


class NewClubForm(ClubForm):
    slug = forms.SlugField(
        required=False,
        max_length=MAX_LENGTH,
        label="Address",
        help_text="/clubs/<em>address</em>/: lower-case letters, digits and hyphens. "
        "Leave it empty to make one from the name. It cannot be changed later.",
    )

    field_order = ["name", "slug", "description", "is_private"]


def club_initial(club: Club) -> dict[str, object]:
    return {"name": club.name, "description": club.description, "is_private": club.is_private}


class InviteForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "Username"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        most = bounds.counted(bounds.invitations_per_club_per_hour(), "invitation")
        self.fields["username"].help_text = (
            f"A club sends at most {most} an hour. A member is e-mailed about the club's "
            "invitations once a day at most; one invited again sooner finds it in their "
            "notifications."
        )


class JoinRequestForm(forms.Form):
    message = forms.CharField(
        required=False,
        max_length=MESSAGE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="A word to the organisers (optional)",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["message"].help_text = (
            "You may ask to join a club once a day, and at most "
            f"{bounds.counted(bounds.join_requests_per_hour(), 'club')} an hour."
        )


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=[(role.value, role.label) for role in ASSIGNABLE])
