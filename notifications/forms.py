from __future__ import annotations

from datetime import time
from typing import Any

from django import forms

from accounts.models import User
from common.wall_clock import within
from notifications import kinds
from notifications.models import Delivery
from notifications.selectors.devices import push_enabled
from notifications.services import push

DIGEST_HOURS = [(hour, f"{hour:02d}:00") for hour in range(24)]
HOUR_FIELDS = ("digest_hour", "quiet_from", "quiet_until")


def _time_field(label: str) -> forms.TimeField:
    return forms.TimeField(
        label=label,
        required=False,
        widget=forms.TimeInput(attrs={"type": "time", "step": 60}, format="%H:%M"),
    )


class PreferencesForm(forms.Form):
    """How each kind of notification offered to ``user`` is sent (pushed only on a site
    that pushes), and when: the hour of their daily digest and their quiet hours, times
    of their day in their own zone. A kind left out keeps its choice, and so does the
    digest's hour, or the quiet hours (both ends left out; both given empty: none)."""

    digest_hour = forms.TypedChoiceField(
        label="Daily digest at", choices=DIGEST_HOURS, coerce=int, required=False
    )
    quiet_from = _time_field("Quiet from")
    quiet_until = _time_field("Quiet until")

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.initial.update(
            digest_hour=user.digest_hour, quiet_from=user.quiet_from, quiet_until=user.quiet_until
        )
        choices = [
            (value, label)
            for value, label in Delivery.choices
            if value != Delivery.PUSH or push_enabled()
        ]
        self.kind_codes = [kind.code for kind in kinds.offered(user)]
        for kind in kinds.offered(user):
            self.fields[kind.code] = forms.ChoiceField(
                label=kind.label, choices=choices, widget=forms.RadioSelect, required=False
            )

    def kind_fields(self) -> list[forms.BoundField]:
        return [self[code] for code in self.kind_codes]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "digest_hour" not in self.data or data.get("digest_hour") in (None, ""):
            data["digest_hour"] = self.user.digest_hour
        if "quiet_from" not in self.data and "quiet_until" not in self.data:
            data["quiet_from"], data["quiet_until"] = self.user.quiet_from, self.user.quiet_until
        start, end = (_minute(data.get(name)) for name in ("quiet_from", "quiet_until"))
        data["quiet_from"], data["quiet_until"] = start, end
        if not (self.has_error("quiet_from") or self.has_error("quiet_until")):
            self._check_hours(data["digest_hour"], start, end)
        return data

    def _check_hours(self, hour: int, start: time | None, end: time | None) -> None:
        """Quiet hours have both ends or none (the database holds it too), last a while,
        and leave the digest's hour out (a digest in them would wait for their end)."""
        if start is None and end is None:
            return
        if start is None or end is None:
            missing = "quiet_from" if start is None else "quiet_until"
            self.add_error(missing, "Give both ends of your quiet hours, or neither.")
        elif start == end:
            self.add_error("quiet_until", "Your quiet hours must end at another time.")
        elif within(time(hour), start, end):
            self.add_error(
                "digest_hour",
                f"That hour is in your quiet hours: choose one from {end:%H:%M} to {start:%H:%M}.",
            )

    def deliveries(self) -> dict[str, str]:
        """``{kind: delivery}`` for the kinds given a choice."""
        return {
            code: self.cleaned_data[code] for code in self.kind_codes if self.cleaned_data[code]
        }

    def hours(self) -> dict[str, Any]:
        """The digest's hour and the quiet hours, as
        :func:`notifications.services.notices.set_hours` takes them."""
        return {name: self.cleaned_data[name] for name in HOUR_FIELDS}


def _minute(value: time | None) -> time | None:
    """A time of day to the minute (a browser may send seconds)."""
    return None if value is None else value.replace(second=0, microsecond=0)


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
