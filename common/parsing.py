"""Strict reading of what a request sends: numbers, JSON and dates.

Python's ``int()`` and ``str.isdigit()`` accept far more than a page ever sends: ``"²"``
passes ``isdigit()`` and then fails ``int()``, ``"٣"`` is 3, ``"1_000"`` is 1000, and a
5,000-digit number either fails or reaches the database as an out-of-range id. Every
number a view takes from the URL, the query string or a form goes through
:func:`parse_number`; every JSON body through :func:`parse_json`. Both raise
:class:`BadInput`, which a view answers with 400 and no change. A form's day or moment
is a :class:`DayField` or a :class:`MomentField`: within :data:`FIRST_DAY` and
:data:`LAST_DAY`, so that the day after it, or a deadline's reminder, is still a date.

>>> parse_number("42")
42
>>> parse_number("²")
Traceback (most recent call last):
...
common.parsing.BadInput: Not a number: expected digits 0-9.
>>> parse_json('[["R7", "B7", "K7"]]')
[['R7', 'B7', 'K7']]
>>> parse_json("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
common.parsing.BadInput: The data is nested too deeply.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from django import forms

MAX_ID = 2**63 - 1
"""The largest id of a row (a PostgreSQL bigint)."""

MAX_DIGITS = len(str(MAX_ID))

MAX_JSON_CHARS = 20_000
"""A whole table of sets as JSON (106 tiles, quoted) takes under 1,500 characters."""

MAX_JSON_DEPTH = 4
"""A table is a list of sets, each a list of tiles: two levels; room to spare."""

FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2999, 12, 31)
"""The days a form accepts. No day of the site's past or future lies outside them, and
the calendar's last days overflow what follows them (9999-12-31 and one day more)."""

OUT_OF_RANGE = "Choose a {what} from 1 January 2000 to 31 December 2999."


class BadInput(ValueError):
    """A request that no page of the site sends: answered 400, nothing changes."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def parse_number(raw: str | None, low: int = 0, high: int = MAX_ID) -> int:
    """``raw`` as a whole number from ``low`` to ``high``: ASCII digits only, no sign,
    spaces or underscores, at most as many digits as the largest id."""
    if not raw or len(raw) > MAX_DIGITS or not (raw.isascii() and raw.isdigit()):
        raise BadInput("Not a number: expected digits 0-9.")
    number = int(raw)
    if not low <= number <= high:
        raise BadInput(f"The number must be from {low} to {high}.")
    return number


def parse_optional_number(raw: str | None, low: int = 0, high: int = MAX_ID) -> int | None:
    """Like :func:`parse_number`, but an absent or empty value is ``None``."""
    return None if not raw else parse_number(raw, low, high)


def parse_json(raw: str, max_chars: int = MAX_JSON_CHARS, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``raw`` decoded as JSON, refused when too long or nested too deeply.

    The depth is measured before decoding: ``json.loads`` recurses once per level, and a
    few thousand ``[`` would exhaust the interpreter's stack.
    """
    if len(raw) > max_chars:
        raise BadInput(f"The data is too long (at most {max_chars} characters).")
    if _depth(raw) > max_depth:
        raise BadInput("The data is nested too deeply.")
    try:
        return json.loads(raw)
    except ValueError:
        raise BadInput("The data is not valid JSON.") from None


def _depth(raw: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings
    do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class NumberField(forms.IntegerField):
    """A form's whole number, read by :func:`parse_number` (Django's own field accepts
    other scripts' digits and underscores)."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        try:
            return parse_number(str(value))
        except BadInput as error:
            raise forms.ValidationError(error.message, code="invalid") from None


class DayField(forms.DateField):
    """A form's day, from :data:`FIRST_DAY` to :data:`LAST_DAY`."""

    def validate(self, value: Any) -> None:
        super().validate(value)
        if isinstance(value, date) and not FIRST_DAY <= value <= LAST_DAY:
            raise forms.ValidationError(OUT_OF_RANGE.format(what="day"), code="out_of_range")


class MomentField(forms.DateTimeField):
    """A form's moment, on a day from :data:`FIRST_DAY` to :data:`LAST_DAY` (read in
    the current time zone, as the field reads the moment itself)."""

    def validate(self, value: Any) -> None:
        super().validate(value)
        if isinstance(value, datetime) and not FIRST_DAY <= value.date() <= LAST_DAY:
            raise forms.ValidationError(OUT_OF_RANGE.format(what="moment"), code="out_of_range")


class JSONTextField(forms.CharField):
    """A form's JSON text, read by :func:`parse_json`."""

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not text:
            return None
        try:
            return parse_json(text)
        except BadInput as error:
            raise forms.ValidationError(error.message, code="invalid") from None
