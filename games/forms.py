"""The lobby's forms: a new table with its seats and rules, and the requests of the game page.

:class:`TableForm` has a field for every house-rule option of the engine's description
(:mod:`engine.options`), set to the preset's value, and produces the table's
:class:`~games.models.table_settings.TableSettings`; they keep the preset's name and only the
options that differ from it, a short list of house rules.
"""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from common.parsing import BadInput, DayField, JSONTextField, NumberField, parse_number
from engine.clock import CORRESPONDENCE_TURN_SECONDS, DAY, LIVE_TURN_SECONDS
from engine.options import PRESETS, Option, groups, house_rule_options
from engine.ruleset import Ruleset, RulesetError
from games.errors import TableError
from games.models import BotLevel, Preset, Table
from games.models.table_settings import TableSettings
from games.selectors.listing import turn_label
from games.services import NEW_SET, RACK, SeatPlan

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

SET_BY_TABLE_FIELDS = {"players": "seats", "turn_time_limit_s": "turn_seconds"}
"""The ruleset options that are no house rule, and the form field that sets each."""


def option_field(option: Option) -> forms.Field:
    """The form field of one ruleset option, from its description: a checkbox, a list
    of its choices, or a number box told the option's bounds (the bounds themselves are
    checked by the ruleset, so the form refuses what the engine refuses, in its words)."""
    field: forms.Field
    help_text = f"{option.bounds()} {option.help}".strip()
    if option.kind == "bool":
        field = forms.BooleanField(required=False)
    elif option.kind == "int":
        widget = forms.NumberInput(attrs={"min": option.low, "max": option.high})
        field = forms.IntegerField(widget=widget)
    else:
        choices = [(choice.value, choice.label) for choice in option.choices]
        coerce = int if isinstance(option.default, int) else str
        field = forms.TypedChoiceField(choices=choices, coerce=coerce)
    field.label, field.help_text, field.initial = option.label, help_text, option.default
    return field


def preset_values() -> dict[str, dict[str, Any]]:
    """Each preset's value of every option of the form (for the page's script)."""
    return {
        preset: {option.name: option.default_in(preset) for option in house_rule_options()}
        for preset in PRESETS
    }


class TableSettingsForm(forms.Form):
    """A table's settings apart from its seats: rules preset and options, clock, round
    and forfeits; ``cleaned_data["settings"]`` is their
    :class:`~games.models.table_settings.TableSettings`. The new-table form adds the seats; a
    league's form, the number of seats of its fixtures."""

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
    weekend_pause = forms.BooleanField(
        label="Pause on weekends",
        required=False,
        help_text="Correspondence only: a turn's clock stands still from Saturday 00:00 to "
        "Monday 00:00 in the time zone of the player whose turn it is.",
    )
    timeouts_to_forfeit = forms.IntegerField(
        label="Timeouts before a forfeit",
        min_value=1,
        max_value=10,
        initial=3,
        help_text="Turns in a row that run out of time before a player forfeits.",
    )
    # Short enough for the select's width on a phone and beside two other fields on a
    # desktop; the help text tells the rest.
    on_forfeit = forms.ChoiceField(
        label="When a player forfeits",
        choices=[
            (Table.OnForfeit.DROP_OUT, "They drop out"),
            (Table.OnForfeit.BOT, "A bot plays on"),
        ],
        initial=Table.OnForfeit.DROP_OUT,
        help_text="Dropping out scores as a loser; a bot finishes the game in their seat.",
    )
    games_in_round = forms.IntegerField(
        label="Games in the round",
        min_value=1,
        max_value=20,
        required=False,
        help_text="Empty: one game per player, so everyone starts once.",
    )

    CLOCK_FIELDS = (
        "turn_seconds",
        "time_bank_seconds",
        "weekend_pause",
        "games_in_round",
        "timeouts_to_forfeit",
        "on_forfeit",
    )
    """The fields shown under the clock (the rest of the round's settings)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for option in house_rule_options():
            self.fields[option.name] = option_field(option)

    @staticmethod
    def initial_for(settings: TableSettings) -> dict[str, Any]:
        """The fields' values showing ``settings`` (a league's, to edit them)."""
        values = settings.to_dict()
        options = {
            option.name: settings.options.get(option.name, option.default_in(settings.preset))
            for option in house_rule_options()
        }
        return {name: value for name, value in values.items() if name != "options"} | options

    def clock_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.CLOCK_FIELDS]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[option.name] for option in house_rule_options()]

    def option_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The option fields under the description's group titles."""
        return [(title, [self[option.name] for option in options]) for title, options in groups()]

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
        settings = self._settings(cleaned)
        if settings is not None:
            cleaned["settings"] = settings
        return cleaned

    def _check_rules(self, cleaned: dict[str, Any]) -> None:
        """The options as the engine takes them: out of range, or a combination that
        cannot be met (a single-set meld above the largest set), is refused by the
        ruleset and shown by its field."""
        names = [option.name for option in house_rule_options()]
        if cleaned.get("preset") is None or any(name not in cleaned for name in names):
            return  # a field is already refused
        try:
            Ruleset.from_dict({name: cleaned[name] for name in names}, cleaned["preset"])
        except RulesetError as error:
            self.add_error(error.option if error.option in self.fields else None, str(error))

    def _settings(self, cleaned: dict[str, Any]) -> TableSettings | None:
        """The table's settings, once every field is read; ``None`` if one is refused."""
        names = ["preset", "clock", "turn_seconds", "time_bank_seconds", "timeouts_to_forfeit"]
        names += ["on_forfeit", *(option.name for option in house_rule_options())]
        if self.errors or any(name not in cleaned for name in names):
            return None
        try:
            return TableSettings(
                preset=cleaned["preset"],
                options={option.name: cleaned[option.name] for option in house_rule_options()},
                clock=cleaned["clock"],
                turn_seconds=cleaned["turn_seconds"],
                time_bank_seconds=cleaned["time_bank_seconds"],
                # Live tables do not offer it: a box left ticked before choosing a live
                # clock (the page hides it then) asks for nothing.
                weekend_pause=bool(cleaned.get("weekend_pause"))
                and cleaned["clock"] == Table.Clock.CORRESPONDENCE,
                games_in_round=cleaned.get("games_in_round"),
                timeouts_to_forfeit=cleaned["timeouts_to_forfeit"],
                on_forfeit=cleaned["on_forfeit"],
            )
        except TableError as error:
            self.add_error(None, error.message)
            return None

    def preset_values(self) -> dict[str, dict[str, Any]]:
        return preset_values()


class TableForm(TableSettingsForm):
    """A new table: the creator takes seat 1; seats 2-4 are open, invited or bots."""

    seats = forms.TypedChoiceField(
        label="Players",
        choices=[(n, f"{n} players") for n in range(2, MAX_SEATS + 1)],
        coerce=int,
        initial=2,
    )

    private = forms.BooleanField(
        label="Private table",
        required=False,
        help_text="Seen only by its players and the members you invite: it is not listed "
        "under “Watch a game”, and nobody else may open it.",
    )

    field_order = ["seats"]

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

    def seat_fields(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [
            (number, self[f"seat_{number}"], self[f"seat_{number}_user"])
            for number in range(2, MAX_SEATS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
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


class VacationForm(forms.Form):
    days = NumberField(label="Days", min_value=1, max_value=366, initial=3)
    starts_on = DayField(
        label="Starting on",
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Empty: from now.",
    )
