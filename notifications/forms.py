from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from notifications import kinds
from notifications.models import Delivery
from notifications.selectors.devices import push_enabled
from notifications.services import push


class PreferencesForm(forms.Form):
    """How each kind of notification offered to ``user`` is sent (pushed only on a site
    that pushes); a kind left out keeps its choice."""

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [
            (value, label)
            for value, label in Delivery.choices
            if value != Delivery.PUSH or push_enabled()
        ]
        for kind in kinds.offered(user):
            self.fields[kind.code] = forms.ChoiceField(
                label=kind.label, choices=choices, widget=forms.RadioSelect, required=False
            )


class PushSubscriptionForm(forms.Form):
    """A device's subscription as its browser sends it (``PushSubscription.toJSON()``:
    the endpoint and its two keys), checked by :func:`notifications.services.push.checked`."""

    endpoint = forms.CharField(max_length=500)
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=40)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                data["device"] = push.checked(data["endpoint"], data["p256dh"], data["auth"])
            except push.BadSubscription as error:
                raise forms.ValidationError(str(error)) from None
        return data
