"""Private notes between a case's moderators: added, never edited (a correction is a
new note naming the one it corrects), logged without their words.

Who may add one is ``moderation.add_note`` (:mod:`moderation.permissions`): a moderator of
the case who is not a party to it. The log entry says that a note was added, not what
it says: the notes are read on the case page, by those who may read them.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from moderation.errors import ModerationError, NotAllowed, NotFound
from moderation.models import Case, CaseNote, LogEntry
from moderation.permissions import is_party

LONGEST_NOTE = 2000


def add_note(case_id: int, user: User, text: str, corrects: int | None = None) -> CaseNote:
    """A new note of ``user``'s on the case, maybe correcting an earlier note of it."""
    text = text.strip()
    if not text:
        raise ModerationError("Write the note.")
    if len(text) > LONGEST_NOTE:
        raise ModerationError(f"A note has at most {LONGEST_NOTE} characters.")
    with transaction.atomic():
        case = Case.objects.filter(pk=case_id).first()
        if case is None:
            raise NotFound("There is no such case.")
        if not user.has_perm("moderation.add_note", case):
            if is_party(user, case):
                raise NotAllowed("The parties to a case do not read or write its notes.")
            raise NotFound("There is no such case.")
        earlier = None
        if corrects is not None:
            earlier = CaseNote.objects.filter(pk=corrects, case=case).first()
            if earlier is None:
                raise ModerationError("A correction names an earlier note of the same case.")
        now = timezone.now()
        note = CaseNote.objects.create(
            case=case, author=user, text=text, corrects=earlier, created_at=now
        )
        summary = f"{user} added a private note to case {case.pk}"
        if earlier is not None:
            summary += f", correcting note {earlier.pk}"
        LogEntry.objects.create(
            at=now,
            actor=user,
            action=LogEntry.Action.NOTE_ADDED,
            case=case,
            club_id=case.club_id,
            summary=f"{summary} (note {note.pk}; its words are on the case's page).",
        )
    return note
