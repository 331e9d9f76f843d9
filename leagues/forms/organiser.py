"""The forms of a season's organisers' page: closing a matchday or the season, a new
deadline, opening the next matchday, a substitute, a score change. Each asks for the
reason the season's history keeps; the services judge the rest."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from common.parsing import MomentField


class ReasonField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 500)
        kwargs.setdefault("help_text", "Kept in the season's history.")
        super().__init__(**kwargs)


class CloseForm(forms.Form):
    reason = ReasonField(initial="The matchday's deadline passed.")


class DeadlineForm(forms.Form):
    deadline = MomentField(
        label="New deadline", widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
    reason = ReasonField()


class OpenNextForm(forms.Form):
    reason = ReasonField(initial="Every fixture before it is done.")


class SubstituteForm(forms.Form):
    username = forms.CharField(label="Substitute (username)", max_length=150)
    reason = ReasonField()

    def clean_username(self) -> User:
        user = User.objects.filter(username__iexact=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError("No member has that username.")
        return user


class ScoreForm(forms.Form):
    game = forms.IntegerField(min_value=1)
    seat = forms.IntegerField(min_value=0, max_value=3)
    score = forms.IntegerField(min_value=-10_000, max_value=10_000)
    reason = ReasonField()


class CloseSeasonForm(forms.Form):
    reason = ReasonField(initial="The season's last matchday is over.")
