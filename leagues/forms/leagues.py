"""The forms of leagues and seasons: a league's house rules, a new season's dates.

:class:`LeagueForm` is the new-table form's settings (:class:`games.forms.TableSettingsForm`:
rules preset and options, clock, games per fixture, forfeits) with the league's own
rules; its ``house_rules()`` are what :mod:`leagues.services.leagues` takes, and it
checks them with :func:`leagues.house_rules.check_house_rules` so the page points at
the field at fault.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone

from common.parsing import MomentField
from games.forms import TableSettingsForm
from games.models.table_settings import TableSettings
from leagues.house_rules import (
    DEFAULTS,
    MATCHDAY_DAYS,
    MAX_DIVISION_SIZE,
    MAX_VACATION_DAYS,
    TURNS_PER_PLAYER,
    HouseRulesError,
    check_house_rules,
    pace_warning,
)
from leagues.models import TIEBREAKS, League, OnDeadline, OnSuspension, OnWithdrawal, Scoring
from leagues.services import bounds
from leagues.slugs import LEAGUE_SLUGS_RESERVED

PLACES = ("1st", "2nd", "3rd", "4th")


class LeagueForm(TableSettingsForm):
    """A league's name and house rules; ``slug`` only when it is created."""

    name = forms.CharField(label="Name", max_length=80)
    slug = forms.SlugField(
        label="Address",
        max_length=50,
        required=False,
        help_text="Letters, digits and hyphens: the league's page is /clubs/<club>/<address>/. "
        "Leave it empty to make one from the name. It cannot be changed later.",
    )
    description = forms.CharField(
        label="Description",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    seats = forms.TypedChoiceField(
        label="Players at a fixture",
        choices=[(n, f"{n} players") for n in (2, 3, 4)],
        coerce=int,
        initial=DEFAULTS["seats"],
    )
    scoring = forms.ChoiceField(
        label="Scoring", choices=Scoring.choices, initial=Scoring.CUMULATIVE
    )
    placement_points = forms.CharField(
        label="Placement points",
        required=False,
        max_length=40,
        help_text="For placement scoring: points for 1st, 2nd, ... place, e.g. 4/2/1/0.",
    )
    division_size = forms.IntegerField(
        label="Division size",
        required=False,
        min_value=2,
        max_value=MAX_DIVISION_SIZE,
        help_text="Empty: everyone in one division.",
    )
    promotion = forms.IntegerField(
        label="Promoted and relegated",
        min_value=0,
        max_value=MAX_DIVISION_SIZE // 2,
        initial=DEFAULTS["promotion"],
        help_text="Players who move up and down between divisions after a season.",
    )
    matchday_days = forms.IntegerField(
        label="Days per matchday",
        min_value=MATCHDAY_DAYS[0],
        max_value=MATCHDAY_DAYS[1],
        initial=DEFAULTS["matchday_days"],
        help_text="From a matchday's opening to its deadline.",
    )
    vacation_days = forms.IntegerField(
        label="Vacation days per season",
        min_value=0,
        max_value=MAX_VACATION_DAYS,
        initial=DEFAULTS["vacation_days"],
    )
    vacations_extend = forms.BooleanField(
        label="A vacation extends its player's fixture",
        required=False,
        initial=DEFAULTS["vacations_extend"],
        help_text="By the days it overlaps the matchday, at most the matchday's length. "
        "Else the fixture keeps its deadline, and the close preview names the player.",
    )
    on_deadline = forms.ChoiceField(
        label="A fixture unfinished at the deadline", choices=OnDeadline.choices
    )
    on_withdrawal = forms.ChoiceField(label="When a player withdraws", choices=OnWithdrawal.choices)
    on_suspension = forms.ChoiceField(
        label="When a moderator suspends a player",
        choices=OnSuspension.choices,
        help_text="Their running fixtures, and those a matchday opens while they are suspended.",
    )
    registration_approval = forms.BooleanField(
        label="An organiser approves each registration", required=False
    )

    LEAGUE_FIELDS = tuple(
        name
        for name in League.HOUSE_RULES
        if name not in ("table_settings", "tiebreaks", "registration_approval")
    )
    """The house rules with a field of their own (the table settings come from the
    settings' fields, the tiebreaks from one field per place)."""

    def __init__(self, *args: Any, league: League | None = None, **kwargs: Any) -> None:
        if league is not None:
            kwargs.setdefault("initial", initial_for(league))
        super().__init__(*args, **kwargs)
        self.league = league
        if league is not None:
            del self.fields["slug"]  # an address stays what it was
        else:
            most = bounds.counted(bounds.leagues_per_club(), "league")
            self.fields["slug"].help_text += f" A club has at most {most}."
        self.fields["games_in_round"].label = "Games per fixture"
        self.fields[
            "games_in_round"
        ].help_text = "Empty: one game per seat, so everyone starts once."
        choices = [("", "—"), *TIEBREAKS.items()]
        for number in range(1, len(TIEBREAKS) + 1):
            self.fields[f"tiebreak_{number}"] = forms.ChoiceField(
                label=f"Tiebreak {number}", choices=choices, required=False
            )

    def league_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.LEAGUE_FIELDS]

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{number}"] for number in range(1, len(TIEBREAKS) + 1)]

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"].lower()
        if slug and (slug in LEAGUE_SLUGS_RESERVED or slug.isdigit()):
            raise forms.ValidationError("That address is taken by the club's own pages.")
        return slug

    def clean_placement_points(self) -> list[int]:
        text = self.cleaned_data["placement_points"].strip()
        if not text:
            return []
        parts = [part.strip() for part in text.replace(",", "/").split("/")]
        if not all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts):
            raise forms.ValidationError("Write the points as whole numbers, e.g. 4/2/1/0.")
        return [int(part) for part in parts]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        names = [f"tiebreak_{number}" for number in range(1, len(TIEBREAKS) + 1)]
        cleaned["tiebreaks"] = [cleaned[name] for name in names if cleaned.get(name)]
        if cleaned.get("scoring") == Scoring.CUMULATIVE:
            cleaned["placement_points"] = []
        if self.errors or "settings" not in cleaned:
            return cleaned
        try:
            check_house_rules(self.house_rules())
        except HouseRulesError as error:
            field = {"tiebreaks": "tiebreak_1", "table_settings": None}.get(
                error.field, error.field
            )
            self.add_error(field if field in self.fields else None, error.message)
        return cleaned

    turns_per_player = TURNS_PER_PLAYER
    """The pace warning's estimate, which the form states."""

    def pace_warning(self) -> str:
        """:func:`~leagues.house_rules.pace_warning` of the rules as sent ("" while they
        do not read), else of the league as it is ("" for a new league)."""
        if self.is_bound:
            cleaned = getattr(self, "cleaned_data", {})
            needed = ("settings", "seats", "matchday_days")
            if not all(cleaned.get(name) for name in needed):
                return ""
            settings: TableSettings = cleaned["settings"]
            return pace_warning(cleaned["seats"], settings.to_dict(), cleaned["matchday_days"])
        if self.league is None:
            return ""
        league = self.league
        return pace_warning(league.seats, league.table_settings, league.matchday_days)

    def house_rules(self) -> dict[str, Any]:
        """The league's name, description and every house rule, from the cleaned form."""
        cleaned = self.cleaned_data
        settings: TableSettings = cleaned["settings"]
        return {
            "name": cleaned["name"],
            "description": cleaned["description"],
            "table_settings": settings.to_dict(),
            "tiebreaks": cleaned["tiebreaks"],
            "registration_approval": cleaned["registration_approval"],
            **{name: cleaned[name] for name in self.LEAGUE_FIELDS},
        }


def initial_for(league: League) -> dict[str, Any]:
    """The form's fields showing ``league`` as it is."""
    settings = TableSettings.from_dict(league.table_settings)
    tiebreaks = {f"tiebreak_{n}": name for n, name in enumerate(league.tiebreaks, start=1)}
    return {
        **TableSettingsForm.initial_for(settings),
        **{name: getattr(league, name) for name in (*LeagueForm.LEAGUE_FIELDS, "name")},
        "description": league.description,
        "registration_approval": league.registration_approval,
        "placement_points": "/".join(map(str, league.placement_points)),
        **tiebreaks,
    }


def initial_for_new() -> dict[str, Any]:
    """A new league's fields: the default house rules."""
    tiebreaks = {f"tiebreak_{n}": name for n, name in enumerate(DEFAULTS["tiebreaks"], start=1)}
    return {
        "on_deadline": DEFAULTS["on_deadline"],
        "on_withdrawal": DEFAULTS["on_withdrawal"],
        "on_suspension": DEFAULTS["on_suspension"],
        **tiebreaks,
    }


class SeasonForm(forms.Form):
    """A new season's dates, both optional (empty: an organiser acts by hand)."""

    registration_closes_at = MomentField(
        label="Registration closes",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="Empty: an organiser closes it, or it closes when the season starts.",
    )
    starts_at = MomentField(
        label="Season starts",
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="When matchday 1 opens. Empty: an organiser starts it.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        zone = timezone.get_current_timezone_name()
        for name in ("registration_closes_at", "starts_at"):
            self.fields[name].label = f"{self.fields[name].label} ({zone})"
        most = bounds.open_seasons_per_club()
        self.fields["starts_at"].help_text += (
            f" A club runs at most {bounds.counted(most, 'season')} at a time; one that "
            "cannot start at its time waits for an organiser."
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        closes, starts = cleaned.get("registration_closes_at"), cleaned.get("starts_at")
        now = timezone.now()
        if closes and closes <= now:
            self.add_error("registration_closes_at", "Choose a moment in the future.")
        if starts and starts <= now:
            self.add_error("starts_at", "Choose a moment in the future.")
        if closes and starts and starts < closes:
            self.add_error("starts_at", "A season starts once registration has closed.")
        return cleaned
