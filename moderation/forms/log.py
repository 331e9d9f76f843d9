"""The moderation log's filters."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from common.parsing import DayField
from leagues.models import Club
from moderation.forms.members import MemberField
from moderation.models import LogEntry
from moderation.selectors.log import LogFilters, filter_clubs


class LogFilterForm(forms.Form):
    """The log page's filters, read from the query string (all optional)."""

    action = forms.ChoiceField(
        label="What", required=False, choices=[("", "Anything"), *LogEntry.Action.choices]
    )
    case = forms.IntegerField(label="Case", required=False, min_value=1, max_value=2**63 - 1)
    club = forms.ModelChoiceField(
        label="Club",
        required=False,
        queryset=Club.objects.none(),
        to_field_name="slug",
        empty_label="Any club",
    )
    actor = forms.CharField(label="Who acted (username)", required=False, max_length=150)
    member = MemberField(
        label="About or by (username)",
        required=False,
        help_text="Everything about a member: their cases, rulings naming them, and what they did.",
    )
    since = DayField(label="From", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = DayField(label="To", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        club_field = self.fields["club"]
        assert isinstance(club_field, forms.ModelChoiceField)
        club_field.queryset = filter_clubs(user)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            raise forms.ValidationError("The end of the period comes before its start.")
        return data

    def filters(self) -> LogFilters:
        data = self.cleaned_data
        return LogFilters(
            action=data.get("action") or "",
            case=data.get("case"),
            club=data.get("club"),
            actor=(data.get("actor") or "").strip(),
            member=data.get("member"),
            since=data.get("since"),
            until=data.get("until"),
        )
