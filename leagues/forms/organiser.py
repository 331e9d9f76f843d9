"""The forms of a season's organisers' page: closing a matchday or the season, a new
deadline, opening the next matchday, a substitute, a score change. Each asks for the
reason the season's history keeps; the services judge the rest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from accounts.models import User
from common.parsing import MomentField
from leagues.models import Entry


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
    """The season's close: its reason, and for each place a substitute played
    (``replaced``, entries), who takes it next season: nobody (the default), the member
    or the substitute (``carry_<entry id>``)."""

    reason = ReasonField(initial="The season's last matchday is over.")

    NOBODY, MEMBER, SUBSTITUTE = "", "member", "substitute"

    def __init__(self, *args: Any, replaced: Sequence[Entry] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.replaced = list(replaced)
        for entry in self.replaced:
            self.fields[self.carry_field(entry)] = forms.ChoiceField(
                label=f"{entry.user}'s place",
                choices=[
                    (self.NOBODY, "Nobody: the place is not carried over"),
                    (self.MEMBER, f"{entry.user}, the member"),
                    (self.SUBSTITUTE, f"{entry.substitute}, who played for them"),
                ],
                required=False,
                initial=self.NOBODY,
                widget=forms.RadioSelect,
            )

    @staticmethod
    def carry_field(entry: Entry) -> str:
        return f"carry_{entry.pk}"

    def carry_over(self) -> dict[int, int]:
        """Who takes each place chosen: the entry's id and the user's."""
        chosen = {}
        for entry in self.replaced:
            value = self.cleaned_data.get(self.carry_field(entry))
            if value == self.MEMBER:
                chosen[entry.pk] = entry.user_id
            elif value == self.SUBSTITUTE:
                assert entry.substitute_id is not None  # a replaced entry has one
                chosen[entry.pk] = entry.substitute_id
        return chosen
