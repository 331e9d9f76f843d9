"""A moderator hides a reported chat message from the table, or shows it again.

The message stays for the case's evidence (marked hidden there); only the table stops
showing it. Who may: whoever may rule on the case (:func:`~moderation.services.checks.
check_moderator`: they moderate it, have no conflict in it, and hold its claim while it
is open). Only a message reported in the case is hidden through it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.services import NotFound as GameNotFound
from games.services import chat
from moderation.errors import ModerationError, NotFound
from moderation.models import Case, LogEntry, Report
from moderation.services.checks import check_moderator


def set_message_hidden(case_id: int, message_id: int, moderator: User, hidden: bool) -> None:
    """Hide (``hidden``) or show again message ``message_id`` reported in ``case_id``;
    logged as ``message_hidden`` either way, with what was done."""
    with transaction.atomic():
        # Locked: the claim cannot change hands while we decide and log.
        case = Case.objects.select_for_update(of=("self",)).filter(pk=case_id).first()
        if case is None:
            raise NotFound("No such case.")
        check_moderator(moderator, case)
        if message_id not in reported_message_ids(case):
            raise ModerationError("That message was not reported in this case.")
        try:
            message = chat.set_hidden(message_id, hidden, moderator)
        except GameNotFound:
            raise NotFound("There is no such message.") from None
        done = "Hid" if hidden else "Showed again"
        LogEntry.objects.create(
            at=timezone.now(),
            actor=moderator,
            action=LogEntry.Action.MESSAGE_HIDDEN,
            case=case,
            club_id=case.club_id,
            summary=f"{done} {message.author}'s message at table {message.table_id} "
            f"(case {case.pk}).",
            changes={"message": message.pk, "hidden": hidden},
        )


def reported_message_ids(case: Case) -> set[int]:
    """The chat messages reported in ``case``: the one that opened it, and each report's."""
    ids = set(
        Report.objects.filter(case=case).exclude(message=None).values_list("message_id", flat=True)
    )
    return ids | ({case.message_id} if case.message_id is not None else set())
