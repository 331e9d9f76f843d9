"""The moderation log's hash chain: what an entry's digests are made of.

Each entry carries ``content_digest``, the SHA-256 of its canonical content (computed
here when it is inserted), and, once its transaction commits, ``position`` (its place in
the chain) and ``digest``: the SHA-256 of the previous entry's digest followed by its own
content digest. A database trigger seals the entries at commit, under a lock, so the
chain is one line however many moderators act at once (see ``LogEntry``'s triggers).

Changing an entry's content, deleting one, or inserting one behind the app's back
breaks the chain from that entry on: :func:`moderation.selectors.log_chain.verify`
names the first entry that no longer fits. (Whoever can rewrite every later digest
too can hide a change: keep the head digest that ``verify_moderation_log`` prints
somewhere else to catch that.)
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC
from typing import Any, Protocol


class Content(Protocol):
    """What a log entry's digest covers (the model and its migration's version)."""

    at: Any
    actor_id: int | None
    action: str
    case_id: int | None
    club_id: int | None
    summary: str
    reason: str
    changes: Any


def canonical(entry: Content) -> bytes:
    """The entry's content as one string of bytes: its fields in JSON, keys sorted, the
    time in UTC to the microsecond (what PostgreSQL keeps)."""
    fields = {
        "at": entry.at.astimezone(UTC).isoformat(timespec="microseconds"),
        "actor": entry.actor_id,
        "action": entry.action,
        "case": entry.case_id,
        "club": entry.club_id,
        "summary": entry.summary,
        "reason": entry.reason,
        "changes": entry.changes,
    }
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_digest(entry: Content) -> str:
    """The SHA-256 of :func:`canonical`, in hex."""
    return hashlib.sha256(canonical(entry)).hexdigest()


def link(previous: str, content: str) -> str:
    """An entry's digest: the SHA-256 of the previous entry's digest (empty for the
    first) followed by its content digest, both hex. The sealing trigger computes the
    same in SQL: ``sha256(convert_to(previous || content, 'UTF8'))``."""
    return hashlib.sha256((previous + content).encode()).hexdigest()
