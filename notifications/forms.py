from __future__ import annotations

from typing import Any

from django import forms

from notifications import kinds
from notifications.models import Delivery


class PreferencesForm(forms.Form):
    """How each registered kind of notification is emailed; a kind left out keeps its
    choice."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in kinds.registered():
            self.fields[kind.code] = forms.ChoiceField(
                label=kind.label, choices=Delivery.choices, widget=forms.RadioSelect, required=False
            )
