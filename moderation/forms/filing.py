"""The report forms: what a member says when filing a dispute. They parse; the filing
service (:mod:`moderation.services.filing`) judges what can be true."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from games.models import Game, Seat
from moderation.models import Category
from moderation.permissions import player_ids
from moderation.services.filing import MESSAGE_CATEGORIES, TEXT_LIMIT

TEXT_HELP = "What happened, as exactly as you can: the moderators read it first."


class GameReportForm(forms.Form):
    category = forms.ChoiceField(
        label="What went wrong",
        # Abusive chat is reported from the message itself (the filing service refuses
        # it here): the form does not offer what it always refuses.
        choices=[(value, label) for value, label in Category.choices if value != Category.ABUSE],
        widget=forms.RadioSelect,
        help_text="Abusive chat is reported from the message: Report next to it in the chat.",
    )
    turn_number = forms.IntegerField(
        label="Turn",
        required=False,
        min_value=1,
        max_value=100_000,
        help_text="The turn it is about, if one.",
    )
    accused = forms.TypedChoiceField(
        label="About whom",
        required=False,
        coerce=int,
        empty_value=None,
        help_text="The player it is about, if one.",
    )
    text = forms.CharField(
        label="What happened",
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=TEXT_HELP,
    )

    def __init__(self, game: Game, filer: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        seats = Seat.objects.filter(table_id=game.table_id).exclude(user=None).exclude(user=filer)
        choices = [("", "Nobody in particular")]
        choices += [(str(seat.user_id), str(seat.user)) for seat in seats.select_related("user")]
        # Whoever played a seat of the game and sits there no more (a substitute took it
        # over) is a player of it too: the service accepts them (player_ids).
        named = {int(value) for value, _ in choices if value}
        earlier = User.objects.filter(pk__in=player_ids(game) - named - {filer.pk})
        choices += [(str(user.pk), str(user)) for user in earlier.order_by("pk")]
        accused = self.fields["accused"]
        assert isinstance(accused, forms.TypedChoiceField)
        accused.choices = choices
        turn = self.fields["turn_number"]
        assert isinstance(turn, forms.IntegerField)
        turn.widget.attrs["max"] = game.turn_number


class MessageReportForm(forms.Form):
    category = forms.ChoiceField(
        label="What is wrong with it",
        choices=[(value, Category(value).label) for value in MESSAGE_CATEGORIES],
        initial=Category.ABUSE,
        widget=forms.RadioSelect,
    )
    text = forms.CharField(
        label="What happened",
        max_length=TEXT_LIMIT,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=TEXT_HELP,
    )
