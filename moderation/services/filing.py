"""Filing a dispute: a member's report of a game, or of a chat message of it.

A report joins the open case of its game and category when there is one (raising its
priority), else opens one. The form refuses what cannot be true and says why, and a
member files at most ``MODERATION_REPORTS_PER_DAY`` reports a day. Each report carries
its filer's credibility (:func:`credibility`), so a member whose reports keep being
dismissed raises a case's priority less.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from common.signals import send_after_commit
from games.models import ChatMessage, Game, Move
from games.selectors.chat import may_read_message
from games.selectors.sight import may_see
from moderation.errors import Conflict, ModerationError, NotAllowed, NotFound, TooMany
from moderation.models import Case, Category, LogEntry, Report, Ruling
from moderation.permissions import player_ids
from moderation.policies import refusal
from moderation.signals import case_filed

TEXT_LIMIT = 2000
MESSAGE_CATEGORIES = (Category.ABUSE, Category.COLLUSION, Category.OTHER)
"""What a report of a chat message may complain of."""

# A member with no decided reports weighs 1; each dismissed one lowers it, each upheld one
# raises it back (a smoothed share of upheld reports), never below the floor.
PRIOR_UPHELD = 2
LEAST_WEIGHT = 0.2


@dataclass(frozen=True)
class Filing:
    """What a member says in a report."""

    category: str
    text: str
    turn_number: int | None = None
    accused_id: int | None = None


def file_game_report(game_id: int, filer: User, filing: Filing) -> Report:
    """``filer`` (a player of the game) reports it; returns the report, whose case is new
    or the open one it joined."""
    with transaction.atomic():
        _lock_filer(filer)
        game = Game.objects.select_for_update().select_related("table").filter(pk=game_id).first()
        if game is None:
            raise NotFound("There is no such game.")
        if not may_see(filer, game.table):
            raise NotFound("There is no such game.")
        players = player_ids(game)
        if filer.pk not in players:
            raise NotAllowed("Only the game's players may report it.")
        _check_not_suspended(filer, game)
        _check_text(filing.text)
        _check_category(game, filing.category)
        _check_turn(game, filing.turn_number)
        if filing.accused_id is not None and (
            filing.accused_id == filer.pk or filing.accused_id not in players
        ):
            raise ModerationError("Name another player of this game, or nobody.")
        return _file(game, filer, filing, message=None)


def file_message_report(message_id: int, filer: User, category: str, text: str) -> Report:
    """``filer`` reports a chat message they could read; it accuses the message's author."""
    with transaction.atomic():
        _lock_filer(filer)
        message = ChatMessage.objects.select_related("game", "table").filter(pk=message_id).first()
        if message is None:
            raise NotFound("There is no such message.")
        game = message.game or message.table.games.order_by("-number").first()
        if game is None:
            raise NotFound("There is no such message.")
        game = Game.objects.select_for_update().select_related("table").get(pk=game.pk)
        if not may_read_message(filer, message):
            # Only a message the filer could read at its table: a hidden one, the
            # spectators' side to a player, a private table's to an outsider are not there.
            raise NotFound("There is no such message.")
        if message.author_id == filer.pk:
            raise ModerationError("That is your own message.")
        _check_not_suspended(filer, game)
        if category not in MESSAGE_CATEGORIES:
            raise ModerationError(
                "A message can be reported as abusive chat, suspected collusion or other."
            )
        _check_text(text)
        filing = Filing(category, text, message.turn_number, message.author_id)
        return _file(game, filer, filing, message=message)


def credibility(user: User) -> float:
    """How much a report of ``user`` weighs, from 1 down to :data:`LEAST_WEIGHT`: the
    smoothed share of their reports in decided cases that were not dismissed."""
    decided = Report.objects.filter(filer=user, case__status=Case.Status.DECIDED)
    total = decided.count()
    if not total:
        return 1.0
    dismissed = (
        decided.filter(
            case__rulings__kind=Ruling.Kind.DISMISS, case__rulings__status=Ruling.Status.APPLIED
        )
        .distinct()
        .count()
    )
    share = (total - dismissed + PRIOR_UPHELD) / (total + PRIOR_UPHELD)
    return round(max(LEAST_WEIGHT, min(1.0, share)), 2)


def reports_today(user: User) -> int:
    """Reports ``user`` filed in the last 24 hours."""
    since = timezone.now() - timedelta(days=1)
    return Report.objects.filter(filer=user, created_at__gte=since).count()


# --- the checks: what cannot be true, said why ---------------------------------------------


def _lock_filer(filer: User) -> None:
    # The daily limit counts the filer's reports: two filings at once must not both see
    # one report left, so each waits for the other's transaction.
    User.objects.select_for_update().filter(pk=filer.pk).first()
    limit = settings.MODERATION_REPORTS_PER_DAY
    if reports_today(filer) >= limit:
        raise TooMany(
            f"You have filed {limit} reports in the last 24 hours, the most for a day. "
            "Try again tomorrow; a moderator is looking at the ones you filed."
        )


def _check_not_suspended(filer: User, game: Game) -> None:
    # A suspended member files no new reports where their suspension holds (the site, or
    # the club of the game's league); their appeal of the ruling stays open to them.
    sentence = refusal(filer, game.table, "report")
    if sentence:
        raise NotAllowed(sentence)


def _check_text(text: str) -> None:
    if not text.strip():
        raise ModerationError("Say what happened: the moderators read it first.")
    if len(text) > TEXT_LIMIT:
        raise ModerationError(f"Keep it under {TEXT_LIMIT} characters.")


def _check_category(game: Game, category: str) -> None:
    if category not in Category.values:
        raise ModerationError("Choose what the report is about.")
    if category == Category.ABUSE:
        raise ModerationError(
            "Abusive chat is reported from the message itself: use Report next to it in "
            "the table's chat."
        )
    if category == Category.CLOCK and not _timeouts(game).exists():
        raise ModerationError(
            "No turn of this game ran out of time, so there is no timeout to dispute. "
            "If a move of yours went wrong, choose the bug category."
        )
    if category == Category.STALLING and not _someone_left_or_timed_out(game):
        raise ModerationError(
            "Nobody in this game has timed out, resigned or left it, so it cannot be "
            "stalling or abandonment: a slow player within their time is allowed to think."
        )


def _timeouts(game: Game) -> QuerySet[Move]:
    return Move.objects.filter(game=game).filter(Q(by=Move.By.TIMEOUT) | Q(action__type="timeout"))


def _someone_left_or_timed_out(game: Game) -> bool:
    moves = Move.objects.filter(game=game)
    left = Q(by=Move.By.TIMEOUT) | Q(action__type__in=["timeout", "resign", "forfeit"])
    if moves.filter(left).exists():
        return True
    return game.table.seats.exclude(replaced_user=None).exists()


def _check_turn(game: Game, turn: int | None) -> None:
    if turn is None:
        return
    if turn < 1 or turn > game.turn_number:
        raise ModerationError(
            f"This game has turns 1 to {game.turn_number}; turn {turn} never happened."
        )


# --- the filing itself ---------------------------------------------------------------------


def _file(game: Game, filer: User, filing: Filing, message: ChatMessage | None) -> Report:
    """Join the open case of the game and category, or open one. The game's row is
    locked by the caller, so two first reports cannot both open a case."""
    now = timezone.now()
    case = (
        Case.objects.select_for_update()
        .filter(game=game, category=filing.category, status=Case.Status.OPEN)
        .first()
    )
    joined = case is not None
    if case is None:
        case = _open_case(game, filing, message, now)
    elif Report.objects.filter(case=case, filer=filer).exists():
        raise Conflict(f"You reported this already: your report is part of case {case.pk}.")
    elif case.accused_id is None and filing.accused_id is not None:
        case.accused_id = filing.accused_id
        case.save(update_fields=["accused"])
    report = Report.objects.create(
        case=case,
        filer=filer,
        text=filing.text.strip(),
        turn_number=filing.turn_number,
        message=message,
        weight=credibility(filer),
        created_at=now,
    )
    LogEntry.objects.create(
        at=now,
        actor=filer,
        action=LogEntry.Action.JOINED if joined else LogEntry.Action.FILED,
        case=case,
        club_id=case.club_id,
        summary=(
            f"{filer} joined case {case.pk} ({case.get_category_display()})."
            if joined
            else f"{filer} filed case {case.pk} ({case.get_category_display()}) "
            f"about game {game.pk}."
        ),
        reason=report.text,
        changes={"report": report.pk, "weight": report.weight},
    )
    send_after_commit(case_filed, Case, case_id=case.pk, report_id=report.pk, joined=joined)
    return report


def _open_case(game: Game, filing: Filing, message: ChatMessage | None, now: datetime) -> Case:
    fixture = getattr(game.table, "fixture", None)
    return Case.objects.create(
        game=game,
        category=filing.category,
        club=fixture.matchday.season.league.club if fixture else None,
        fixture=fixture,
        turn_number=filing.turn_number,
        message=message,
        accused_id=filing.accused_id,
        opened_at=now,
    )
