"""Appeals: a party of a decided case writes to its moderators, who answer and close.

An appeal is a thread (:class:`~moderation.models.Appeal` and its messages) between one
party of a case and the moderators who may take it. ``waiting_since`` is when the
appellant last wrote with no answer since: a moderator's answer clears it, the
appellant's next message sets it again, and the appeals queue is ordered by it, so
the longest wait comes first.

Who may appeal: the case's parties (who sat at the game, who filed it, whom it accuses)
and anyone a ruling of it names, once a ruling of the case has been applied. A
suspension does not stop a member appealing: a suspended member can log in, and these
services ask nothing of suspensions. Who may answer or close: a moderator who may take
the case (``moderation.take_case``: no conflict of interest).

Every step locks the case row first, so two moderators answering at once, or an
answer crossing the appellant's message, are ordered; each is logged and announced
(:data:`moderation.signals.appeal_changed`) after commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from moderation import signals
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound, TooMany
from moderation.models import Appeal, AppealMessage, Case, LogEntry
from moderation.permissions import conflicts
from moderation.selectors.appeals import appellant_ids, last_applied_at

LONGEST_TEXT = 4000
EXCERPT = 200


def open_appeal(case_id: int, user: User, text: str, now: datetime | None = None) -> Appeal:
    """``user`` appeals the outcome of case ``case_id`` with ``text``: a new thread,
    waiting for the moderators. Refused (nothing written) for a member who is no party
    (as if there were no case), a case not decided yet, a party whose appeal is open
    already or was closed since the last ruling, and an empty or too long text."""
    now = timezone.now() if now is None else now
    text = _text(text)
    with transaction.atomic():
        case = _lock_case(case_id)
        if user.pk not in appellant_ids(case):
            raise NotFound("There is no such case.")
        decided = last_applied_at(case)
        if decided is None:
            raise ModerationError("The case has no ruling yet: an appeal is of a ruling.")
        mine = Appeal.objects.filter(case=case, appellant=user)
        if mine.filter(status=Appeal.Status.OPEN).exists():
            raise Conflict("You have an appeal of this case open already: write in it.")
        if mine.filter(closed_at__gte=decided).exists():
            raise Conflict(
                "Your appeal of this case was closed after its last ruling; you may "
                "appeal again if a new ruling is made."
            )
        _within_daily_limit(user, now)
        try:
            with transaction.atomic():
                appeal = Appeal.objects.create(
                    case=case, appellant=user, opened_at=now, waiting_since=now
                )
        except IntegrityError as error:  # a second tab's appeal won the race
            raise Conflict("You have an appeal of this case open already: write in it.") from error
        AppealMessage.objects.create(appeal=appeal, author=user, text=text, created_at=now)
        _log(case, user, LogEntry.Action.APPEALED, f"{user} appealed the outcome", text, now)
        _announce(appeal, by_moderator=False)
        return appeal


def write(appeal_id: int, user: User, text: str, now: datetime | None = None) -> AppealMessage:
    """``user`` writes ``text`` in an open appeal: the appellant (the appeal waits for
    the moderators again, from now unless it was waiting already) or a moderator who
    may take the case (an answer: the appeal waits no more)."""
    now = timezone.now() if now is None else now
    text = _text(text)
    with transaction.atomic():
        appeal, case = _lock_appeal(appeal_id)
        as_moderator = _role(appeal, case, user)
        if appeal.status != Appeal.Status.OPEN:
            raise Conflict("This appeal is closed.")
        if as_moderator:
            appeal.waiting_since = None
            action = LogEntry.Action.ANSWERED
            summary = f"{user} answered the appeal of {appeal.appellant}"
        else:
            _within_daily_limit(user, now)
            appeal.waiting_since = appeal.waiting_since or now
            action = LogEntry.Action.APPEALED
            summary = f"{user} wrote again in their appeal"
        appeal.save(update_fields=["waiting_since"])
        message = AppealMessage.objects.create(
            appeal=appeal, author=user, from_moderator=as_moderator, text=text, created_at=now
        )
        _log(case, user, action, summary, text, now)
        _announce(appeal, by_moderator=as_moderator)
        return message


def close(appeal_id: int, moderator: User, text: str = "", now: datetime | None = None) -> Appeal:
    """A moderator who may take the case closes the appeal, with a last word if given.
    The appellant may appeal again only once a new ruling is made."""
    now = timezone.now() if now is None else now
    text = text.strip()
    if text:
        text = _text(text)
    with transaction.atomic():
        appeal, case = _lock_appeal(appeal_id)
        if not _role(appeal, case, moderator):
            raise NotAllowed("Only the case's moderators close an appeal.")
        if appeal.status != Appeal.Status.OPEN:
            raise Conflict("This appeal is closed already.")
        if text:
            AppealMessage.objects.create(
                appeal=appeal, author=moderator, from_moderator=True, text=text, created_at=now
            )
        appeal.status = Appeal.Status.CLOSED
        appeal.closed_at = now
        appeal.waiting_since = None
        appeal.save(update_fields=["status", "closed_at", "waiting_since"])
        summary = f"{moderator} closed the appeal of {appeal.appellant}"
        _log(case, moderator, LogEntry.Action.CLOSED_APPEAL, summary, text, now)
        _announce(appeal, by_moderator=True)
        return appeal


# --- helpers ---------------------------------------------------------------------------


def _text(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ModerationError("Write what you want the moderators to know.")
    if len(text) > LONGEST_TEXT:
        raise ModerationError(f"A message has at most {LONGEST_TEXT} characters.")
    return text


def _lock_case(case_id: int) -> Case:
    case = Case.objects.select_for_update().filter(pk=case_id).first()
    if case is None:
        raise NotFound("There is no such case.")
    return case


def _lock_appeal(appeal_id: int) -> tuple[Appeal, Case]:
    """The appeal and its case, the case row locked first (the order every moderation
    service takes)."""
    case_id = Appeal.objects.filter(pk=appeal_id).values_list("case_id", flat=True).first()
    if case_id is None:
        raise NotFound("There is no such appeal.")
    case = _lock_case(case_id)
    appeal = Appeal.objects.select_for_update().select_related("appellant").get(pk=appeal_id)
    return appeal, case


def _role(appeal: Appeal, case: Case, user: User) -> bool:
    """Whether ``user`` writes in ``appeal`` as a moderator (else as its appellant);
    a moderator with a conflict is told which; anyone else, another party of the case
    included, that there is no such appeal."""
    if user.pk == appeal.appellant_id:
        return False
    if user.has_perm("moderation.take_case", case):
        return True
    if user.has_perm("moderation.read_case", case):
        raise NotAllowed(f"You may not answer this appeal: {' '.join(conflicts(user, case))}")
    raise NotFound("There is no such appeal.")


def _within_daily_limit(user: User, now: datetime) -> None:
    cap = settings.MODERATION_APPEAL_MESSAGES_PER_DAY
    written = AppealMessage.objects.filter(
        author=user, from_moderator=False, created_at__gt=now - timedelta(days=1)
    ).count()
    if written >= cap:
        raise TooMany(f"You have written {cap} appeal messages in a day: write again tomorrow.")


def _log(case: Case, actor: User, action: str, summary: str, text: str, now: datetime) -> None:
    LogEntry.objects.create(
        at=now,
        actor=actor,
        action=action,
        case=case,
        club_id=case.club_id,
        summary=summary[:300],
        reason=text[:EXCERPT],
    )


def _announce(appeal: Appeal, by_moderator: bool) -> None:
    send_after_commit(
        signals.appeal_changed,
        Appeal,
        appeal_id=appeal.pk,
        case_id=appeal.case_id,
        by_moderator=by_moderator,
    )
