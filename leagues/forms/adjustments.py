"""The form of an organiser's score change waiting for a second organiser: declining it."""

from __future__ import annotations

from django import forms

from leagues.forms.organiser import ReasonField


class DeclineForm(forms.Form):
    note = ReasonField(
        label="Why you decline it", help_text="The organiser who proposed it reads it."
    )
