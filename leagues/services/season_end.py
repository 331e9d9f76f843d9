"""The end of a season: its last matchdays closed, its final standings, and the next
season proposed with promotion and relegation.

**Final means final, and comes only when it is meant.** A season closes in one of two
ways, never because its last matchday closed:

* an organiser confirms its close from the preview (:func:`preview_close_season`: which
  matchdays are still open or never opened and what closing them does, the final order
  of each division with points, who goes up and who goes down, the next season's
  divisions, and the warnings), or
* a season that runs itself: an organiser *announces* the close from the same preview
  (:func:`announce_close`) for a moment at least the grace period
  (``LEAGUES_CLOSE_GRACE_HOURS``, stated in the house rules) after its last deadline;
  the players are told, disputes may still be filed until then, and the beat job closes
  it at that moment (:func:`close_announced_season`).

:func:`close_season` then applies it all in one transaction: open matchdays are closed
(their unfinished fixtures settled by the season's rule, as at a deadline), matchdays
never opened are closed with their fixtures unplayed, the season is finished, each
entry keeps the rank its player is told (``Entry.final_rank``), and the next season is
created on the league's house rules with every player who did not withdraw registered
again, seeded by :func:`leagues.promotion.seeding`, except the entries a substitute
played to the end (:func:`replaced_entries`): the organiser who confirms the close
chooses who, if anyone, takes each of those places, the member or their substitute
(``carry_over``); unchosen, and at an announced close, nobody does, and both may register
as newcomers. Its registration is open: newcomers join it and anyone may unregister
before it starts. Players are told where they finished and where they play next.

After the close an organiser's score change is refused
(:mod:`leagues.services.adjustments`); a result changes only through a moderation
ruling, whose preview shows the new final order and says that promotion does not follow
(:func:`late_correction_note`), and whose players, and those whose place it changes, are
told (:func:`tell_of_late_correction`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Result
from leagues.conf import close_grace
from leagues.conflicts import PLAYERS_CLOSE, close_conflicts, refuse_conflicts
from leagues.divisions import Split, division_names, split
from leagues.errors import Conflict, LeaguesError
from leagues.models import Entry, Fixture, FixtureSeat, Matchday, Season
from leagues.notices import LeagueNotice
from leagues.promotion import moves as promotion_moves
from leagues.promotion import seeding
from leagues.selectors.standings import DivisionStandings, compute_season
from leagues.services.deadlines import audited, close_matchday, when
from leagues.signals import announce, season_close_announced, season_closed
from notifications.lines import line
from notifications.services import notices

NOT_PLAYED = "Not played: the season was closed before its matchday opened."


@dataclass(frozen=True)
class DivisionChange:
    """A player who changes division for the next season."""

    name: str
    from_level: int
    to_level: int


@dataclass
class SeasonEndPreview:
    """What closing ``season`` will do; nothing is written to make it."""

    season: Season
    open_matchdays: list[int]
    unplayed_matchdays: list[int]
    unfinished_fixtures: int
    final: list[tuple[str, list[str]]]
    """Each division's name and its players in final order (withdrawn ones left out)."""
    last_deadline: datetime | None = None
    announce_for: datetime | None = None
    """The earliest moment a close may be announced for: the grace period after the last
    deadline (or after now, if that is later)."""
    promoted: list[DivisionChange] = field(default_factory=list)
    relegated: list[DivisionChange] = field(default_factory=list)
    next_divisions: list[list[str]] = field(default_factory=list)
    division_notes: list[str] = field(default_factory=list)
    """What cutting the next season's divisions says: byes, a promotion kept by a size
    that gave way, a relegation the sizes could not take."""
    warnings: list[str] = field(default_factory=list)
    standings: list[FinalDivision] = field(default_factory=list)
    """Each division's final standings as the close will fix them (:func:`settled`)."""
    replaced: list[Entry] = field(default_factory=list)
    """The entries a substitute played to the end (:func:`replaced_entries`): not carried
    over unless the organiser chooses the member or the substitute for the place."""


@dataclass(frozen=True)
class FinalLine:
    """One player in a division's final standings: the place they are told (``None``
    for a player who withdrew: they get none and are not carried over), and points."""

    place: int | None
    name: str
    points: str


@dataclass(frozen=True)
class FinalDivision:
    name: str
    lines: list[FinalLine]


def preview_close_season(season: Season, now: datetime | None = None) -> SeasonEndPreview:
    """What :func:`close_season` would do now, with its warnings."""
    now = timezone.now() if now is None else now
    if season.status != Season.Status.RUNNING:
        raise Conflict("Only a season under way can be closed.")
    matchdays = list(season.matchdays.order_by("number"))
    open_days = [m.number for m in matchdays if m.status == Matchday.Status.OPEN]
    unplayed = [m.number for m in matchdays if m.status == Matchday.Status.SCHEDULED]
    unfinished = Fixture.objects.filter(
        matchday__season=season,
        matchday__status=Matchday.Status.OPEN,
        status__in=(Fixture.Status.SCHEDULED, Fixture.Status.PLAYING),
    ).count()
    # The order the close fixes: after it settles the unfinished fixtures, which can
    # reorder the divisions (promotion follows that order, as the final standings do).
    standings, final = settled(season)
    names = _names(season)
    level_of = {entry: level for level, (_, ids) in enumerate(final, start=1) for entry in ids}
    rules = season.league.house_rules()
    replaced = replaced_entries(season)
    cut = _next_cut(season, carried(final, {entry.pk for entry in replaced}))
    next_levels = cut.divisions
    moves = [
        DivisionChange(names[entry], level_of[entry], level)
        for level, ids in enumerate(next_levels, start=1)
        for entry in ids
        if level_of[entry] != level
    ]
    preview = SeasonEndPreview(
        season=season,
        open_matchdays=open_days,
        unplayed_matchdays=unplayed,
        unfinished_fixtures=unfinished,
        final=[(name, [names[e] for e in ids]) for name, ids in final],
        promoted=[m for m in moves if m.to_level < m.from_level],
        relegated=[m for m in moves if m.to_level > m.from_level],
        next_divisions=[[names[e] for e in ids] for ids in next_levels],
        division_notes=cut.notes(names.__getitem__, rules["seats"]),
        last_deadline=max((m.deadline for m in matchdays), default=None),
    )
    preview.announce_for = max(preview.last_deadline or now, now) + close_grace()
    preview.replaced = replaced
    preview.warnings = _warnings(preview)
    preview.standings = standings
    return preview


def replaced_entries(season: Season) -> list[Entry]:
    """The season's entries that a substitute plays (or played to the end): whose place
    next season is the organiser's choice, the member's, the substitute's or nobody's."""
    return list(
        season.entries.filter(status=Entry.Status.REGISTERED, substitute__isnull=False)
        .select_related("user", "substitute")
        .order_by("pk")
    )


def carried(final: list[tuple[str, list[int]]], left_out: set[int]) -> list[tuple[str, list[int]]]:
    """The final order without the entries ``left_out`` (the places of replaced players
    nobody was chosen for): what the next season is seeded and cut from."""
    return [(name, [entry for entry in ids if entry not in left_out]) for name, ids in final]


def _next_cut(season: Season, final: list[tuple[str, list[int]]]) -> Split[int]:
    """The next season's divisions as the close proposes them: the final order seeded
    with promotion and relegation, cut by the league's house rules as they are now."""
    levels = [ids for _, ids in final]
    rules = season.league.house_rules()
    promoted, relegated = promotion_moves(levels, season.promotion)
    order = seeding(levels, season.promotion)
    return split(order, rules["seats"], rules["division_size"], promoted, relegated)


class _RollBack(Exception):
    """Raised to leave the preview's savepoint, undoing everything in it."""


def settled(season: Season) -> tuple[list[FinalDivision], list[tuple[str, list[int]]]]:
    """The final standings and the final order (:func:`final_order`) once the close has
    settled the unfinished fixtures of the open matchdays: they are really settled, by
    the season's rule, in a savepoint that is then rolled back (as a score change is
    previewed), so the order is the one the close fixes, not the one before the settling
    (which can differ). Players who withdrew keep their line in the standings, without a
    place, as the close tells nobody of one and carries them nowhere."""
    found: tuple[list[FinalDivision], list[tuple[str, list[int]]]] = ([], [])
    try:
        with transaction.atomic():
            for matchday in season.matchdays.filter(status=Matchday.Status.OPEN):
                close_matchday(matchday, None, "The close's preview.")
            divisions = compute_season(season)
            found = ([_final_division(d) for d in divisions], _order(divisions))
            raise _RollBack
    except _RollBack:
        pass
    return found


def _final_division(division: DivisionStandings) -> FinalDivision:
    lines, place = [], 0
    for row in division.standings.rows:
        if not row.withdrawn:
            place += 1
        lines.append(FinalLine(None if row.withdrawn else place, row.name, row.points_text))
    return FinalDivision(division.name, lines)


def _warnings(preview: SeasonEndPreview) -> list[str]:
    warnings = list(preview.division_notes)
    players = sum(map(len, preview.next_divisions))
    seats = preview.season.league.seats
    if 0 < players < seats:
        warnings.append(
            f"Only {players} player{'s' * (players != 1)} carry over, fewer than a table "
            f"of {seats}: the next season starts once more register."
        )
    if preview.unfinished_fixtures:
        warnings.append(
            f"{_count(preview.unfinished_fixtures, 'fixture')} of matchday "
            f"{', '.join(map(str, preview.open_matchdays))} "
            f"{'is' if preview.unfinished_fixtures == 1 else 'are'} unfinished: "
            "settled by the season's deadline rule, as the final standings below show."
        )
    if preview.unplayed_matchdays:
        warnings.append(
            f"Matchday {', '.join(map(str, preview.unplayed_matchdays))} never opened: "
            "its fixtures will not be played."
        )
    if preview.season.league.seasons.filter(number__gt=preview.season.number).exists():
        warnings.append("The league has a later season already; no new one will be proposed.")
    else:
        warnings.extend(_replaced_left_out(preview))
    return warnings


def _replaced_left_out(preview: SeasonEndPreview) -> list[str]:
    """Each place a substitute played to the end is carried over only as the organiser
    chooses: they are told before confirming, whom it concerns."""
    following = preview.season.number + 1
    return [
        f"{entry.user}, whom {entry.substitute} replaced, is not registered for season "
        f"{following}, nor is {entry.substitute}, unless you choose one of them below to "
        "take the place; either may still register."
        for entry in preview.replaced
    ]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def final_order(season: Season) -> list[tuple[str, list[int]]]:
    """Each division's name and its entries' ids in standings order, best first, without
    the players who withdrew (they are not carried into the next season). Computed from
    the rows as they are now, never from a cache: closing reads it after settling."""
    return _order(compute_season(season))


def _order(divisions: Iterable[DivisionStandings]) -> list[tuple[str, list[int]]]:
    return [
        (division.name, [row.entry for row in division.standings.rows if not row.withdrawn])
        for division in divisions
    ]


def announce_close(season: Season, by: User, reason: str, now: datetime | None = None) -> Season:
    """Announce that ``season`` closes by itself at the end of its grace period (the
    grace after its last deadline, or after now if later); its players are told that
    disputes may be filed until then. The beat job closes it at that moment; an
    organiser may still close it earlier from the preview."""
    why = reason.strip()
    if not why:
        raise LeaguesError("Say why the season's close is announced.")
    now = timezone.now() if now is None else now
    with transaction.atomic(), audited(why, by):
        locked = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
        if locked.status != Season.Status.RUNNING:
            raise Conflict("Only a season under way can have its close announced.")
        if locked.closes_at is not None:
            raise Conflict(
                f"The season's close is announced already, for {when(locked.closes_at)}."
            )
        last = max(locked.matchdays.values_list("deadline", flat=True), default=now)
        locked.closes_at = max(last, now) + close_grace()
        locked.save(update_fields=["closes_at"])
        # One line for every player, the close a moment each reads in their own zone
        # (not the organiser's, who announced it).
        text = line(
            f"{locked} closes on ",
            locked.closes_at,
            ": then its standings are final and promotion and relegation are applied. "
            "Until then a dispute about one of its games may still be reported to the "
            "moderators.",
        )
        for user_id in _players(locked):
            notices.create(
                user_id,
                LeagueNotice.LEAGUE_SEASON,
                text,
                _standings_link(locked),
                subject=locked,
                key=f"season-close-announced:{locked.pk}",
            )
        announce(
            season_close_announced, Season, locked.pk, refresh=False, closes_at=locked.closes_at
        )
    return locked


def close_announced_season(season_id: int, now: datetime) -> Season | None:
    """The beat job's part: close the season if its announced close has come; returns
    the next season it proposed, or ``None`` (not due, or closed already)."""
    season = Season.objects.filter(
        pk=season_id, status=Season.Status.RUNNING, closes_at__lte=now
    ).first()
    if season is None:
        return None
    return close_season(season, None, ANNOUNCED_CLOSE, due_by=now)


ANNOUNCED_CLOSE = "The season's announced close came."


def close_season(
    season: Season,
    by: User | None,
    reason: str,
    due_by: datetime | None = None,
    carry_over: Mapping[int, int] | None = None,
) -> Season | None:
    """Close ``season`` as :func:`preview_close_season` says, in one transaction; returns
    the next season it proposes (``None`` if the league has one already).

    ``by`` is the organiser who confirmed it from the preview, who plays in none of its
    fixtures (:func:`leagues.conflicts.close_conflicts`); without one (the beat job),
    only a season whose announced close is due by ``due_by`` closes. ``carry_over``
    names, for entries a substitute played (:func:`replaced_entries`), who takes the
    place next season: the entry's member or its substitute (a user id); the others of
    those places are not carried over. Anything else in it is refused, and nothing
    changes."""
    carry_over = dict(carry_over or {})
    if not reason.strip():
        raise LeaguesError("Say why the season is closed.")
    if by is not None:
        refuse_conflicts(close_conflicts(by, season), PLAYERS_CLOSE)
    now = timezone.now()
    with transaction.atomic(), audited(reason.strip(), by):
        locked = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
        if locked.status != Season.Status.RUNNING:
            raise Conflict("Only a season under way can be closed.")
        if by is None and (due_by is None or locked.closes_at is None or locked.closes_at > due_by):
            raise Conflict(
                "A season closes when an organiser confirms it, or at the close announced "
                "in advance."
            )
        # Read under the season's lock, which a substitution takes too.
        replaced = {entry.pk: entry for entry in replaced_entries(locked)}
        _check_carry_over(carry_over, replaced)
        for matchday in locked.matchdays.order_by("number"):
            if matchday.status == Matchday.Status.OPEN:
                close_matchday(matchday, by, reason)
            elif matchday.status == Matchday.Status.SCHEDULED:
                matchday.fixtures.update(status=Fixture.Status.SETTLED, note=NOT_PLAYED)
                matchday.status = Matchday.Status.CLOSED
                matchday.save(update_fields=["status"])
        final = final_order(locked)
        locked.status = Season.Status.FINISHED
        locked.finished_at = now
        locked.save(update_fields=["status", "finished_at"])
        _keep_final_ranks(final)
        going_on = carried(final, set(replaced) - set(carry_over))
        following = _propose_next(locked, going_on, carry_over)
        _tell_players(locked, final, following, going_on, replaced, carry_over)
        announce(
            season_closed,
            Season,
            locked.pk,
            next_season_id=following.pk if following is not None else None,
        )
    return following


def _check_carry_over(carry_over: dict[int, int], replaced: dict[int, Entry]) -> None:
    for entry_id, user_id in carry_over.items():
        entry = replaced.get(entry_id)
        if entry is None:
            raise LeaguesError("Only a place a substitute played can be given to someone.")
        if user_id not in (entry.user_id, entry.substitute_id):
            raise LeaguesError(
                f"{entry.user}'s place goes to {entry.user} or {entry.substitute}, or to nobody."
            )


def _keep_final_ranks(final: list[tuple[str, list[int]]]) -> None:
    ranks = {entry: place for _, ids in final for place, entry in enumerate(ids, start=1)}
    entries = list(Entry.objects.filter(pk__in=ranks))
    for entry in entries:
        entry.final_rank = ranks[entry.pk]
    Entry.objects.bulk_update(entries, ["final_rank"])


def _propose_next(
    season: Season, going_on: list[tuple[str, list[int]]], carry_over: dict[int, int]
) -> Season | None:
    """The next season, with the entries ``going_on`` registered in their seeding order:
    each by its member, or by whom ``carry_over`` gives its place."""
    league = season.league
    if league.seasons.filter(number__gt=season.number).exists():
        return None
    following = Season.objects.create(
        league=league, number=season.number + 1, previous=season, **league.house_rules()
    )
    users = dict(season.entries.values_list("pk", "user_id")) | carry_over
    order = seeding([ids for _, ids in going_on], season.promotion)
    Entry.objects.bulk_create(
        Entry(season=following, user_id=users[entry], status=Entry.Status.REGISTERED, seed=seed)
        for seed, entry in enumerate(order, start=1)
    )
    return following


def _tell_players(
    season: Season,
    final: list[tuple[str, list[int]]],
    following: Season | None,
    going_on: list[tuple[str, list[int]]],
    replaced: dict[int, Entry],
    carry_over: dict[int, int],
) -> None:
    """Each player hears where they finished, and where they play next season; a member
    whose place a substitute played hears whether it is still theirs (the substitute
    hears of theirs: :func:`leagues.services.organiser.tell_substitutes_of_close`)."""
    league = season.league
    link = _standings_link(season)
    users = dict(season.entries.values_list("pk", "user_id"))
    going = _where_next(season, going_on) if following is not None else {}
    for level, (name, ids) in enumerate(final, start=1):
        for place, entry in enumerate(ids, start=1):
            text = (
                f"{league.name}, season {season.number} is over: you finished "
                f"{ordinal(place)} in {name}."
            )
            if (
                following is not None
                and entry in replaced
                and carry_over.get(entry) != users[entry]
            ):
                text += (
                    f" {replaced[entry].substitute} played for you, and you are not "
                    f"registered for season {following.number}: register there if you "
                    "want to play."
                )
            elif following is not None:
                text += f" You are registered for season {following.number}"
                text += _move_words(level, *going[entry]) if entry in going else "."
            notices.create(
                users[entry],
                LeagueNotice.LEAGUE_SEASON,
                text,
                link,
                subject=season,
                key=f"season-end:{season.pk}",
            )


def _where_next(season: Season, final: list[tuple[str, list[int]]]) -> dict[int, tuple[int, str]]:
    """Each entry's level and division name next season, as the close proposes them;
    nothing where the league plays in one division either side (nobody moves)."""
    divisions = _next_cut(season, final).divisions
    if len(final) <= 1 and len(divisions) <= 1:
        return {}
    names = division_names(len(divisions))
    return {
        entry: (level, names[level - 1])
        for level, ids in enumerate(divisions, start=1)
        for entry in ids
    }


def _move_words(level: int, next_level: int, name: str) -> str:
    """ ": you go up to Division 1." (down, or stay), after "registered for season N"."""
    if next_level < level:
        return f": you go up to {name}."
    if next_level > level:
        return f": you go down to {name}."
    return f": you stay in {name}."


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


def _names(season: Season) -> dict[int, str]:
    return {
        entry.pk: str(entry.user) for entry in season.entries.select_related("user").order_by("pk")
    }


def _standings_link(season: Season) -> str:
    league = season.league
    return reverse(
        "leagues:standings",
        kwargs={"slug": league.club.slug, "league_slug": league.slug, "number": season.number},
    )


def _players(season: Season) -> list[int]:
    return sorted(
        set(season.entries.exclude(status=Entry.Status.DECLINED).values_list("user_id", flat=True))
    )


# --- a result changed after the close ---------------------------------------------------


def late_correction_note(season: Season) -> str:
    """What a ruling on a closed season's game changes, in words, for its preview: the
    final order, and explicitly not the promotion (the next season's divisions and seeds
    were made at the close)."""
    following = Season.objects.filter(previous=season).first()
    after = (
        f"season {following.number}'s divisions and seeds stay as the close made them"
        if following is not None
        else "no division changes"
    )
    return (
        f"{season} is closed: this ruling changes its final standings, shown above, but "
        f"promotion and relegation do not follow it ({after}). The game's players and those "
        "whose final place changes are told."
    )


def tell_of_late_correction(table_id: int, game_id: int) -> int:
    """A ruling changed a result of a closed season's fixture (after its commit): its
    players, and every player of the division whose place now differs from the one they
    were told at the close, are told where they stand and that promotion stands. Returns
    how many were told; 0 for a table of no closed season."""
    fixture = (
        Fixture.objects.select_related("matchday__season__league__club", "division")
        .filter(table_id=table_id, matchday__season__status=Season.Status.FINISHED)
        .first()
    )
    if fixture is None:
        return 0
    season = fixture.matchday.season
    rows = next(
        (d.standings.rows for d in compute_season(season) if d.level == fixture.division.level),
        [],
    )
    in_game = set(FixtureSeat.objects.filter(fixture=fixture).values_list("entry_id", flat=True))
    entries = Entry.objects.in_bulk([row.entry for row in rows])
    number = Result.objects.filter(game_id=game_id).values_list("game__number", flat=True).first()
    told = 0
    with transaction.atomic():
        for row in rows:
            entry = entries[row.entry]
            if entry.pk not in in_game and row.rank == (entry.final_rank or row.rank):
                continue  # their place is what they were told (or they had withdrawn)
            was = (
                f" (you finished {ordinal(entry.final_rank)} at the close)"
                if entry.final_rank
                else ""
            )
            text = (
                f"A moderators' ruling changed game {number} of your fixture in {season} after "
                f"it closed: you are now {ordinal(row.rank)} in {fixture.division.name}{was}. "
                "Promotion and relegation made at the close stand."
            )
            if entry.pk not in in_game:
                text = text.replace("of your fixture", "of a fixture of your division")
            created = notices.create(
                entry.player.pk,
                LeagueNotice.LEAGUE_SEASON,
                text,
                _standings_link(season),
                subject=season,
                key=f"season-late:{game_id}:{entry.pk}:{row.rank}:{row.points_text}",
            )
            told += created is not None
    return told
