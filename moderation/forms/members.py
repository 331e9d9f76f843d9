"""A member named by username, and the archive's filter by member."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User


class MemberField(forms.CharField):
    """A member named by username (any case); an unknown name is refused in a sentence."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 150)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> User | None:
        name = (super().clean(value) or "").strip()
        if not name:
            return None
        member = User.objects.filter(username__iexact=name).first()
        if member is None:
            raise forms.ValidationError("No member has that username.")
        return member


class ArchiveForm(forms.Form):
    """The archive's filter: the decided cases of one member."""

    member = MemberField(label="Member (username)", required=False)
