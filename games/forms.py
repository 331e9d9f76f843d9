"""The lobby's forms: a new table with its seats and rules, and the requests of the game page.

:class:`TableForm` shows every option of RULES.md §12 with the preset's value; only the
options that differ from the chosen preset are sent to ``create_table``, so a table keeps
the preset's name and a short list of house rules.
"""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from engine.ruleset import (
    LARGEST_SET_VALUE,
    MAX_INITIAL_MELD,
    MAX_PENALTY_DRAW,
    PRESETS,
    Ruleset,
    RulesetError,
)
from games.clock import CORRESPONDENCE_TURN_SECONDS, DAY, LIVE_TURN_SECONDS
from games.models import BotLevel, Delivery, NotificationKind, Preset, Table
from games.parsing import BadInput, JSONTextField, NumberField, parse_number
from games.services import NEW_SET, RACK, SeatPlan
from games.services.listing import OPTION_LABELS, turn_label

MAX_SEATS = 4
LIVE_TIMES = [(seconds, turn_label(seconds)) for seconds in LIVE_TURN_SECONDS]
CORRESPONDENCE_TIMES = [(seconds, turn_label(seconds)) for seconds in CORRESPONDENCE_TURN_SECONDS]
TURN_TIMES = [("Live", LIVE_TIMES), ("Correspondence", CORRESPONDENCE_TIMES)]
BANKS = [
    (0, "No time bank"),
    (60, "1 min"),
    (5 * 60, "5 min"),
    (DAY, "1 day"),
    (3 * DAY, "3 days"),
]

SEAT_CHOICES = [
    ("open", "Open seat: anyone may join"),
    ("invite", "Invite a member"),
    *((f"bot_{level}", f"Bot: {label.lower()}") for level, label in BotLevel.choices),
]

# The form's fields for the options, in the order of RULES.md §12, with their widgets.
BOOLEAN_OPTIONS = [
    "initial_meld_single_set",
    "initial_meld_same_turn_manipulation",
    "allow_wrap",
]
CHOICE_OPTIONS: dict[str, list[tuple[Any, str]]] = {
    "meld_values": [("face", "Face value"), ("house", "House values")],
    "score_values": [("face", "Face value"), ("house", "House values")],
    "joker_penalty": [(30, "30 points"), (25, "25 points")],
    "joker_set_rule": [("free", "Free to rearrange"), ("locked", "Only extended")],
    "joker_replacement_source": [("rack_or_table", "Rack or table"), ("rack_only", "Rack only")],
    "joker_group_retrieval": [
        ("either_missing", "Either missing colour"),
        ("both_missing", "Both missing colours"),
    ],
    "score_mode": [("zero_sum", "Zero-sum"), ("penalty_only", "Penalty points")],
    "pool_empty_winner": [("lowest_value", "Lowest rack value"), ("fewest_tiles", "Fewest tiles")],
    "pool_empty_scoring": [
        ("difference", "Difference to the winner"),
        ("face", "Face value"),
        ("winner_difference", "Winner gets the differences"),
    ],
    "pool_empty_end": [
        ("play_until_blocked", "Until nobody can play"),
        ("one_more_round", "After one more round"),
        ("immediate", "At once"),
    ],
    "draw_mode": [("single", "One tile"), ("river", "Two, one to the River")],
    "rack_size": [(14, "14 tiles"), (16, "16 tiles")],
    "direction": [("clockwise", "Clockwise"), ("counter_clockwise", "Counter-clockwise")],
}
OPTION_HELP = {
    "meld_values": "House values: 1 counts 15, 2-9 count 5, 10-13 count 10.",
    "score_mode": "Zero-sum: the winner scores what the others lose. Penalty points: "
    "lowest total wins.",
    "allow_wrap": "Runs may go on from 13 to 1, like 12 13 1.",
    "draw_mode": "With the River a player draws two tiles and discards one face up.",
    "initial_meld_min": f"From 0 to {MAX_INITIAL_MELD}; with a single-set meld at most "
    f"{LARGEST_SET_VALUE['face']} (face values) or {LARGEST_SET_VALUE['house']} (house "
    "values), as no set is worth more.",
    "failed_turn_penalty_draw": f"At most {MAX_PENALTY_DRAW} tiles.",
    "overtime_penalty_draw": f"At most {MAX_PENALTY_DRAW} tiles.",
}
# The ranges are checked by the ruleset itself (see clean), so the form refuses what
# the engine refuses, in its words; the browser is told them too.
NUMBER_OPTIONS = {
    "initial_meld_min": (0, MAX_INITIAL_MELD),
    "failed_turn_penalty_draw": (0, MAX_PENALTY_DRAW),
    "overtime_penalty_draw": (0, MAX_PENALTY_DRAW),
}
OPTION_FIELDS = [
    "initial_meld_min",
    "initial_meld_single_set",
    "initial_meld_same_turn_manipulation",
    "meld_values",
    "score_values",
    "joker_penalty",
    "allow_wrap",
    "joker_set_rule",
    "joker_replacement_source",
    "joker_group_retrieval",
    "score_mode",
    "pool_empty_winner",
    "pool_empty_scoring",
    "pool_empty_end",
    "failed_turn_penalty_draw",
    "overtime_penalty_draw",
    "draw_mode",
    "rack_size",
    "direction",
]


def preset_values() -> dict[str, dict[str, Any]]:
    """Each preset's value of every option of the form (for the page's script)."""
    return {
        name: {key: Ruleset.preset(name).to_dict()[key] for key in OPTION_FIELDS}
        for name in PRESETS
    }


class TableForm(forms.Form):
    """A new table: the creator takes seat 1; seats 2-4 are open, invited or bots."""

    seats = forms.TypedChoiceField(
        label="Players",
        choices=[(n, f"{n} players") for n in range(2, MAX_SEATS + 1)],
        coerce=int,
        initial=2,
    )
    preset = forms.ChoiceField(label="Rules", choices=Preset.choices, initial=Preset.STANDARD)
    clock = forms.ChoiceField(
        label="Clock",
        choices=[
            (Table.Clock.LIVE, "Live: everyone at the table now"),
            (Table.Clock.CORRESPONDENCE, "Correspondence: a move when you have time"),
        ],
        initial=Table.Clock.LIVE,
        widget=forms.RadioSelect,
    )
    turn_seconds = forms.TypedChoiceField(
        label="Time for a turn", choices=TURN_TIMES, coerce=int, initial=60
    )
    time_bank_seconds = forms.TypedChoiceField(
        label="Time bank",
        choices=BANKS,
        coerce=int,
        initial=0,
        help_text="Each player's reserve: unused turn time goes in, overtime comes out.",
    )
    timeouts_to_forfeit = forms.IntegerField(
        label="Timeouts before a forfeit",
        min_value=1,
        max_value=10,
        initial=3,
        help_text="Turns in a row that run out of time before a player forfeits.",
    )
    on_forfeit = forms.ChoiceField(
        label="When a player forfeits",
        choices=Table.OnForfeit.choices,
        initial=Table.OnForfeit.DROP_OUT,
    )
    games_in_round = forms.IntegerField(
        label="Games in the round",
        min_value=1,
        max_value=20,
        required=False,
        help_text="Empty: one game per player, so everyone starts once.",
    )

    def __init__(self, *args: Any, creator: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        for number in range(2, MAX_SEATS + 1):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=f"Seat {number}", choices=SEAT_CHOICES, initial="open"
            )
            self.fields[f"seat_{number}_user"] = forms.CharField(
                label=f"Username for seat {number}", required=False, max_length=150
            )
        standard = Ruleset().to_dict()
        for key in OPTION_FIELDS:
            self.fields[key] = self._option_field(key, standard[key])

    @staticmethod
    def _option_field(key: str, initial: Any) -> forms.Field:
        label, help_text = OPTION_LABELS[key], OPTION_HELP.get(key, "")
        field: forms.Field
        if key in BOOLEAN_OPTIONS:
            field = forms.BooleanField(label=label, required=False, initial=initial)
        elif key in NUMBER_OPTIONS:
            low, high = NUMBER_OPTIONS[key]
            widget = forms.NumberInput(attrs={"min": low, "max": high})
            field = forms.IntegerField(label=label, initial=initial, widget=widget)
        else:
            choices = CHOICE_OPTIONS[key]
            coerce = int if isinstance(choices[0][0], int) else str
            field = forms.TypedChoiceField(
                label=label, choices=choices, coerce=coerce, initial=initial
            )
        field.help_text = help_text
        return field

    def seat_fields(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [
            (number, self[f"seat_{number}"], self[f"seat_{number}_user"])
            for number in range(2, MAX_SEATS + 1)
        ]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[key] for key in OPTION_FIELDS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        clock, seconds = cleaned.get("clock"), cleaned.get("turn_seconds")
        if clock and seconds:
            offered = (
                LIVE_TURN_SECONDS if clock == Table.Clock.LIVE else CORRESPONDENCE_TURN_SECONDS
            )
            if seconds not in offered:
                kind = "live" if clock == Table.Clock.LIVE else "correspondence"
                self.add_error("turn_seconds", f"Choose one of the {kind} times.")
        self._check_rules(cleaned)
        count = cleaned.get("seats")
        if not count:
            return cleaned
        plans = [SeatPlan.taken_by(self.creator)]
        invited: set[int] = {self.creator.pk}
        for number in range(2, count + 1):
            plan = self._seat_plan(number, cleaned, invited)
            if plan is not None:
                plans.append(plan)
        cleaned["plans"] = plans
        return cleaned

    def _check_rules(self, cleaned: dict[str, Any]) -> None:
        """The options as the engine takes them: out of range, or a combination that
        cannot be met (a single-set meld above the largest set), is refused by the
        ruleset and shown by its field."""
        if cleaned.get("preset") is None or any(key not in cleaned for key in OPTION_FIELDS):
            return  # a field is already refused
        try:
            Ruleset.from_dict({key: cleaned[key] for key in OPTION_FIELDS}, cleaned["preset"])
        except RulesetError as error:
            self.add_error(error.option if error.option in self.fields else None, str(error))

    def _seat_plan(
        self, number: int, cleaned: dict[str, Any], invited: set[int]
    ) -> SeatPlan | None:
        kind = cleaned.get(f"seat_{number}")
        username = (cleaned.get(f"seat_{number}_user") or "").strip()
        field = f"seat_{number}_user"
        if kind == "open":
            return SeatPlan.open()
        if kind and kind.startswith("bot_"):
            return SeatPlan.bot(kind.removeprefix("bot_"))
        if not username:
            self.add_error(field, "Whom do you invite? Give their username.")
            return None
        user = User.objects.filter(username__iexact=username, is_active=True).first()
        if user is None:
            self.add_error(field, f"There is no member called {username!r}.")
            return None
        if user.pk == self.creator.pk:
            self.add_error(field, "You already sit at seat 1.")
            return None
        if user.pk in invited:
            self.add_error(field, f"{user} is already invited to another seat.")
            return None
        invited.add(user.pk)
        return SeatPlan.reserved_for(user)

    def options(self) -> dict[str, Any]:
        """The options that differ from the chosen preset."""
        base = Ruleset.preset(self.cleaned_data["preset"]).to_dict()
        chosen = {key: self.cleaned_data[key] for key in OPTION_FIELDS}
        return {key: value for key, value in chosen.items() if value != base[key]}

    def preset_values(self) -> dict[str, dict[str, Any]]:
        return preset_values()


def _target(value: str) -> int | str:
    if value in (RACK, NEW_SET):
        return value
    return parse_number(value)


class MoveForm(forms.Form):
    """One or several tiles moved to one place of the working table.

    ``tile`` and ``source`` come in pairs (repeated fields); a source is ``rack`` or a set
    index from 0; the target is a set index, ``new`` or ``rack``.
    """

    target = forms.RegexField(regex=r"^(rack|new|[0-9]{1,3})$")
    position = NumberField(min_value=0, max_value=200, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        tiles = self.data.getlist("tile") if hasattr(self.data, "getlist") else []
        sources = self.data.getlist("source") if hasattr(self.data, "getlist") else []
        if not tiles or len(tiles) != len(sources) or len(tiles) > 40:
            raise forms.ValidationError("Choose the tiles to move.")
        picks: list[tuple[str, int | str]] = []
        try:
            for tile, source in zip(tiles, sources, strict=True):
                picks.append((tile, source if source == RACK else parse_number(source, high=200)))
        except BadInput:
            raise forms.ValidationError("Choose the tiles to move.") from None
        cleaned["picks"] = picks
        if "target" in cleaned:
            cleaned["target"] = _target(cleaned["target"])
        return cleaned


class VersionForm(forms.Form):
    """What every move sends: the game's version the player was shown."""

    version = NumberField(min_value=0)


class DiscardForm(VersionForm):
    tile = forms.CharField(max_length=3)


class RiverForm(VersionForm):
    index = NumberField(min_value=0, max_value=200)


class TableJSONForm(forms.Form):
    """A whole working table as JSON (the solver's hint, loaded into the draft)."""

    table = JSONTextField()

    def clean_table(self) -> list[list[str]]:
        table = self.cleaned_data["table"]
        if not isinstance(table, list) or not all(
            isinstance(tile_set, list) and all(isinstance(tile, str) for tile in tile_set)
            for tile_set in table
        ):
            raise forms.ValidationError("A table is a list of sets of tiles.")
        return table


class PickForm(forms.Form):
    """Tiles picked on the rack (repeated ``tile`` fields)."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        tiles = self.data.getlist("tile") if hasattr(self.data, "getlist") else []
        if not tiles or len(tiles) > 40:
            raise forms.ValidationError("Pick the tiles of your rack you want to lay first.")
        cleaned["tiles"] = tiles
        return cleaned


class PreferencesForm(forms.Form):
    """How each kind of notification is emailed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind, label in NotificationKind.choices:
            self.fields[kind] = forms.ChoiceField(
                label=label, choices=Delivery.choices, widget=forms.RadioSelect
            )


class VacationForm(forms.Form):
    days = NumberField(label="Days", min_value=1, max_value=366, initial=3)
    starts_on = forms.DateField(
        label="Starting on",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Empty: from now.",
    )
