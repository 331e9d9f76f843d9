"""Everyone concerned is told: a filer that their report was received, the outcome of a
ruling to the case's parties, and each step of an appeal to the other side of its thread.

These run from receivers of :mod:`moderation.signals`, after the commit of the ruling or
the appeal, and write notifications (:func:`notifications.services.notices.create`) in
one transaction of their own. Each carries a key, so a signal delivered twice tells
nobody twice.

The outcome of a ruling goes to

* the filers of its case (kind ``moderation_case``: "your report was decided"),
* whom it accuses or names (the case's accused, the ruling's target), and
* the other seats of the game (both kind ``moderation_outcome``),

each with the ruling's kind and its note (the reason, written for the parties) and a
link to the case's outcome page, where they read it whole and may appeal. The
moderators who made or confirmed the ruling are not told of their own work as parties;
the one who proposed a ruling is told when a second moderator confirms it or declines
it, with the reason (:func:`tell_proposer`).
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse

from accounts.models import User
from moderation.models import Appeal, Case, Report, Ruling
from moderation.notices import ModerationNotice
from moderation.permissions import seated_user_ids
from moderation.selectors.rulings import decline_reasons
from notifications.services import notices

NOTE_EXCERPT = 160


def tell_outcome(ruling_id: int, superseded_id: int | None = None) -> int:
    """Notify the parties of ruling ``ruling_id``'s outcome; returns how many were told
    (none for a ruling gone or not in effect)."""
    ruling = (
        Ruling.objects.select_related("case__game", "target")
        .filter(pk=ruling_id, applied_at__isnull=False)
        .first()
    )
    if ruling is None:
        return 0
    case = ruling.case
    told = 0
    with transaction.atomic():
        for user_id, (kind, headline) in _recipients(ruling).items():
            text = _outcome_text(headline, ruling, superseded_id is not None)
            created = notices.create(
                user_id,
                kind,
                text,
                reverse("moderation:appeal_new", args=[case.pk]),
                subject=ruling,
                key=f"moderation-outcome:ruling-{ruling.pk}",
            )
            told += created is not None
    return told


def tell_proposer(ruling_id: int) -> bool:
    """Tell the moderator who proposed ruling ``ruling_id`` that a second moderator
    confirmed it (it is applied) or declined it (with the reason); once. False when
    nobody answered it yet, or it was told already."""
    ruling = (
        Ruling.objects.select_related("case", "confirmed_by")
        .filter(pk=ruling_id)
        .exclude(confirmed_by=None)
        .exclude(status=Ruling.Status.PROPOSED)
        .first()
    )
    if ruling is None:
        return False
    what = f"your ruling in case {ruling.case_id} ({ruling.get_kind_display().lower()})"
    if ruling.status == Ruling.Status.DECLINED:
        why = decline_reasons(ruling.case).get(ruling.pk, "")
        text = f"{ruling.confirmed_by} declined {what}: nothing of it happens. Why: {excerpt(why)}"
    else:
        text = f"{ruling.confirmed_by} confirmed {what}: it is applied."
    with transaction.atomic():
        told = notices.create(
            ruling.by_id,
            ModerationNotice.MODERATION_QUEUE,
            text,
            reverse("moderation:ruling", args=[ruling.pk]),
            subject=ruling,
            key=f"moderation-ruling-answered:{ruling.pk}",
        )
    return told is not None


def tell_report_received(report_id: int, joined: bool) -> bool:
    """Tell the filer of report ``report_id`` that it reached the moderators: a case of
    its own, or one already open that it joined (and moved up the queue). Once per
    report; False when it is gone or was told already."""
    report = Report.objects.select_related("case__game").filter(pk=report_id).first()
    if report is None:
        return False
    case = report.case
    what = f"{case.get_category_display().lower()}, {game_words(case)}"
    if joined:
        # How many reported it stays with the moderators (the queue hides it from parties
        # too): the filer learns only that they are not alone.
        text = (
            f"Your report joined case {case.pk} ({what}), already open: others reported it "
            "too, which moves it up the moderators' queue. You will be told of the outcome."
        )
    else:
        text = (
            f"Your report was received: case {case.pk} ({what}) is open for the "
            "moderators. You will be told of the outcome."
        )
    with transaction.atomic():
        told = notices.create(
            report.filer_id,
            ModerationNotice.MODERATION_CASE,
            text,
            reverse("moderation:my_cases"),
            subject=case,
            key=f"moderation-report-received:{report.pk}",
        )
    return told is not None


def _recipients(ruling: Ruling) -> dict[int, tuple[str, str]]:
    """Who is told, with the kind of notification and the sentence that opens it. A
    member who is several things hears it once, in the most personal words."""
    case = ruling.case
    where = game_words(case)
    told: dict[int, tuple[str, str]] = {}
    for user_id in seated_user_ids(case):
        told[user_id] = (ModerationNotice.MODERATION_OUTCOME, f"A ruling in your {where}")
    # A pause decides nothing: the filer hears that the case is still being looked into.
    filed = (
        f"A moderator paused {where} while your report is looked into: the case is still open"
        if ruling.kind == Ruling.Kind.PAUSE
        else f"Your report on {where} was decided"
    )
    for user_id in Report.objects.filter(case=case).values_list("filer_id", flat=True):
        told[user_id] = (ModerationNotice.MODERATION_CASE, filed)
    for accused_id in (case.accused_id, ruling.target_id):
        if accused_id is not None:
            told[accused_id] = (
                ModerationNotice.MODERATION_OUTCOME,
                f"A ruling about you in {where}",
            )
    for moderator_id in (ruling.by_id, ruling.confirmed_by_id):
        if moderator_id is not None:
            told.pop(moderator_id, None)
    return told


def game_words(case: Case) -> str:
    """The case's game in the words of the game pages' notices."""
    game = case.game
    return f"game {game.number} of table {game.table_id}"


def excerpt(text: str, limit: int = NOTE_EXCERPT) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _outcome_text(headline: str, ruling: Ruling, replaces: bool) -> str:
    kind = ruling.get_kind_display()
    again = " (it replaces an earlier ruling)" if replaces else ""
    return f"{headline}: {kind}{again}. Why: {excerpt(ruling.note)} You may appeal."


def tell_appeal(appeal_id: int, by_moderator: bool) -> int:
    """Tell the other side of the appeal's thread that it moved: the appellant when a
    moderator answered or closed it, the case's moderators when the appellant wrote.
    Returns how many were told."""
    appeal = Appeal.objects.select_related("case__game", "appellant").filter(pk=appeal_id).first()
    if appeal is None:
        return 0
    last = appeal.messages.order_by("-created_at", "-pk").first()
    mark = last.pk if last is not None else 0
    link = reverse("moderation:appeal", args=[appeal.pk])
    where = game_words(appeal.case)
    if by_moderator:
        done = "closed" if appeal.status == Appeal.Status.CLOSED else "answered"
        recipients = {appeal.appellant_id: f"The moderators {done} your appeal about {where}."}
        kind = ModerationNotice.MODERATION_OUTCOME
    else:
        sentence = f"{appeal.appellant} is waiting for an answer to their appeal about {where}."
        recipients = {user_id: sentence for user_id in case_moderator_ids(appeal.case)}
        kind = ModerationNotice.MODERATION_QUEUE
    told = 0
    with transaction.atomic():
        for user_id, text in recipients.items():
            created = notices.create(
                user_id,
                kind,
                text,
                link,
                subject=appeal,
                key=f"moderation-appeal:{appeal.pk}:{mark}:{appeal.status}",
            )
            told += created is not None
    return told


def case_moderator_ids(case: Case) -> set[int]:
    """The moderators who worked on ``case``: who made or confirmed its rulings, and
    who holds its claim; they may take it (a conflict keeps anyone else out already)."""
    ids = set(Ruling.objects.filter(case=case).values_list("by_id", flat=True))
    confirmed = Ruling.objects.filter(case=case).exclude(confirmed_by=None)
    ids |= set(confirmed.values_list("confirmed_by_id", flat=True))
    if case.claimed_by_id is not None:
        ids.add(case.claimed_by_id)
    users = User.objects.filter(pk__in=ids, is_active=True)
    return {user.pk for user in users if user.has_perm("moderation.take_case", case)}
