"""The ruling form: what every kind of ruling shares. The kind's details (scores, racks,
a winner, a seat, a turn, days, a scope) are read from the page by the view; the rulings
service checks them."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from moderation.models import Case, Ruling
from moderation.selectors import rulings as reads


class RulingForm(forms.Form):
    """What every kind shares; the seats' scores are read by
    :func:`moderation.views.rulings._details`."""

    kind = forms.ChoiceField(choices=Ruling.Kind.choices, widget=forms.RadioSelect)
    note = forms.CharField(
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Why: the parties read it.",
    )
    target = forms.ModelChoiceField(
        queryset=User.objects.none(), required=False, label="Member", to_field_name="username"
    )
    supersedes = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, case: Case, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["target"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = User.objects.filter(pk__in=[u.pk for u in reads.parties(case)])
