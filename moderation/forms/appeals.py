"""The forms of appeals: a message, and closing one."""

from __future__ import annotations

from django import forms

from moderation.services.appeals import LONGEST_TEXT


class AppealForm(forms.Form):
    """A message of an appeal: the appellant's, or a moderator's answer."""

    text = forms.CharField(
        label="Your message",
        max_length=LONGEST_TEXT,
        widget=forms.Textarea(attrs={"rows": 5}),
        error_messages={
            "required": "Write what you want the moderators to know.",
            "max_length": f"A message has at most {LONGEST_TEXT} characters.",
        },
    )


class CloseForm(forms.Form):
    """Closing an appeal, with a last word if the moderator has one. Its field has a
    prefix of its own: the answer form is on the same page."""

    prefix = "close"

    text = forms.CharField(
        label="A last word (optional)",
        required=False,
        max_length=LONGEST_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
