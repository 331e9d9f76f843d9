from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from notifications import kinds
from notifications.models import Delivery


class PreferencesForm(forms.Form):
    """How each kind of notification offered to ``user`` is emailed; a kind left out
    keeps its choice."""

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in kinds.offered(user):
            self.fields[kind.code] = forms.ChoiceField(
                label=kind.label, choices=Delivery.choices, widget=forms.RadioSelect, required=False
            )
