"""Checking the moderation log's hash chain (:mod:`moderation.log_chain`): every entry,
in its place, must carry the digest its content and the previous entry's digest give.

Walked whole by ``manage.py verify_moderation_log`` and by the beat job
``moderation.tasks.check_log_chain``, which keeps its answer (:func:`last_check`) for the
moderation log page: a page never walks a log that only grows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db.models import F
from django.utils import timezone

from moderation import log_chain
from moderation.models import LogEntry


@dataclass(frozen=True)
class ChainState:
    """The chain as checked: how many entries fit, and the first that does not."""

    entries: int
    head: str = ""
    broken: LogEntry | None = None
    why: str = ""

    @property
    def intact(self) -> bool:
        return self.broken is None

    def sentence(self) -> str:
        """The state in one sentence, as the page and the command say it."""
        if self.broken is None:
            noun = "entry" if self.entries == 1 else "entries"
            return f"The log's chain is intact, {self.entries} {noun}."
        entry = self.broken
        return (
            f"The log's chain is broken at entry {entry.pk} ({entry.at:%Y-%m-%d %H:%M} UTC, "
            f"{entry.get_action_display().lower()}): {self.why}"
        )


CHECK_KEY = "moderation:log-chain-check"


@dataclass(frozen=True)
class ChainCheck:
    """What the last walk of the chain found, and when: what the log page shows."""

    intact: bool
    sentence: str
    checked_at: datetime


def last_check() -> ChainCheck | None:
    """The last check the beat job kept, or ``None`` before the first."""
    kept: dict[str, Any] | None = cache.get(CHECK_KEY)
    if not kept:
        return None
    return ChainCheck(kept["intact"], kept["sentence"], kept["checked_at"])


def keep_check(state: ChainState) -> ChainCheck:
    """Keep ``state`` as the last check (until the next one replaces it)."""
    check = ChainCheck(state.intact, state.sentence(), timezone.now())
    kept = {"intact": check.intact, "sentence": check.sentence, "checked_at": check.checked_at}
    cache.set(CHECK_KEY, kept, timeout=None)
    return check


def verify() -> ChainState:
    """Walk the log in chain order and stop at the first entry that does not fit."""
    entries = LogEntry.objects.order_by(F("position").asc(nulls_last=True), "pk")
    previous = ""
    checked = 0
    for entry in entries.iterator(chunk_size=2000):
        why = _misfit(entry, checked + 1, previous)
        if why:
            return ChainState(checked, previous, entry, why)
        previous = entry.digest
        checked += 1
    return ChainState(checked, previous)


def _misfit(entry: LogEntry, position: int, previous: str) -> str:
    """Why ``entry`` does not fit at ``position`` after ``previous``, or ``""``."""
    if entry.position is None:
        return "it was never sealed into the chain (written with the seal turned off)."
    if entry.position != position:
        return (
            f"it stands at place {entry.position} where place {position} was expected "
            "(an entry before it is gone)."
        )
    if entry.digest != log_chain.link(previous, log_chain.content_digest(entry)):
        return "its content, its digest or an entry before it was changed since it was written."
    return ""
