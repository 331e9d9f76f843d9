"""Counting SQL statements wherever they run: the request's thread, the receivers run at
commit, and the threads a consumer's ``database_sync_to_async`` uses (each with its own
connection, which ``CaptureQueriesContext`` on one connection would miss)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db.backends.utils import CursorWrapper

_TABLE = re.compile(
    r'^\s*(?:SELECT\b.*?\bFROM|INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"(?P<table>[^"]+)"',
    re.IGNORECASE | re.DOTALL,
)


@dataclass
class Statement:
    """One statement as sent: its kind (``SELECT``, ``UPDATE``...), the table it reads or
    writes first (a ``SELECT``'s ``FROM``), and its text."""

    kind: str
    table: str
    sql: str


@dataclass
class Counted:
    """What ran inside :func:`count_everywhere`, in order."""

    statements: list[Statement] = field(default_factory=list)

    @property
    def queries(self) -> list[Statement]:
        """The statements that read or write rows: no savepoints (an ``atomic`` nested in
        a transaction costs a round trip, but is no query of the data)."""
        return [s for s in self.statements if s.kind in ("SELECT", "INSERT", "UPDATE", "DELETE")]

    def __len__(self) -> int:
        return len(self.queries)

    def of(self, kind: str, table: str) -> list[Statement]:
        """The statements of ``kind`` on ``table`` (``"games_seat"``)."""
        return [s for s in self.queries if s.kind == kind and s.table == table]

    def reads(self, table: str) -> int:
        return len(self.of("SELECT", table))

    def writes(self, table: str) -> int:
        return sum(len(self.of(kind, table)) for kind in ("INSERT", "UPDATE", "DELETE"))

    def listing(self) -> str:
        """The statements one a line, for an assertion's message."""
        return "\n".join(f"{s.kind} {s.table}: {s.sql[:160]}" for s in self.queries)


def _statement(sql: str) -> Statement:
    text = str(sql)
    kind = text.lstrip().split(None, 1)[0].upper() if text.strip() else ""
    found = _TABLE.match(text)
    return Statement(kind, found.group("table") if found else "", text)


@contextmanager
def count_everywhere() -> Iterator[Counted]:
    """Count every statement sent through Django's cursors, in every thread, while the
    block runs."""
    counted = Counted()
    lock = threading.Lock()
    original = CursorWrapper._execute

    def counting(self: CursorWrapper, sql: str, params: Any, *args: Any) -> Any:
        with lock:
            counted.statements.append(_statement(sql))
        return original(self, sql, params, *args)

    CursorWrapper._execute = counting  # type: ignore[method-assign]
    try:
        yield counted
    finally:
        CursorWrapper._execute = original  # type: ignore[method-assign]
