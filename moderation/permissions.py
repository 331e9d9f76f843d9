"""Who moderates which case, and who may not take one: the ``rules`` predicates and
permissions of moderation.

* Site moderators (members of the :data:`~moderation.models.SITE_MODERATORS` group, and
  superusers) moderate every case.
* A club's moderators (its owner, organisers and moderators: ``leagues.permissions.MODERATING``)
  moderate the cases of the club's league games.
* A suspension takes those powers away where it holds, for its duration: from the club,
  a club's moderator's there; from the site, every one
  (:func:`moderation.suspensions.staff_refusal`, :func:`suspended_from_moderating`).
* Conflict of interest is enforced, not advised: nobody may take a case about a game they
  sat at, a case they filed, or one whose parties include someone they share a league
  division with in the game's season (taking part in it in any way: an entry, a
  substitute's seat, a seat handed over to a bot, a fixture played). :func:`conflicts`
  says which, in sentences.

* A party to a case (:func:`is_party`: who sat at the game, filed it, or is accused;
  who sat at it is everyone who ever held one of its seats, a player a substitute took
  over from mid-game included)
  reads it as a party whatever their role: the parties' outcome page and their own
  reports and appeals, never its log, the other parties' appeals or its proposals.

* The evidence (every rack) opens to whoever decides, read only: the moderator who
  claimed the case, a second moderator asked to confirm a proposed ruling of it, and
  whoever answers an open appeal of it; never to someone with a conflict.

* A member's record (every case, report, ruling, suspension and timeout of one member)
  and the archive of decided cases open to whoever moderates anything, each reading
  only the cases they moderate (:func:`record_scope`, :func:`record_cases`): a site
  moderator every case and game, a club's moderators their club's; never a case they
  are a party to (its other side's material stays out, whatever their role).

* A case's private notes are written and read by its moderators who are not parties
  (``moderation.read_notes``, ``moderation.add_note``); nothing a party reads carries
  them.

``user.has_perm("moderation.view_case", case)`` asks the first two;
``moderation.read_case`` adds the party rule (every read of a moderator's material asks
it); ``moderation.take_case`` adds the conflicts of interest; ``moderation.open_evidence``
adds who decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Q, QuerySet, Value
from rules.permissions import add_perm
from rules.predicates import Predicate

from accounts.models import User
from games.models import Game, Result, Seat, SeatOccupancy
from leagues.models import Fixture, Membership
from leagues.permissions import MODERATING
from leagues.selectors.participation import divisions_of, participants_in
from moderation.models import SITE_MODERATORS, Appeal, Case, Report, Ruling
from moderation.suspensions import staff_refusal, suspended_club_ids


def in_site_moderators(user: Any) -> bool:
    """A member of the site moderators' group (or a superuser), suspended or not."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return bool(user.groups.filter(name=SITE_MODERATORS).exists())


def is_site_moderator(user: Any) -> bool:
    """A member of the site moderators' group (or a superuser) whom no suspension from
    the site keeps from moderating (:func:`moderation.suspensions.staff_refusal`)."""
    return in_site_moderators(user) and staff_refusal(user, None) is None


def _has_club_role(user: Any, case: Case) -> bool:
    if case.club_id is None or not getattr(user, "is_authenticated", False):
        return False
    return Membership.objects.filter(club_id=case.club_id, user=user, role__in=MODERATING).exists()


def is_club_moderator_of(user: Any, case: Case) -> bool:
    """A moderator (or organiser, or the owner) of the club whose league game it is,
    whom no suspension (from the club or the site) keeps from moderating it."""
    return _has_club_role(user, case) and staff_refusal(user, case.club_id) is None


def suspended_from_moderating(user: Any, case: Case) -> str | None:
    """Why ``user``, who would moderate ``case`` (a site moderator, a moderator of its
    club), does not while a suspension lasts: its sentence, or ``None`` (not suspended,
    or no moderator of it anyway). The doors answer it with a 403 rather than "not
    found": the moderator knows the case."""
    if in_site_moderators(user):
        refusal = staff_refusal(user, None)
        if refusal is None:
            return None
        if not _has_club_role(user, case):
            return refusal
    if _has_club_role(user, case):
        return staff_refusal(user, case.club_id)
    return None


def seated_user_ids(case: Case) -> set[int]:
    """Every member who sat at the case's game's table (:func:`player_ids`)."""
    return player_ids(case.game)


def player_ids(game: Game) -> set[int]:
    """Every member who sat at the game's table: in a seat now, replaced by a bot, in a
    seat of the game a substitute (or a bot) took over from them (its occupancy, as
    :func:`games.selectors.sight.sat_at` reads it), or credited with a result of the
    game: one query."""
    seats = Seat.objects.filter(table_id=game.table_id)
    occupancy = SeatOccupancy.objects.filter(game_id=game.pk)
    first, *rest = [
        seats.values_list("user_id", flat=True),
        seats.values_list("replaced_user_id", flat=True),
        occupancy.values_list("member_id", flat=True),
        occupancy.values_list("plays_for_id", flat=True),
        Result.objects.filter(game_id=game.pk).values_list("member_id", flat=True),
    ]
    # One query: the union of every column that names who sat there.
    return set(first.union(*rest)) - {None}


def moderated_club_ids(user: Any) -> set[int]:
    """The clubs whose cases ``user`` moderates as one of its moderators, less those a
    suspension keeps them from."""
    if not getattr(user, "is_authenticated", False):
        return set()
    rows = Membership.objects.filter(user=user, role__in=MODERATING)
    clubs = set(rows.values_list("club_id", flat=True))
    return clubs - suspended_club_ids(user, clubs)


def moderating_refusal(user: Any, otherwise: str) -> str:
    """Why ``user`` may not open the moderators' own pages (the queue, the log): the
    sentence of the suspension that took every moderating power they hold (from the
    site, or from each club they moderate), else ``otherwise`` (they hold none)."""
    if in_site_moderators(user):
        refusal = staff_refusal(user, None)
        if refusal is not None:
            return refusal
    if getattr(user, "is_authenticated", False):
        rows = Membership.objects.filter(user=user, role__in=MODERATING)
        # One query for which clubs bar them (not one per club), then one sentence.
        barred = suspended_club_ids(user, set(rows.values_list("club_id", flat=True)))
        if barred:
            return staff_refusal(user, min(barred)) or otherwise
    return otherwise


def party_ids(case: Case) -> set[int]:
    """The case's parties: who sat at the game, who filed it, and whom it accuses."""
    return _parties(case, seated_user_ids(case), _filer_ids(case))


def party_to_game(user: User, game: Game) -> str | None:
    """``LEAGUES_PARTY_POLICY``: why ``user`` may not change ``game``'s result as an
    organiser, being a party to a case about it (they filed it or it accuses them; who
    sat at the game the leagues know themselves), or ``None``: one query."""
    cases = Case.objects.filter(game_id=game.pk).filter(
        Q(accused_id=user.pk) | Q(reports__filer_id=user.pk)
    )
    return "You are a party to a case about this game." if cases.exists() else None


def _filer_ids(case: Case) -> set[int]:
    return set(Report.objects.filter(case=case).values_list("filer_id", flat=True))


def _parties(case: Case, seated: set[int], filers: set[int]) -> set[int]:
    ids = seated | filers
    if case.accused_id is not None:
        ids.add(case.accused_id)
    return ids


def party_cases(user: Any) -> QuerySet[Case]:
    """The cases ``user`` is a party to: :func:`party_ids` asked from the member's side,
    in SQL, so that a list leaves them out in its query (each subquery reads an index on
    the member)."""
    if not getattr(user, "is_authenticated", False):
        return Case.objects.none()
    tables = Seat.objects.filter(Q(user=user) | Q(replaced_user=user)).values("table_id")
    occupied = SeatOccupancy.objects.filter(Q(member=user) | Q(plays_for=user)).values("game_id")
    credited = Result.objects.filter(member=user).values("game_id")
    filed = Report.objects.filter(filer=user).values("case_id")
    return Case.objects.filter(
        Q(accused=user)
        | Q(pk__in=filed)
        | Q(game__table_id__in=tables)
        | Q(game_id__in=occupied)
        | Q(game_id__in=credited)
    )


def is_party(user: Any, case: Case) -> bool:
    """Whether ``user`` is a party to ``case``: the one question every moderation read
    asks before it shows a moderator's material (a party reads their case as a party,
    whatever their role in the club or the site)."""
    return party_cases(user).filter(pk=case.pk).exists()


def conflicts(user: User, case: Case) -> list[str]:
    """Why ``user`` may not take ``case``, in sentences (empty: no conflict).

    The parties are read once here (a ruling asks this of its moderator more than once,
    and its confirmation of every eligible moderator)."""
    return conflicts_of(user, [case])[case.pk]


def conflicts_of(user: User, cases: Sequence[Case]) -> dict[int, list[str]]:
    """:func:`conflicts` of each of ``cases``, by id, in a few queries whatever their
    number (the queue asks it of every open case): the parties of them all in one, the
    divisions they share with ``user`` in up to three more."""
    if not cases:
        return {}
    seated, filers = _parties_of(cases)
    others = {
        case.pk: _parties(case, seated[case.pk], filers[case.pk]) - {user.pk} for case in cases
    }
    shared = _shared_divisions(user, cases, others)
    answers = {}
    for case in cases:
        reasons = []
        if user.pk in seated[case.pk]:
            reasons.append("You sat at this game's table.")
        if user.pk in filers[case.pk]:
            reasons.append("You filed a report in this case.")
        if case.accused_id == user.pk:
            reasons.append("The case is about you.")
        if case.pk in shared:
            reasons.append(f"You play in {shared[case.pk]}, as a party of the case does.")
        answers[case.pk] = reasons
    return answers


def _parties_of(cases: Sequence[Case]) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Who sat at each case's game (:func:`player_ids`) and who filed it, by case id:
    one query, the union of every column that names them."""
    seated: dict[int, set[int]] = {case.pk: set() for case in cases}
    filers: dict[int, set[int]] = {case.pk: set() for case in cases}
    of = Case.objects.filter(pk__in=list(seated)).order_by()
    sat, filed = Value(False), Value(True)
    first, *rest = [
        of.values_list("pk", column, role)
        for column, role in (
            ("game__table__seats__user_id", sat),
            ("game__table__seats__replaced_user_id", sat),
            ("game__occupancy__member_id", sat),
            ("game__occupancy__plays_for_id", sat),
            ("game__results__member_id", sat),
            ("reports__filer_id", filed),
        )
    ]
    for case_id, member_id, is_filer in first.union(*rest):
        if member_id is not None:
            (filers if is_filer else seated)[case_id].add(member_id)
    return seated, filers


def _shared_divisions(
    user: User, cases: Sequence[Case], others: dict[int, set[int]]
) -> dict[int, str]:
    """For each case whose game is a league fixture: a division of its season, named
    with its season ("Division 1 of Winter league, season 1"), where ``user`` and one of
    the case's other parties (``others``) both take part, in any way (an entry, a
    substitute's seat now or earlier, a seat handed over to a bot, a fixture played:
    :mod:`leagues.selectors.participation`); the top one when several are."""
    fixtures = {case.pk: case.fixture_id for case in cases if case.fixture_id and others[case.pk]}
    if not fixtures:
        return {}
    season_of = dict(
        Fixture.objects.filter(pk__in=set(fixtures.values())).values_list(
            "pk", "matchday__season_id"
        )
    )
    seasons = Fixture.objects.filter(pk__in=set(fixtures.values())).values("matchday__season_id")
    mine = list(divisions_of(user, seasons).select_related("season__league"))
    if not mine:
        return {}
    everyone = set().union(*(others[pk] for pk in fixtures))
    together = participants_in([division.pk for division in mine], everyone)
    shared = {}
    for case_id, fixture_id in fixtures.items():
        division = next(
            (
                d
                for d in mine
                if d.season_id == season_of.get(fixture_id)
                and any((d.pk, other) in together for other in others[case_id])
            ),
            None,
        )
        if division is not None:
            shared[case_id] = str(division)
    return shared


def _moderates(user: Any, case: Case) -> bool:
    return is_site_moderator(user) or is_club_moderator_of(user, case)


def _has_no_conflict(user: Any, case: Case) -> bool:
    return not conflicts(user, case)


def _decides(user: Any, case: Case) -> bool:
    """Whether ``user`` has a decision to make in ``case``: they hold its claim, a
    ruling of it proposed by another waits for their confirmation, or an appeal of it
    waits for an answer."""
    if case.claimed_by_id is not None and case.claimed_by_id == user.pk:
        return True
    proposed = Ruling.objects.filter(case=case, status=Ruling.Status.PROPOSED)
    if proposed.exclude(by_id=user.pk).exists():
        return True
    return Appeal.objects.filter(case=case, status=Appeal.Status.OPEN).exists()


def record_scope(user: Any) -> set[int] | None:
    """The clubs whose cases and games ``user`` reads in members' records: ``None`` for a
    site moderator (the whole site), else the clubs they moderate (empty: none)."""
    return None if is_site_moderator(user) else moderated_club_ids(user)


def record_cases(user: Any) -> QuerySet[Case]:
    """The cases a member's record or the archive shows ``user``: those they moderate,
    less those they are a party to."""
    scope = record_scope(user)
    cases = Case.objects.all() if scope is None else Case.objects.filter(club_id__in=scope)
    return cases.exclude(pk__in=party_cases(user).values("pk"))


def _reads_records(user: Any) -> bool:
    return is_site_moderator(user) or bool(moderated_club_ids(user))


moderates = Predicate(_moderates)
has_no_conflict = Predicate(_has_no_conflict)
is_no_party = Predicate(lambda user, case: not is_party(user, case))
decides = Predicate(_decides)


PERMISSIONS = {
    "moderation.view_case": moderates,
    "moderation.read_case": moderates & is_no_party,
    "moderation.take_case": moderates & has_no_conflict,
    "moderation.open_evidence": moderates & has_no_conflict & decides,
    "moderation.read_notes": moderates & is_no_party,
    "moderation.add_note": moderates & is_no_party,
    # Members' records and the archive (no object: what they show is record_cases).
    "moderation.read_records": Predicate(_reads_records),
}
# rules does not annotate add_perm.
for _name, _predicate in PERMISSIONS.items():
    add_perm(_name, _predicate)  # type: ignore[no-untyped-call]
