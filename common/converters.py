"""The path converters every app's addresses use, registered once by
:meth:`common.apps.CommonConfig.ready`, before any ``urls`` module is read.

``<id:pk>`` is an id in the address: ASCII digits within a bigint. Django's ``int``
takes any length, and an id past the column's range fails in the database, not with a
404.

>>> converter = IdConverter()
>>> converter.to_python("42"), converter.to_url(42)
(42, '42')
>>> converter.to_python("٣")
Traceback (most recent call last):
...
ValueError: Not a number: expected digits 0-9.
"""

from __future__ import annotations

from common.parsing import BadInput, parse_number


class IdConverter:
    """An id in the address: ASCII digits within a bigint."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        try:
            return parse_number(value)
        except BadInput as error:
            raise ValueError(error.message) from None  # no match: 404

    def to_url(self, value: int) -> str:
        return str(value)
